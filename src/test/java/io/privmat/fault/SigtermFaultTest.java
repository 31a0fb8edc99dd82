package io.privmat.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ChildReplica;
import io.privmat.support.LedgerInvariants;
import io.privmat.support.Patience;
import io.privmat.support.RawUpload;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
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
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 16, item 6: a real SIGTERM to a replica that runs on its embedded PostgreSQL (its own JVM)
 * while two uploads are in progress and jobs are in every stage. Expected, in order: readiness goes
 * REFUSING; nothing more is claimed; the job still in verification goes back to the queue without
 * using an attempt; the job that finishes within the grace is DONE; the one that does not is FAILED
 * with its charge kept; the upload whose client finishes is stored (200), the one whose client does
 * not is aborted (503, nothing stored); both are audited; the pools close, and only then the
 * database stops. The data directory is then opened again to check what was committed.
 */
@Tag("fault")
class SigtermFaultTest {

    private static final String ADMIN = "pm_fault_admin_key_0123456789abcdef";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private ChildReplica replica;

    private HttpResponse<String> call(String method, String path, String key, String contentType, String body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(replica.uri(path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String key(String subject, String role) throws Exception {
        var r = call("POST", "/v1/api-keys", ADMIN, "application/json",
                "{\"name\":\"" + subject + "\",\"subject\":\"" + subject + "\",\"role\":\"" + role + "\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return JSON.readTree(r.body()).get("key").asString();
    }

    private UUID dataset(String owner) throws Exception {
        var r = call("POST", "/v1/datasets", owner, "application/json", "{\"name\":\"s\",\"kind\":\"MATRIX\","
                + "\"rowNormBound\":1,\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return UUID.fromString(JSON.readTree(r.body()).get("id").asString());
    }

    private JsonNode job(UUID id, String key) throws Exception {
        return JSON.readTree(call("GET", "/v1/jobs/" + id, key, null, null).body());
    }

    @Test
    void sigtermDrainsJobsAndUploadsAndStopsTheDatabaseLast() throws Exception {
        Path dataDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "sigterm-pg");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("privmat.embedded-postgres.data-dir", dataDir.toString());
        settings.put("privmat.bootstrap-admin-key", ADMIN);
        settings.put("privmat.fault.replica", "sigterm");
        settings.put("privmat.jobs.worker-threads", "3");
        settings.put("privmat.jobs.lease-timeout", "6s");
        settings.put("privmat.jobs.heartbeat-interval", "1s");
        settings.put("privmat.jobs.connection-timeout", "1s");
        settings.put("privmat.jobs.shutdown-grace", "4s");
        settings.put("privmat.ingest.shutdown-grace", "4s");
        settings.put("privmat.ingest.prefetch-size", "16KB");
        settings.put("privmat.ingest.rate-window", "60s");
        settings.put("spring.lifecycle.timeout-per-shutdown-phase", "20s");
        settings.put("logging.level.org.springframework.boot.availability", "DEBUG");
        settings.put("privmat.security.requests-per-second", "100000");
        settings.put("privmat.security.burst", "100000");
        UUID finishes;
        UUID overruns;
        UUID verifying;
        UUID queued;
        UUID stored;
        UUID aborted;
        long sigterm = 0;
        try (ChildReplica child = ChildReplica.start("sigterm", settings)) {
            replica = child;
            String owner = key("owner-s", "OWNER");
            String analyst = key("analyst-s", "ANALYST");
            UUID data = dataset(owner);
            assertThat(call("PUT", "/v1/datasets/" + data + "/data", owner, "text/csv", "0.1,0.2\n0.3,0.4\n").statusCode())
                    .isEqualTo(200);
            assertThat(call("POST", "/v1/datasets/" + data + "/grants", owner, "application/json",
                    "{\"analyst\":\"analyst-s\"}").statusCode()).isEqualTo(201);
            stored = dataset(owner);
            aborted = dataset(owner);

            String jobs = "/fault/datasets/" + data + "/jobs?caller=analyst-s";
            // Runs on past the SIGTERM, whenever it comes, and ends 1.5 s into the 4 s grace: until then it
            // holds its worker, so the queued job below stays queued however slow the set-up was.
            finishes = UUID.fromString(child.post(jobs, "application/json", "{\"runMillisAfterStop\": 1500}"));
            overruns = UUID.fromString(child.post(jobs, "application/json", "{\"runMillis\": 120000}"));
            long deadline = Patience.deadline(Duration.ofSeconds(30));
            while (System.nanoTime() < deadline && (job(finishes, analyst).get("progress").asDouble() < 0.5
                    || job(overruns, analyst).get("progress").asDouble() < 0.5)) {
                Thread.sleep(20);
            }
            // In verification until the workers stop (then half a second more): it meets a stopping executor.
            verifying = UUID.fromString(child.post(jobs, "application/json", "{\"verifyUntilStop\": true}"));
            while (System.nanoTime() < deadline && !job(verifying, analyst).get("state").asString().equals("RUNNING")) {
                Thread.sleep(20);
            }
            queued = UUID.fromString(child.post(jobs, "application/json", "{\"runMillis\": 10}"));

            byte[] first = "1,2\n".repeat(5_000).getBytes();
            byte[] rest = "3,4\n".getBytes();
            JdbcTemplate live = database(dataDir);
            try (RawUpload finishing = new RawUpload(child.port(), owner, stored, first.length + rest.length);
                    RawUpload stalled = new RawUpload(child.port(), owner, aborted, 1_000_000)) {
                finishing.send(first);
                stalled.send(first);
                deadline = Patience.deadline(Duration.ofSeconds(20));
                while (System.nanoTime() < deadline && live.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE "
                        + "query LIKE '%FOR UPDATE NOWAIT%' AND state = 'idle in transaction'", Long.class) < 2) {
                    Thread.sleep(20);
                }
                ((SingleConnectionDataSource) live.getDataSource()).destroy();

                child.sigterm();
                sigterm = System.nanoTime();
                Thread.sleep(1_000);
                finishing.send(rest);
                long trickle = Patience.deadline(Duration.ofSeconds(10));
                while (System.nanoTime() < trickle && stalled.status() == 0) {
                    stalled.send("5");
                    Thread.sleep(250);
                }
                assertThat(finishing.awaitStatus(Patience.millis(10_000))).as(finishing.response()).isEqualTo(200);
                assertThat(stalled.awaitStatus(Patience.millis(10_000))).as(stalled.response()).isEqualTo(503);
                assertThat(stalled.response()).contains("application/problem+json").contains("Retry-After");
            }
            assertThat(child.awaitExit(Patience.of(Duration.ofSeconds(60)))).as("the replica exits").isNotNull();
            System.out.printf("fault sigterm: the replica exited %d ms after SIGTERM (job and upload graces 4 s)%n",
                    (System.nanoTime() - sigterm) / 1_000_000);
            String log = child.log();
            assertThat(log.indexOf("to REFUSING_TRAFFIC")).as("readiness first").isPositive()
                    .isLessThan(log.indexOf("stopping: nothing more is claimed"));
            int stopped = log.indexOf("embedded PostgreSQL stopped");
            assertThat(stopped).isPositive().isGreaterThan(log.indexOf("HikariPool-1 - Shutdown completed"))
                    .isGreaterThan(log.indexOf("privmat-jobs - Shutdown completed"));
            assertThat(log.indexOf("HikariPool-1 - Shutdown completed")).isPositive();
            assertThat(log.indexOf("privmat-jobs - Shutdown completed")).isPositive();
            assertThat(log).doesNotContain("audit record failed");
        }

        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setDataDirectory(dataDir)
                .setCleanDataDirectory(false).start()) {
            JdbcTemplate db = new JdbcTemplate(postgres.getPostgresDatabase());
            assertThat(state(db, finishes)).isEqualTo("DONE");
            assertThat(state(db, overruns)).isEqualTo("FAILED");
            assertThat(db.queryForObject("SELECT error_code FROM job WHERE id = ?", String.class, overruns))
                    .isEqualTo("REPLICA_STOPPED");
            assertThat(state(db, verifying)).isEqualTo("QUEUED");
            assertThat(db.queryForObject("SELECT attempts FROM job WHERE id = ?", Integer.class, verifying)).isZero();
            assertThat(state(db, queued)).isEqualTo("QUEUED");
            assertThat(db.queryForObject("SELECT status FROM dataset WHERE id = ?", String.class, stored)).isEqualTo("READY");
            assertThat(db.queryForObject("SELECT status FROM dataset WHERE id = ?", String.class, aborted)).isEqualTo("EMPTY");
            assertThat(db.queryForObject("SELECT count(*) FROM data_chunk WHERE dataset_id = ?", Long.class, aborted)).isZero();
            assertThat(audited(db, stored)).containsExactly(200);
            assertThat(audited(db, aborted)).containsExactly(503);
            LedgerInvariants.check(db, false);
        }
        org.springframework.util.FileSystemUtils.deleteRecursively(dataDir);
    }

    private static String state(JdbcTemplate db, UUID job) {
        return db.queryForObject("SELECT state FROM job WHERE id = ?", String.class, job);
    }

    private static java.util.List<Integer> audited(JdbcTemplate db, UUID dataset) {
        return db.queryForList("SELECT status FROM audit_event WHERE dataset_id = ? AND method = 'PUT' ORDER BY id",
                Integer.class, dataset);
    }

    /** A connection to the replica's embedded PostgreSQL (its port is line 4 of postmaster.pid). */
    private static JdbcTemplate database(Path dataDir) throws java.io.IOException {
        String port = Files.readAllLines(dataDir.resolve("postmaster.pid")).get(3).strip();
        return new JdbcTemplate(new SingleConnectionDataSource("jdbc:postgresql://localhost:" + port
                + "/postgres?user=postgres", true));
    }
}
