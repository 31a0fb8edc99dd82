package io.privmat.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.lang.management.ManagementFactory;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Fair use under a flood (issue 36; docs/reliability.md, "Free work and storage"): one analyst
 * (analyst-a) floods {@code POST /v1/datasets/{id}/strategies} with distinct OPTIMIZED workloads (two
 * boxes on a 1 024-value attribute, one number changed each time: each a new key, as in the issue's
 * attack) at the default rate limit of 50 requests a second, while another analyst (analyst-b) quotes
 * small OPTIMIZED workloads (a distinct RANGES workload on a 64-value attribute each time, so every
 * quote computes its strategy inline) and runs COLUMN_SUMS jobs (submit → DONE). The same victim
 * measurements are taken first without the flood. The service runs with its default limits in the
 * benchmark's JVM. Run: {@code ./mvnw -o test -Pbenchmark -Dtest=FairnessBenchmark}.
 */
@Tag("benchmark")
@TestPropertySource(properties = "privmat.embedded-postgres.database=bench_fairness")
class FairnessBenchmark extends ApiTest {

    private static final int QUOTES = 30;
    private static final int JOBS = 10;

    private String histogram(int size, String analyst) {
        Response r = postJson("/v1/datasets", "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"neighbouring\":\"ADD_REMOVE\","
                + "\"budget\":{\"epsilon\":1,\"delta\":1e-6},\"attributes\":[{\"name\":\"x\",\"size\":" + size + "}]}");
        String id = r.json().get("id").asString();
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", "x\n1\n5\n7\n".getBytes()).status()).isEqualTo(200);
        assertThat(postJson("/v1/datasets/" + id + "/grants", "{\"analyst\":\"" + analyst + "\"}").status())
                .isEqualTo(201);
        return id;
    }

    private Response as(String key, String path, String json) {
        return sendAs(key, HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Milliseconds of each small quote and of each COLUMN_SUMS job (submit → DONE), in order. */
    private record Victim(double[] quotes, double[] jobs, Map<Integer, Integer> statuses) {}

    private Victim victim(String histogram, String matrix, int round) throws InterruptedException {
        String key = otherAnalystKey();
        double[] quotes = new double[QUOTES];
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (int i = 0; i < QUOTES; i++) {
            int lo = (round * QUOTES + i) % 50;
            long start = System.nanoTime();
            Response q = as(key, "/v1/datasets/" + histogram + "/queries/quote", "{\"kind\":\"LINEAR_QUERIES\","
                    + "\"mechanism\":\"OPTIMIZED\",\"rho\":0.1,\"params\":{\"workload\":{\"type\":\"RANGES\",\"boxes\":"
                    + "[{\"x\":[" + lo + "," + (lo + 10 + round) + "]},{\"x\":[3,60]}]}}}");
            quotes[i] = (System.nanoTime() - start) / 1e6;
            statuses.merge(q.status(), 1, Integer::sum);
        }
        double[] jobs = new double[JOBS];
        for (int i = 0; i < JOBS; i++) {
            long start = System.nanoTime();
            Response r = as(key, "/v1/datasets/" + matrix + "/queries",
                    "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.0001}");
            statuses.merge(r.status(), 1, Integer::sum);
            if (r.status() == 202) {
                String job = r.json().get("id").asString();
                JsonNode view = get("/v1/jobs/" + job).json();
                while (!view.get("state").asString().equals("DONE") && !view.get("state").asString().equals("FAILED")) {
                    Thread.sleep(5);
                    view = get("/v1/jobs/" + job).json();
                }
            }
            jobs[i] = (System.nanoTime() - start) / 1e6;
        }
        return new Victim(quotes, jobs, statuses);
    }

    private static String summary(double[] ms) {
        double[] s = ms.clone();
        Arrays.sort(s);
        return String.format(Locale.ROOT, "median %.0f ms, p90 %.0f ms, max %.0f ms", s[s.length / 2],
                s[(int) Math.ceil(0.9 * s.length) - 1], s[s.length - 1]);
    }

    private static String load() {
        return String.format(Locale.ROOT, "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    @Test
    void aFloodingAnalystDoesNotSlowAnotherOnesQuotesAndJobs() throws Exception {
        String victimData = histogram(64, "analyst-b");
        String floodData = histogram(1024, ANALYST);
        String matrix = readyMatrix("{\"epsilon\":100,\"delta\":1e-6}", "REPLACE_ONE");
        assertThat(postJson("/v1/datasets/" + matrix + "/grants", "{\"analyst\":\"analyst-b\"}").status())
                .isEqualTo(201);
        victim(victimData, matrix, 9); // warm-up (JIT, caches), not reported

        Victim quiet = victim(victimData, matrix, 0);
        System.out.printf("bench fairness: load %s; without a flood: small OPTIMIZED quotes %s; COLUMN_SUMS jobs %s; "
                + "statuses %s%n", load(), summary(quiet.quotes()), summary(quiet.jobs()), quiet.statuses());

        AtomicBoolean flooding = new AtomicBoolean(true);
        Map<Integer, Integer> flood = new TreeMap<>();
        List<String> accepted = new ArrayList<>();
        Thread flooder = new Thread(() -> {
            int i = 0;
            while (flooding.get()) {
                long start = System.nanoTime();
                Response r = as(analystKey(), "/v1/datasets/" + floodData + "/strategies", "{\"mechanism\":\"OPTIMIZED\","
                        + "\"params\":{\"workload\":{\"type\":\"RANGES\",\"boxes\":[{\"x\":[0," + (100 + i++)
                        + "]},{\"x\":[5,900]}]}}}");
                synchronized (flood) {
                    flood.merge(r.status(), 1, Integer::sum);
                    if (r.status() == 202) {
                        accepted.add(r.json().get("key").asString());
                    }
                }
                long wait = 20_000_000L - (System.nanoTime() - start); // 50 requests a second
                if (wait > 0) {
                    try {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, "flooder");
        flooder.start();
        Thread.sleep(2_000); // the flood is under way: its first computation runs, its quota is full
        Victim flooded = victim(victimData, matrix, 1);
        flooding.set(false);
        flooder.join();
        System.out.printf("bench fairness: load %s; during the flood: small OPTIMIZED quotes %s; COLUMN_SUMS jobs %s; "
                + "statuses %s%n", load(), summary(flooded.quotes()), summary(flooded.jobs()), flooded.statuses());
        System.out.printf("bench fairness: the flood (analyst-a, 50 requests/s): statuses %s%n", flood);
        assertThat(flooded.statuses()).as("the victim is never refused").containsOnlyKeys(200, 202);
        assertThat(flood).as("the flood meets its quota").containsKey(429);
        synchronized (flood) {
            assertThat(accepted.size()).as("a key's quota: one running, two waiting (and whatever finished)")
                    .isLessThan(flood.values().stream().mapToInt(Integer::intValue).sum());
        }
    }
}
