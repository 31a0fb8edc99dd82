package io.privmat.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.job.worker.JobExecutor;
import io.privmat.support.ApiTest;
import io.privmat.support.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.TestPropertySource;

/**
 * Crash, reaper and cancellation paths, driven step by step: no background workers run in this
 * context, a test plays the workers through {@link JobExecutor}, and the clock is moved by hand.
 * "Killed" workers are workers that claim a job and then never heartbeat or finish again. Its own
 * database keeps the (cached, still running) worker pools of other test contexts away.
 */
@TestPropertySource(properties = {"privmat.embedded-postgres.database=lifecycle", "privmat.jobs.enabled=false",
        "privmat.jobs.lease-timeout=30s",
        "privmat.jobs.max-attempts=3"})
@Import(JobLifecycleTest.Clocks.class)
class JobLifecycleTest extends ApiTest {

    @TestConfiguration
    static class Clocks {
        @Bean
        @Primary
        MutableClock mutableClock() {
            return new MutableClock();
        }
    }

    @Autowired
    JobExecutor executor;

    @Autowired
    MutableClock clock;

    private static final String QUERY = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.005}";

    @org.junit.jupiter.api.BeforeEach
    void noLeftoverJobs() {
        jdbc.update("UPDATE job SET state = 'CANCELLED' WHERE state IN ('QUEUED', 'RUNNING')");
    }

    private String submit(String datasetId) {
        Response r = postJson("/v1/datasets/" + datasetId + "/queries", QUERY);
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("id").asString();
    }

    private List<String> ledger(String jobId) {
        return jdbc.queryForList("SELECT entry_type FROM ledger_entry WHERE job_id = ?::uuid ORDER BY id", String.class,
                jobId);
    }

    private String state(String jobId) {
        return get("/v1/jobs/" + jobId).json().get("state").asString();
    }

    private Job claim(String worker, String expectedJob) {
        Job job = executor.claim(worker).orElseThrow();
        assertThat(job.id().toString()).isEqualTo(expectedJob);
        return job;
    }

    private void accountConsistent(String datasetId) {
        var row = jdbc.queryForMap("SELECT rho_committed, rho_reserved FROM budget_account WHERE dataset_id = ?::uuid",
                datasetId);
        var sums = jdbc.queryForMap("SELECT "
                + "coalesce(sum(rho) FILTER (WHERE entry_type = 'COMMIT'), 0) AS committed, "
                + "coalesce(sum(CASE entry_type WHEN 'RESERVE' THEN rho ELSE -rho END), 0) AS reserved "
                + "FROM ledger_entry WHERE dataset_id = ?::uuid", datasetId);
        assertThat((java.math.BigDecimal) row.get("rho_committed")).isEqualByComparingTo((java.math.BigDecimal) sums.get("committed"));
        assertThat((java.math.BigDecimal) row.get("rho_reserved")).isEqualByComparingTo((java.math.BigDecimal) sums.get("reserved"));
    }

    @Test
    void deletingADatasetSettlesEveryReservationAndKeepsItsLedgerReadable() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String afterAccess = submit(dataset);
        claim("w1", afterAccess);
        assertThat(executor.startDataAccess(java.util.UUID.fromString(afterAccess), "w1")).isTrue();
        String beforeAccess = submit(dataset);
        claim("w2", beforeAccess);
        String queued = submit(dataset);
        Response del = delete("/v1/datasets/" + dataset);
        assertThat(del.status()).as(del.toString()).isEqualTo(204);
        assertThat(ledger(queued)).containsExactly("RESERVE", "REFUND");
        assertThat(ledger(beforeAccess)).containsExactly("RESERVE", "REFUND");
        assertThat(ledger(afterAccess)).containsExactly("RESERVE", "COMMIT");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM ledger_entry r WHERE r.dataset_id = ?::uuid "
                + "AND r.entry_type = 'RESERVE' AND NOT EXISTS (SELECT 1 FROM ledger_entry s WHERE s.job_id = r.job_id "
                + "AND s.entry_type <> 'RESERVE')", Long.class, dataset)).isZero();
        // The worker that had not read data finds its job gone and reads nothing.
        assertThat(executor.startDataAccess(java.util.UUID.fromString(beforeAccess), "w2")).isFalse();
        // The ledger outlives the dataset: its owner and the admin read it, nobody else.
        Response owner = get("/v1/datasets/" + dataset + "/ledger");
        assertThat(owner.status()).as(owner.toString()).isEqualTo(200);
        assertThat(owner.json().get("entries").size()).isEqualTo(6);
        Response admin = sendAs(ADMIN_KEY, java.net.http.HttpRequest.newBuilder(uri("/v1/datasets/" + dataset
                + "/ledger")).GET());
        assertThat(admin.status()).as(admin.toString()).isEqualTo(200);
        assertThat(admin.json().get("entries").size()).isEqualTo(6);
        assertThat(sendAs(otherOwnerKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/datasets/" + dataset
                + "/ledger")).GET()).status()).isEqualTo(404);
        assertThat(sendAs(analystKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/datasets/" + dataset
                + "/ledger")).GET()).status()).isEqualTo(404);
        assertThat(get("/v1/datasets/" + dataset).status()).isEqualTo(404);
    }

    @Test
    void workerKilledBeforeDataAccessIsRequeuedAndTheJobRunsOnce() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String jobId = submit(dataset);
        claim("doomed-worker", jobId);
        assertThat(state(jobId)).isEqualTo("RUNNING");
        // The worker dies here: no heartbeat, no data access.
        clock.advance(Duration.ofSeconds(10));
        assertThat(executor.reap()).isZero(); // lease not expired yet
        clock.advance(Duration.ofSeconds(31));
        assertThat(executor.reap()).isEqualTo(1);
        assertThat(state(jobId)).isEqualTo("QUEUED");
        assertThat(ledger(jobId)).containsExactly("RESERVE");
        Job again = claim("healthy-worker", jobId);
        executor.execute(again, "healthy-worker");
        assertThat(state(jobId)).isEqualTo("DONE");
        assertThat(ledger(jobId)).containsExactly("RESERVE", "COMMIT");
        assertThat(jdbc.queryForObject("SELECT attempts FROM job WHERE id = ?::uuid", Integer.class, jobId)).isEqualTo(2);
        accountConsistent(dataset);
    }

    @Test
    void workerKilledAfterDataAccessFailsTheJobAndKeepsTheCharge() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String jobId = submit(dataset);
        claim("doomed-worker", jobId);
        assertThat(executor.startDataAccess(UUID.fromString(jobId), "doomed-worker")).isTrue();
        // The worker dies while reading the data.
        clock.advance(Duration.ofMinutes(1));
        assertThat(executor.reap()).isEqualTo(1);
        var job = get("/v1/jobs/" + jobId).json();
        assertThat(job.get("state").asString()).isEqualTo("FAILED");
        assertThat(job.get("error").get("code").asString()).isEqualTo("WORKER_LOST");
        assertThat(job.get("dataAccessStarted").asBoolean()).isTrue();
        assertThat(ledger(jobId)).containsExactly("RESERVE", "COMMIT");
        var budget = get("/v1/datasets/" + dataset + "/budget").json();
        assertThat(budget.get("spent").get("tracks").get("rho").decimalValue()).isPositive();
        assertThat(budget.get("reserved").get("tracks").get("rho").decimalValue()).isZero();
        accountConsistent(dataset);
    }

    /**
     * The budget view's reserved amounts are the outstanding reservations on their own: a queued job's
     * reservation shows its (epsilon, delta) there while nothing is spent; once committed, spent shows
     * it and reserved is back to zero on every field (it used to repeat the spent guarantee).
     */
    @Test
    void theBudgetShowsReservationsOnTheirOwnAndZeroWhenNothingIsReserved() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String jobId = submit(dataset);
        var queued = get("/v1/datasets/" + dataset + "/budget").json();
        assertThat(queued.get("reserved").get("tracks").get("rho").decimalValue()).isPositive();
        assertThat(queued.get("reserved").get("epsilon").doubleValue()).isPositive();
        assertThat(queued.get("spent").get("tracks").get("rho").decimalValue()).isZero();
        assertThat(queued.get("spent").get("epsilon").doubleValue()).isZero();
        double reservedEpsilon = queued.get("reserved").get("epsilon").doubleValue();

        claim("committing-worker", jobId);
        assertThat(executor.startDataAccess(UUID.fromString(jobId), "committing-worker")).isTrue();
        var committed = get("/v1/datasets/" + dataset + "/budget").json();
        assertThat(committed.get("spent").get("epsilon").doubleValue()).isEqualTo(reservedEpsilon);
        assertThat(committed.get("reserved").get("tracks").get("rho").decimalValue()).isZero();
        assertThat(committed.get("reserved").get("epsilon").doubleValue()).isZero();
        assertThat(committed.get("reserved").get("delta").doubleValue()).isZero();
        accountConsistent(dataset);
    }

    /**
     * What was charged is what runs: the worker rebuilds the mechanism from the stored plan and
     * compares its loss with the reserved one before reading any row. A plan that no longer matches
     * (here: its stored rho altered) fails closed, with the charge refunded and no data access.
     */
    @Test
    void aStoredPlanThatNoLongerGivesTheReservedLossFailsClosedAndIsRefunded() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String jobId = submit(dataset);
        assertThat(jdbc.update("UPDATE job SET parameters = jsonb_set(parameters, '{rho}', '0.5') WHERE id = ?::uuid",
                jobId)).isEqualTo(1);
        Job job = claim("careful-worker", jobId);
        executor.execute(job, "careful-worker");
        var view = get("/v1/jobs/" + jobId).json();
        assertThat(view.get("state").asString()).isEqualTo("FAILED");
        assertThat(view.get("error").get("code").asString()).isEqualTo("PLAN_MISMATCH");
        assertThat(view.get("dataAccessStarted").asBoolean()).isFalse();
        assertThat(ledger(jobId)).hasSize(2).first().isEqualTo("RESERVE");
        assertThat(ledger(jobId)).doesNotContain("COMMIT");
        var budget = get("/v1/datasets/" + dataset + "/budget").json();
        assertThat(budget.get("spent").get("tracks").get("rho").decimalValue()).isZero();
        assertThat(budget.get("reserved").get("tracks").get("rho").decimalValue()).isZero();
        accountConsistent(dataset);
    }

    @Test
    void heartbeatsKeepALiveWorkersLease() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String jobId = submit(dataset);
        claim("slow-worker", jobId);
        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofSeconds(20));
            assertThat(executor.heartbeat(List.of(UUID.fromString(jobId)), "slow-worker")).isEqualTo(1);
            assertThat(executor.reap()).isZero();
        }
        assertThat(state(jobId)).isEqualTo("RUNNING");
        // Another worker's heartbeat does not extend it.
        assertThat(executor.heartbeat(List.of(UUID.fromString(jobId)), "impostor")).isZero();
    }

    @Test
    void repeatedlyLostBeforeDataAccessFailsWithARefund() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String jobId = submit(dataset);
        for (int attempt = 1; attempt <= 3; attempt++) {
            claim("doomed-" + attempt, jobId);
            clock.advance(Duration.ofMinutes(1));
            executor.reap();
        }
        var job = get("/v1/jobs/" + jobId).json();
        assertThat(job.get("state").asString()).isEqualTo("FAILED");
        assertThat(job.get("error").get("message").asString()).contains("refunded");
        assertThat(ledger(jobId)).containsExactly("RESERVE", "REFUND");
        assertThat(get("/v1/datasets/" + dataset + "/budget").json().get("remaining").get("tracks").get("rho")
                .decimalValue()).isEqualByComparingTo(get("/v1/datasets/" + dataset + "/budget").json().get("total")
                .get("tracks").get("rho").decimalValue());
        accountConsistent(dataset);
    }

    @Test
    void cancelQueuedIsRefunded() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String jobId = submit(dataset);
        Response r = delete("/v1/jobs/" + jobId);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().get("state").asString()).isEqualTo("CANCELLED");
        assertThat(ledger(jobId)).containsExactly("RESERVE", "REFUND");
        assertThat(executor.claim("any")).isEmpty();
        accountConsistent(dataset);
    }

    @Test
    void cancelRunningBeforeDataAccessIsRefundedAndTheWorkerReadsNothing() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String jobId = submit(dataset);
        claim("worker", jobId);
        assertThat(delete("/v1/jobs/" + jobId).json().get("state").asString()).isEqualTo("CANCELLED");
        assertThat(executor.startDataAccess(UUID.fromString(jobId), "worker")).isFalse();
        assertThat(ledger(jobId)).containsExactly("RESERVE", "REFUND");
        accountConsistent(dataset);
    }

    @Test
    void cancelAfterDataAccessKeepsTheChargeAndDiscardsTheResult() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String jobId = submit(dataset);
        Job job = claim("worker", jobId);
        assertThat(executor.startDataAccess(job.id(), "worker")).isTrue();
        var cancelled = delete("/v1/jobs/" + jobId).json();
        assertThat(cancelled.get("state").asString()).isEqualTo("CANCELLED");
        assertThat(cancelled.get("error").get("message").asString()).contains("charge is kept");
        executor.execute(job, "worker"); // finishes the computation, but must not publish it
        assertThat(state(jobId)).isEqualTo("CANCELLED");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM job_result WHERE job_id = ?::uuid", Long.class, jobId)).isZero();
        assertThat(ledger(jobId)).containsExactly("RESERVE", "COMMIT");
        assertThat(get("/v1/jobs/" + jobId + "/result").status()).isEqualTo(409);
        accountConsistent(dataset);
    }

    @Test
    void jobStateTableMatchesTheDocumentedTransitions() {
        assertThat(JobState.QUEUED.canBecome(JobState.RUNNING)).isTrue();
        assertThat(JobState.QUEUED.canBecome(JobState.DONE)).isFalse();
        assertThat(JobState.RUNNING.canBecome(JobState.QUEUED)).isTrue();
        for (JobState terminal : List.of(JobState.DONE, JobState.FAILED, JobState.CANCELLED)) {
            assertThat(terminal.isTerminal()).isTrue();
            for (JobState next : JobState.values()) {
                assertThat(terminal.canBecome(next)).isFalse();
            }
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JobState.DONE.requireTransition(JobState.RUNNING))
                .isInstanceOf(IllegalStateException.class);
    }

    /**
     * A LINEAR_QUERIES plan records its CUSTOM workload's id, sha256 and shape; a workload deleted (or
     * no longer the recorded content) before the job runs makes the stored plan fail to rebuild:
     * PLAN_MISMATCH, refunded, no data access.
     */
    @Test
    void aCustomWorkloadDeletedOrChangedBeforeTheJobRunsFailsClosedAndIsRefunded() {
        Response h = postJson("/v1/datasets", "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"neighbouring\":\"REPLACE_ONE\","
                + "\"attributes\":[{\"name\":\"a\",\"size\":4}],\"budget\":{\"epsilon\":5,\"delta\":1e-6}}");
        String dataset = h.json().get("id").asString();
        assertThat(put("/v1/datasets/" + dataset + "/data", "text/csv", "a\n0\n3\n3\n".getBytes()).status())
                .isEqualTo(200);
        for (boolean delete : new boolean[] {true, false}) {
            Response w = send(java.net.http.HttpRequest.newBuilder(uri("/v1/workloads")).header("Content-Type",
                    "text/csv").POST(java.net.http.HttpRequest.BodyPublishers.ofString("1,1,0,0\n0,1,1,0.71875\n")));
            // (content unique to this test: it is corrupted below, and content is shared by address)
            String workload = w.json().get("id").asString();
            Response r = postJson("/v1/datasets/" + dataset + "/queries", "{\"kind\":\"LINEAR_QUERIES\","
                    + "\"mechanism\":\"LAPLACE_WORKLOAD\",\"epsilon\":0.1,\"params\":{\"workload\":{\"type\":\"CUSTOM\","
                    + "\"id\":\"" + workload + "\"}}}");
            assertThat(r.status()).as(r.toString()).isEqualTo(202);
            String jobId = r.json().get("id").asString();
            if (delete) {
                assertThat(delete("/v1/workloads/" + workload).status()).isEqualTo(204);
            } else {
                // Workloads are immutable through the API; a changed value stands for a corrupted store
                // (the content no longer matches the SHA-256 it is stored under: one bit of the last value).
                assertThat(jdbc.update("UPDATE workload_content SET payload = set_byte(payload, octet_length(payload) - 1,"
                        + " get_byte(payload, octet_length(payload) - 1) # 1) WHERE sha256 = (SELECT sha256 FROM workload"
                        + " WHERE id = ?::uuid)", workload)).isEqualTo(1);
            }
            executor.execute(claim("careful-worker", jobId), "careful-worker");
            var view = get("/v1/jobs/" + jobId).json();
            assertThat(view.get("state").asString()).isEqualTo("FAILED");
            assertThat(view.get("error").get("code").asString()).isEqualTo("PLAN_MISMATCH");
            assertThat(view.get("dataAccessStarted").asBoolean()).isFalse();
            assertThat(ledger(jobId)).hasSize(2).first().isEqualTo("RESERVE");
            assertThat(ledger(jobId)).doesNotContain("COMMIT");
        }
        var budget = get("/v1/datasets/" + dataset + "/budget").json();
        assertThat(budget.get("spent").get("tracks").get("rho").decimalValue()).isZero();
        assertThat(budget.get("reserved").get("tracks").get("rho").decimalValue()).isZero();
    }
}
