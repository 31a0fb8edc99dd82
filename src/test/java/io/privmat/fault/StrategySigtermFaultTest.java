package io.privmat.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ChildReplica;
import io.privmat.support.LedgerInvariants;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 36, item 4: a real SIGTERM to a replica (its own JVM, with the JVM's own defaults as in
 * production and a 1.4 GB heap, on its embedded PostgreSQL) while a long strategy optimisation runs,
 * more are queued, and a job reads data. The replica must exit within the documented bound
 * (docs/reliability.md, "Shutdown": the phase timeout, here 20 s, plus 10 s for the pools and the
 * database). Before the fix the issue's request (two boxes on 4 096 cells) was accepted and drove
 * the heap to its limit: every shutdown hook completed within 4 s, and the JVM, collecting garbage
 * without end, was still alive 30 s later (and stopped answering requests). Now that request is
 * refused before it is queued (its memory and time are estimated from its sizes), what runs stops
 * at its next iteration, queued work is dropped, waits are bounded, and the optimiser's threads are
 * daemons. Nothing half-computed is stored; the ledger is consistent afterwards.
 */
@Tag("fault")
@Tag("slow")
class StrategySigtermFaultTest {

    private static final String ADMIN = "pm_fault_admin_key_0123456789abcdef";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    /** spring.lifecycle.timeout-per-shutdown-phase of the replica below, plus the pools and the database. */
    private static final Duration EXIT_BOUND = Duration.ofSeconds(20 + 10);

    private ChildReplica replica;

