package io.privmat.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * LINEAR_QUERIES through the service (docs/benchmarks.md, "Linear queries through the service"):
 * strategy computation time and peak heap per workload size (POST /v1/datasets/{id}/strategies, then
 * polling GET /v1/strategies/{key}), the cache making the second identical quote instant (inline and
 * background strategies), job time for large workloads, and the time to answer 10^5 further box
 * queries (and 10^4 dense queries) on a HISTOGRAM_ESTIMATE release. Data: seeded synthetic records
 * (seed 17); boxes seed 23. Run: {@code ./mvnw -o test -Pbenchmark -Dtest=LinearQueriesServiceBenchmark}.
 * Writes target/benchmarks/linear-queries-service.md. The service runs in the benchmark's JVM, so
 * "peak heap" is the whole JVM's peak during the computation; the idle baseline after a GC is printed.
 * 10^5 boxes are a 2–3 MB JSON body: this class raises {@code privmat.security.max-json-body} (1 MiB by
 * default) to 32 MB, as a deployment that wants the endpoint's full counts must.
 */
@Tag("benchmark")
@TestPropertySource(properties = {"privmat.embedded-postgres.database=bench_linear",
        "privmat.security.max-json-body=32MB"})
class LinearQueriesServiceBenchmark extends ApiTest {

    static final Path OUT = Path.of("target", "benchmarks", "linear-queries-service.md");
    private final StringBuilder out = new StringBuilder();

    private void print(String line) {
        System.out.println(line);
        out.append(line).append('\n');
    }

    private static String load() {
        return String.format(Locale.ROOT, "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** A HISTOGRAM with the given attribute sizes and {@code records} seeded records. */
    private String histogram(int[] sizes, int records) {
        StringBuilder attributes = new StringBuilder("[");
        StringBuilder csv = new StringBuilder();
        for (int a = 0; a < sizes.length; a++) {
            attributes.append(a == 0 ? "" : ",").append("{\"name\":\"a").append(a).append("\",\"size\":")
                    .append(sizes[a]).append('}');
            csv.append(a == 0 ? "" : ",").append('a').append(a);
        }
        csv.append('\n');
        SplittableRandom random = new SplittableRandom(17);
        for (int r = 0; r < records; r++) {
            for (int a = 0; a < sizes.length; a++) {
                // Skewed: half the records in the lowest eighth of each attribute.
                int v = random.nextBoolean() ? random.nextInt(Math.max(1, sizes[a] / 8)) : random.nextInt(sizes[a]);
                csv.append(a == 0 ? "" : ",").append(v);
            }
            csv.append('\n');
        }
        Response d = postJson("/v1/datasets", "{\"name\":\"bench\",\"kind\":\"HISTOGRAM\",\"neighbouring\":"
                + "\"REPLACE_ONE\",\"attributes\":" + attributes.append(']') + ",\"budget\":{\"epsilon\":100,"
                + "\"delta\":1e-6}}");
        assertThat(d.status()).as(d.toString()).isEqualTo(201);
        String id = d.json().get("id").asString();
        Response up = put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        return id;
    }

    private static String query(String mechanism, String budget, String workload) {
        return "{\"kind\":\"LINEAR_QUERIES\",\"mechanism\":\"" + mechanism + "\"," + budget + ",\"params\":{\"workload\":"
                + workload + "}}";
    }

    private static List<MemoryPoolMXBean> resetHeapPeaks() {
        System.gc();
        List<MemoryPoolMXBean> heap = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
                heap.add(pool);
            }
        }
        return heap;
    }

