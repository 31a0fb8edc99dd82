package io.privmat.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.job.worker.WorkerPool;
import io.privmat.support.ChildReplica;
import io.privmat.support.FaultDatabase;
import io.privmat.support.Patience;
import io.privmat.support.RawUpload;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * kill -9 of one of two replicas (a second JVM on the same PostgreSQL) while it runs a job that is
 * reading data, holds a claimed job that has not started reading, and receives an upload. The
 * surviving replica's reaper settles both jobs after the lease: the one that read data fails with
 * its charge kept, the other goes back to the queue and the survivor runs it. The upload's
 * transaction died with its connection: nothing was stored and the dataset takes a new upload.
 */
class ReplicaCrashFaultTest extends FaultTest {

    @Autowired
    WorkerPool workers;

    static Map<String, String> replicaSettings(String name) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("spring.datasource.url", FaultDatabase.get().jdbcUrl("fault"));
        settings.put("spring.datasource.username", "postgres");
        settings.put("privmat.fault.replica", name);
        settings.put("privmat.ingest.prefetch-size", "16KB");
        settings.put("privmat.jobs.worker-threads", "2");
        settings.put("privmat.jobs.lease-timeout", "6s");
        settings.put("privmat.jobs.heartbeat-interval", "1s");
        settings.put("privmat.jobs.connection-timeout", "1s");
        settings.put("logging.level.org.springframework.boot.availability", "DEBUG");
        return settings;
    }

    @Test
    void theSurvivorSettlesTheJobsOfAKilledReplica() throws Exception {
        UUID dataset = dataset();
        UUID uploadTarget = UUID.fromString(createMatrix(1));
        UUID reading;
        UUID verifying;
        long killed = 0;
        workers.stop(); // only the other replica claims, until it is killed
        try (ChildReplica other = ChildReplica.start("crash-a", replicaSettings("a"))) {
            reading = faultJob(dataset, "{\"runMillis\": 120000}");
            verifying = faultJob(dataset, "{\"verifyMillis\": 120000, \"verifyIn\": \"a\"}");
            long deadline = Patience.deadline(Duration.ofSeconds(60));
            while (System.nanoTime() < deadline && (job(reading).path("data_access_started_at").isNull()
                    || !"RUNNING".equals(state(verifying)))) {
                Thread.sleep(50);
            }
            assertThat(job(reading).path("data_access_started_at").isNull()).as(job(reading).toString()).isFalse();
            assertThat(state(verifying)).isEqualTo("RUNNING");
            try (RawUpload upload = new RawUpload(other.port(), key(), uploadTarget, 1_000_000)) {
                upload.send("1,2\n".repeat(5_000)); // past the prefetch: the upload's transaction is open
                deadline = Patience.deadline(Duration.ofSeconds(20));
                while (System.nanoTime() < deadline && jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE "
                        + "query LIKE '%FOR UPDATE NOWAIT%' AND state = 'idle in transaction'", Long.class) == 0) {
                    Thread.sleep(20);
                }
                other.kill9();
                killed = System.nanoTime();
                assertThat(other.awaitExit(Patience.of(Duration.ofSeconds(20)))).isNotNull();
            }
        } finally {
            workers.start();
        }
        assertThat(awaitState(reading, 30, "FAILED", "DONE", "CANCELLED")).isEqualTo("FAILED");
        assertThat(job(reading).get("error_code").asString()).isEqualTo("WORKER_LOST");
        System.out.printf("fault kill-9: the survivor settled the dead replica's job %d ms after the kill (lease 6 s)%n",
                (System.nanoTime() - killed) / 1_000_000);
        assertThat(awaitState(verifying, 30, "DONE", "FAILED", "CANCELLED")).as(job(verifying).toString())
                .isEqualTo("DONE");
        assertThat(job(verifying).get("attempts").asInt()).isEqualTo(2);
        // PostgreSQL ended the dead replica's upload transaction: nothing stored, the lock is free.
        assertThat(jdbc.queryForObject("SELECT count(*) FROM data_chunk WHERE dataset_id = ?", Long.class, uploadTarget))
                .isZero();
        Response retry = put("/v1/datasets/" + uploadTarget + "/data", "text/csv", "1,2\n".getBytes());
        assertThat(retry.status()).as(retry.toString()).isEqualTo(200);
        invariants(true);
    }
}