    private HttpResponse<String> call(String method, String path, String key, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(replica.uri(path)).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        if (body != null) {
            b.header("Content-Type", body.startsWith("{") ? "application/json" : "text/csv");
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String key(String subject, String role) throws Exception {
        var r = call("POST", "/v1/api-keys", ADMIN,
                "{\"name\":\"" + subject + "\",\"subject\":\"" + subject + "\",\"role\":\"" + role + "\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return JSON.readTree(r.body()).get("key").asString();
    }

    private UUID histogram(String owner, int size) throws Exception {
        var r = call("POST", "/v1/datasets", owner, "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"neighbouring\":"
                + "\"ADD_REMOVE\",\"budget\":{\"epsilon\":1,\"delta\":1e-6},\"attributes\":[{\"name\":\"x\",\"size\":"
                + size + "}]}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        UUID id = UUID.fromString(JSON.readTree(r.body()).get("id").asString());
        assertThat(call("PUT", "/v1/datasets/" + id + "/data", owner, "x\n1\n5\n7\n").statusCode()).isEqualTo(200);
        return id;
    }

    @Test
    void sigtermEndsTheReplicaWhileStrategiesAreOptimised() throws Exception {
        Path dataDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "strategy-sigterm-pg");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("privmat.embedded-postgres.data-dir", dataDir.toString());
        settings.put("privmat.bootstrap-admin-key", ADMIN);
        settings.put("privmat.fault.replica", "strategy-sigterm");
        settings.put("privmat.jobs.worker-threads", "2");
        settings.put("privmat.jobs.lease-timeout", "6s");
        settings.put("privmat.jobs.heartbeat-interval", "1s");
        settings.put("privmat.jobs.connection-timeout", "1s");
        settings.put("privmat.jobs.shutdown-grace", "4s");
        settings.put("privmat.ingest.shutdown-grace", "4s");
        settings.put("spring.lifecycle.timeout-per-shutdown-phase", "20s");
        // No pauses between iterations: at SIGTERM an eigendecomposition is almost surely in OpenBLAS.
        settings.put("privmat.strategies.cpu-share", "1");
        settings.put("privmat.security.requests-per-second", "100000");
        settings.put("privmat.security.burst", "100000");
        UUID running;
        long sigterm;
        try (ChildReplica child = ChildReplica.start("strategy-sigterm", settings, java.util.List.of("-Xmx1400m"))) {
            replica = child;
            String owner = key("owner-t", "OWNER");
            String analyst = key("analyst-t", "ANALYST");
            String other = key("analyst-u", "ANALYST");
            UUID big = histogram(owner, 4096);
            UUID data = histogram(owner, 1536); // 8 iterations fit the default budget; 2 048 would not
            for (UUID d : new UUID[] {big, data}) {
                for (String a : new String[] {"analyst-t", "analyst-u"}) {
                    assertThat(call("POST", "/v1/datasets/" + d + "/grants", owner, "{\"analyst\":\"" + a + "\"}")
                            .statusCode()).isEqualTo(201);
                }
            }
            // The issue's request (two boxes on 4 096 cells: about 2 GB of heap and 18 min there), long
            // optimisations on 2 048 cells, and more queued behind them by another analyst.
            java.util.List<String> keys = new java.util.ArrayList<>();
            String boxes = "{\"mechanism\":\"OPTIMIZED\",\"params\":{\"workload\":{\"type\":\"RANGES\",\"boxes\":"
                    + "[{\"x\":[0,1000]},{\"x\":[5,2000]}]}}}";
            var issue = call("POST", "/v1/datasets/" + big + "/strategies", analyst, boxes);
            assertThat(issue.statusCode()).as(issue.body()).isIn(202, 422);
            if (issue.statusCode() == 202) {
                keys.add(JSON.readTree(issue.body()).get("key").asString());
            }
            var first = call("POST", "/v1/datasets/" + data + "/strategies", analyst, "{\"mechanism\":\"OPTIMIZED\","
                    + "\"params\":{\"workload\":{\"type\":\"PREFIX\"}}}");
            assertThat(first.statusCode()).as(first.body()).isIn(202, 429);
            if (first.statusCode() == 202) {
                keys.add(JSON.readTree(first.body()).get("key").asString());
            }
            java.util.List<Integer> statuses = new java.util.ArrayList<>(java.util.List.of(issue.statusCode(),
                    first.statusCode()));
            for (int i = 0; i < 3; i++) {
                var more = call("POST", "/v1/datasets/" + data + "/strategies", other, boxes.replace("1000", "" + (1001 + i))
                        .replace("2000", "1500"));
                statuses.add(more.statusCode());
                if (more.statusCode() == 202) {
                    keys.add(JSON.readTree(more.body()).get("key").asString());
                }
            }
            System.out.printf("fault strategy-sigterm: strategy requests answered %s%n", statuses);
            assertThat(keys).isNotEmpty();
            // A job reading data, beyond the job grace.
            running = UUID.fromString(child.post("/fault/datasets/" + data + "/jobs?caller=analyst-t",
                    "application/json", "{\"runMillis\": 120000}"));
            // Until one optimisation has finished an iteration (it is in the middle of the next).
            long deadline = System.nanoTime() + 240_000_000_000L;
            boolean computing = false;
            while (System.nanoTime() < deadline && !computing) {
                Thread.sleep(500);
                for (String key : keys) {
                    JsonNode s = JSON.readTree(call("GET", "/v1/strategies/" + key, analyst, null).body());
                    computing |= s.get("status").asString().equals("RUNNING") && s.get("progress").asDouble() > 0;
                }
            }
            assertThat(computing).as("an optimisation is running").isTrue();

            child.sigterm();
            sigterm = System.nanoTime();
            Integer exit = child.awaitExit(EXIT_BOUND);
            long millis = (System.nanoTime() - sigterm) / 1_000_000;
            System.out.printf("fault strategy-sigterm: the replica %s %d ms after SIGTERM (bound %d s)%n",
                    exit == null ? "was still alive" : "exited", millis, EXIT_BOUND.toSeconds());
            if (exit == null) {
                // Show what kept it alive before the test's cleanup kills it.
                for (int round = 0; round < 2; round++) {
                    try (var tasks = Files.list(Path.of("/proc", Long.toString(child.pid()), "task"))) {
                        for (Path t : tasks.toList()) {
                            String stat = Files.readString(t.resolve("stat"));
                            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                            System.out.println("thread " + t.getFileName() + " " + Files.readString(t.resolve("comm"))
                                    .strip() + " state " + f[0] + " utime " + f[11] + " stime " + f[12]);
                        }
                    } catch (java.io.IOException e) {
                        System.out.println("no /proc: " + e);
                    }
                    Thread.sleep(3000);
                }
                Process dump = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jhsdb").toString(),
                        "jstack", "--pid", Long.toString(child.pid())).redirectErrorStream(true).start();
                System.out.println(new String(dump.getInputStream().readAllBytes(),
                        java.nio.charset.StandardCharsets.UTF_8));
            }
            assertThat(exit).as("the replica exits within %s of SIGTERM", EXIT_BOUND).isNotNull();
            assertThat(child.log()).contains("strategy computations stopping");
        }

        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setDataDirectory(dataDir)
                .setCleanDataDirectory(false).start()) {
            JdbcTemplate db = new JdbcTemplate(postgres.getPostgresDatabase());
            assertThat(db.queryForObject("SELECT count(*) FROM strategy", Long.class))
                    .as("no strategy was stored half-computed").isZero();
            assertThat(db.queryForObject("SELECT state FROM job WHERE id = ?", String.class, running)).isEqualTo("FAILED");
            LedgerInvariants.check(db, false);
        }
        org.springframework.util.FileSystemUtils.deleteRecursively(dataDir);
    }
}