    private static double mb(List<MemoryPoolMXBean> heap, boolean peak) {
        double used = 0;
        for (MemoryPoolMXBean pool : heap) {
            used += (peak ? pool.getPeakUsage() : pool.getUsage()).getUsed();
        }
        return used / (1 << 20);
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    /** Wall time of a quote in seconds; asserts its status. */
    private double quoteSeconds(String dataset, String q, int status) {
        long start = System.nanoTime();
        Response r = postJson("/v1/datasets/" + dataset + "/queries/quote", q);
        double s = seconds(start);
        assertThat(r.status()).as(r.toString()).isEqualTo(status);
        return s;
    }

    @Test
    void strategiesCacheAndAnswers() throws Exception {
        print("\n## Linear queries through the service, load average " + load() + " ("
                + Runtime.getRuntime().availableProcessors() + " cores, max heap "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MB)\n");
        // A dedicated database: start from an empty strategy table so that every strategy is computed here.
        jdbc.update("DELETE FROM strategy");
        List<MemoryPoolMXBean> idle = resetHeapPeaks();
        print(String.format(Locale.ROOT, "Idle service heap after a GC: %.0f MB.%n", mb(idle, false)));

        // Warm-up (not reported): one optimised and one Low-Rank strategy, so the JIT has compiled the solvers.
        for (String mechanism : List.of("OPTIMIZED", "LOW_RANK_MECHANISM")) {
            String warm = histogram(new int[] {48}, 100);
            Response post = postJson("/v1/datasets/" + warm + "/strategies", "{\"mechanism\":\"" + mechanism
                    + "\",\"params\":{\"workload\":{\"type\":\"ALL_RANGE\"}}}");
            JsonNode s = post.json();
            while (!s.get("status").asString().equals("DONE")) {
                Thread.sleep(20);
                s = get("/v1/strategies/" + post.json().get("key").asString()).json();
            }
        }

        // 1. Strategy computation through POST /strategies + polling; then the first and second quote.
        print("| mechanism | workload | n | queries | POST → DONE | computeMillis | peak heap | stored bytes "
                + "| RMSE/unit noise | 1st quote after DONE | 2nd quote |");
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        record Case(String mechanism, String workload, int[] sizes) {}
        List<Case> cases = List.of(
                new Case("OPTIMIZED", "{\"type\":\"ALL_RANGE\"}", new int[] {64}),
                new Case("OPTIMIZED", "{\"type\":\"ALL_RANGE\"}", new int[] {256}),
                new Case("OPTIMIZED", "{\"type\":\"ALL_RANGE\"}", new int[] {1024}),
                new Case("OPTIMIZED", "{\"type\":\"PREFIX\"}", new int[] {256}),
                new Case("OPTIMIZED", "{\"type\":\"PREFIX\"}", new int[] {1024}),
                new Case("OPTIMIZED", "{\"type\":\"ALL_RANGE\"}", new int[] {32, 32}),
                new Case("OPTIMIZED", "{\"type\":\"ALL_RANGE\"}", new int[] {64, 64}),
                new Case("LOW_RANK_MECHANISM", "{\"type\":\"ALL_RANGE\"}", new int[] {64}),
                new Case("LOW_RANK_MECHANISM", "{\"type\":\"ALL_RANGE\"}", new int[] {128}));
        for (Case c : cases) {
            String dataset = histogram(c.sizes(), 1000);
            String budget = c.mechanism().equals("OPTIMIZED") ? "\"rho\":0.1" : "\"epsilon\":1";
            List<MemoryPoolMXBean> heap = resetHeapPeaks();
            long start = System.nanoTime();
            Response post = postJson("/v1/datasets/" + dataset + "/strategies", "{\"mechanism\":\"" + c.mechanism()
                    + "\",\"params\":{\"workload\":" + c.workload() + "}}");
            assertThat(post.status()).as(post.toString()).isIn(200, 202);
            String link = "/v1/strategies/" + post.json().get("key").asString();
            JsonNode s = post.json();
            while (!s.get("status").asString().equals("DONE")) {
                assertThat(s.get("status").asString()).as(s.toString()).isIn("PENDING", "RUNNING");
                Thread.sleep(20);
                s = get(link).json();
            }
            double wall = seconds(start);
            double peak = mb(heap, true);
            String q = query(c.mechanism(), budget, c.workload());
            double first = quoteSeconds(dataset, q, 200);
            double second = quoteSeconds(dataset, q, 200);
            print(String.format(Locale.ROOT, "| %s | %s | %s | %d | %.2f s | %d | %.0f MB | %d | %.4g | %.0f ms | %.0f ms |",
                    c.mechanism(), JSON.readTree(c.workload()).get("type").asString(), shape(c.sizes()),
                    s.get("queries").asInt(), wall,
                    s.get("computeMillis").asLong(), peak, s.get("bytes").asLong(),
                    s.get("expectedRmsePerUnitNoise").asDouble(), first * 1e3, second * 1e3));
        }

        // 2. Inline strategies (workloads not computed above): the first quote computes, the second reads the cache.
        print("\n| inline strategy | workload | n | 1st quote (computes) | 2nd quote (cached) | 3rd quote |");
        print("|---|---|---:|---:|---:|---:|");
        for (Case c : List.of(new Case("OPTIMIZED", "{\"type\":\"ALL_RANGE\"}", new int[] {200}),
                new Case("OPTIMIZED", "{\"type\":\"PREFIX\"}", new int[] {192}),
                new Case("LOW_RANK_MECHANISM", "{\"type\":\"PREFIX\"}", new int[] {64}))) {
            String dataset = histogram(c.sizes(), 1000);
            String q = query(c.mechanism(), c.mechanism().equals("OPTIMIZED") ? "\"rho\":0.2" : "\"epsilon\":2",
                    c.workload());
            double first = quoteSeconds(dataset, q, 200);
            double second = quoteSeconds(dataset, q, 200);
            double third = quoteSeconds(dataset, q, 200);
            print(String.format(Locale.ROOT, "| %s | %s | %s | %.0f ms | %.0f ms | %.0f ms |", c.mechanism(),
                    c.workload().replaceAll("[{}\"]", "").replace("type:", ""), shape(c.sizes()), first * 1e3,
                    second * 1e3, third * 1e3));
        }

        // 3. Jobs: submit → DONE wall time for large workloads (strategies cached above or none needed).
        print("\n| job | workload | n | queries | submit → DONE | .npy bytes | answers inline |");
        print("|---|---|---:|---:|---:|---:|---|");
        String big1d = histogram(new int[] {1024}, 10_000);
        String big2d = histogram(new int[] {32, 32}, 10_000);
        String[][] jobs = {
            {big1d, "OPTIMIZED", "\"rho\":0.1", "{\"type\":\"ALL_RANGE\"}", "1024"},
            {big1d, "HIERARCHICAL", "\"epsilon\":1", "{\"type\":\"ALL_RANGE\"}", "1024"},
            {big1d, "LAPLACE_IDENTITY", "\"epsilon\":1", "{\"type\":\"PREFIX\"}", "1024"},
            {big2d, "HIERARCHICAL", "\"epsilon\":1", "{\"type\":\"ALL_RANGE\"}", "32×32"},
            {big2d, "OPTIMIZED", "\"rho\":0.1", "{\"type\":\"PREFIX\"}", "32×32"},
        };
        String release2d = null;
        String release1d = null;
        for (String[] j : jobs) {
            String q = query(j[1], j[2], j[3]);
            assertThat(postJson("/v1/datasets/" + j[0] + "/queries/quote", q).status()).isEqualTo(200);
            long start = System.nanoTime();
            Response submitted = postJson("/v1/datasets/" + j[0] + "/queries", q);
            assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
            JsonNode job = awaitJob(submitted.json().get("id").asString());
            double wall = seconds(start);
            assertThat(job.get("state").asString()).as(job.toString()).isEqualTo("DONE");
            JsonNode result = get("/v1/jobs/" + job.get("id").asString() + "/result").json();
            Response npy = send(java.net.http.HttpRequest.newBuilder(uri("/v1/jobs/" + job.get("id").asString()
                    + "/result")).header("Accept", "application/x-npy").GET());
            print(String.format(Locale.ROOT, "| %s | %s | %s | %d | %.2f s | %d | %s |", j[1],
                    j[3].replaceAll("[{}\"]", "").replace("type:", ""), j[4], result.get("queries").asInt(), wall,
                    npy.body().length, result.get("answersInline").asBoolean()));
            if (j[0].equals(big2d) && j[1].equals("HIERARCHICAL")) {
                release2d = result.get("releaseId").asString();
            }
            if (j[0].equals(big1d) && j[1].equals("OPTIMIZED")) {
                release1d = result.get("releaseId").asString();
            }
        }

        // 4. Further queries on an estimate: 10^5 random boxes, 10^4 dense vectors.
        print("\n| further queries | release | count | request bytes | wall time (median of 3) | per query |");
        print("|---|---|---:|---:|---:|---:|");
        SplittableRandom random = new SplittableRandom(23);
        StringBuilder boxes = new StringBuilder("{\"boxes\":[");
        int count = 100_000;
        for (int i = 0; i < count; i++) {
            int a = random.nextInt(32);
            int b = random.nextInt(32);
            int c = random.nextInt(32);
            int d = random.nextInt(32);
            boxes.append(i == 0 ? "" : ",").append("{\"a0\":[").append(Math.min(a, b)).append(',').append(Math.max(a, b))
                    .append("],\"a1\":[").append(Math.min(c, d)).append(',').append(Math.max(c, d)).append("]}");
        }
        String boxBody = boxes.append("]}").toString();
        timeFurther(release2d, "HIERARCHICAL 32×32", "boxes", boxBody, count);
        StringBuilder boxes1 = new StringBuilder("{\"boxes\":[");
        for (int i = 0; i < count; i++) {
            int a = random.nextInt(1024);
            int b = random.nextInt(1024);
            boxes1.append(i == 0 ? "" : ",").append("{\"a0\":[").append(Math.min(a, b)).append(',').append(Math.max(a, b))
                    .append("]}");
        }
        timeFurther(release1d, "OPTIMIZED 1024", "boxes", boxes1.append("]}").toString(), count);
        int vectors = 4000;
        StringBuilder dense = new StringBuilder("{\"queries\":[");
        for (int i = 0; i < vectors; i++) {
            dense.append(i == 0 ? "[" : ",[");
            for (int cell = 0; cell < 1024; cell++) {
                dense.append(cell == 0 ? "" : ",").append(random.nextInt(4) == 0 ? 1 : 0);
            }
            dense.append(']');
        }
        timeFurther(release1d, "OPTIMIZED 1024", "dense vectors", dense.append("]}").toString(), vectors);

        Files.createDirectories(OUT.getParent());
        Files.writeString(OUT, out.toString());
    }

    private void timeFurther(String release, String label, String what, String body, int count) {
        double[] t = new double[3];
        for (int r = 0; r < 3; r++) {
            long start = System.nanoTime();
            Response a = postJson("/v1/releases/" + release + "/linear-queries", body);
            t[r] = seconds(start);
            assertThat(a.status()).as(a.toString().substring(0, Math.min(400, a.toString().length()))).isEqualTo(200);
            assertThat(a.json().get("answers").size()).isEqualTo(count);
        }
        Arrays.sort(t);
        print(String.format(Locale.ROOT, "| %s | %s | %d | %d | %.2f s | %.1f µs |", what, label, count,
                body.length(), t[1], t[1] / count * 1e6));
    }

    private static String shape(int[] sizes) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < sizes.length; i++) {
            s.append(i == 0 ? "" : "×").append(sizes[i]);
        }
        return s.toString();
    }
}
