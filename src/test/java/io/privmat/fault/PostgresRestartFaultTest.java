package io.privmat.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.FaultDatabase;
import io.privmat.support.Patience;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 16, item 7, with a real PostgreSQL restart (fast shutdown, then a start on the same port
 * and data directory): one job finishes while the database is down, so storing its result fails
 * until the server is back; another runs across the restart, so its heartbeats fail meanwhile.
 * Both writes are retried within the lease: both jobs end DONE, the charge is committed once, and
 * requests during the outage answer a 503 problem (documented), never a 500.
 */
class PostgresRestartFaultTest extends FaultTest {

    @Test
    void jobsSurviveAPostgresRestartMidJobAndAtCompletion() throws Exception {
        UUID dataset = dataset();
        UUID finishing = faultJob(dataset, "{\"latch\": true}");
        UUID spanning = faultJob(dataset, "{\"runMillis\": 7000}");
        long deadline = Patience.deadline(Duration.ofSeconds(20));
        while (!(FaultHandlers.RUNNING.contains(finishing) && FaultHandlers.RUNNING.contains(spanning))
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(FaultHandlers.RUNNING).contains(finishing, spanning);

        FaultDatabase database = FaultDatabase.get();
        database.stop();
        long down = System.nanoTime();
        try {
            // The handler returns now: its result can only be stored once PostgreSQL is back.
            FaultHandlers.release(finishing);
            Response during = get("/v1/datasets/" + dataset);
            assertThat(during.status()).as(during.toString()).isEqualTo(503);
            assertThat(during.contentType()).isEqualTo("application/problem+json");
            assertThat(during.json().get("type").asString()).endsWith("/service-unavailable");
            while (System.nanoTime() - down < 1_500_000_000L) {
                Thread.sleep(50);
            }
        } finally {
            database.start();
        }
        long outage = (System.nanoTime() - down) / 1_000_000;
        assertThat(awaitState(finishing, 30, "DONE", "FAILED", "CANCELLED")).as(job(finishing).toString())
                .isEqualTo("DONE");
        assertThat(awaitState(spanning, 30, "DONE", "FAILED", "CANCELLED")).as(job(spanning).toString())
                .isEqualTo("DONE");
        assertThat(get("/v1/jobs/" + finishing + "/result").status()).isEqualTo(200);
        System.out.printf("fault postgres-restart: outage %d ms (stop to started); both jobs DONE%n", outage);
        invariants(false);
    }

    /** The soak: five restarts, 1.5 s each, 3 s apart, under four running jobs. */
    @Test
    @Tag("slow")
    void jobsSurviveRepeatedRestarts() throws Exception {
        UUID dataset = dataset();
        java.util.List<UUID> jobs = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            jobs.add(faultJob(dataset, "{\"runMillis\": " + (6_000 + 5_000 * i) + "}"));
        }
        FaultDatabase database = FaultDatabase.get();
        for (int restart = 0; restart < 5; restart++) {
            Thread.sleep(3_000);
            database.stop();
            try {
                Thread.sleep(1_500);
            } finally {
                database.start();
            }
        }
        for (UUID job : jobs) {
            assertThat(awaitState(job, 60, "DONE", "FAILED", "CANCELLED")).as(job(job).toString()).isEqualTo("DONE");
        }
        invariants(false);
    }
}
