package io.privmat.job.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.job.Job;
import io.privmat.job.JobContext;
import io.privmat.job.JobHandler;
import io.privmat.job.JobOutput;
import io.privmat.job.JobSettings;
import io.privmat.job.JobStoppedException;
import io.privmat.job.jdbc.JobRepository;
import io.privmat.ledger.BudgetService;
import io.privmat.support.ApiTest;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A running handler learns through {@code progress} that its job was cancelled (or its lease lost)
 * and stops, instead of computing a result nobody will publish. Workers are played by the test.
 */
@TestPropertySource(properties = {"privmat.embedded-postgres.database=stopping", "privmat.jobs.enabled=false"})
class CooperativeStopTest extends ApiTest {

    @Autowired
    JobExecutor executor;

    @Autowired
    JobRepository jobs;

    @Autowired
    BudgetService budget;

    @Autowired
    TransactionTemplate tx;

    @Autowired
    Clock clock;

    @Autowired
    JobSettings settings;

    private String submit() {
        jdbc.update("UPDATE job SET state = 'CANCELLED' WHERE state IN ('QUEUED', 'RUNNING')");
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        return postJson("/v1/datasets/" + dataset + "/queries",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.005}").json().get("id").asString();
    }

    @Test
    void aHandlerCancelledMidwayStopsAtItsNextProgressAndNothingIsPublished() {
        String id = submit();
        AtomicBoolean workedOnAfterCancel = new AtomicBoolean();
        JobHandler slow = new JobHandler() {
            @Override
            public String kind() {
                return "COLUMN_SUMS";
            }

            @Override
            public JobOutput run(JobContext context) throws InterruptedException {
                context.progress(0.1);
                assertThat(delete("/v1/jobs/" + id).json().get("state").asString()).isEqualTo("CANCELLED");
                Thread.sleep(300); // progress writes (and checks) at most every 250 ms
                context.progress(0.2); // must throw: the job was cancelled meanwhile
                workedOnAfterCancel.set(true);
                throw new IllegalStateException("unreachable");
            }
        };
        JobExecutor own = new JobExecutor(jobs, budget, tx, clock, settings, List.of(slow));
        Job job = own.claim("worker").orElseThrow();
        own.execute(job, "worker");
        assertThat(workedOnAfterCancel).isFalse();
        assertThat(get("/v1/jobs/" + id).json().get("state").asString()).isEqualTo("CANCELLED");
        assertThat(get("/v1/jobs/" + id).json().get("error").get("code").asString()).isNotEqualTo("JOB_FAILED");
        assertThat(jdbc.queryForList("SELECT entry_type FROM ledger_entry WHERE job_id = ?::uuid ORDER BY id",
                String.class, id)).containsExactly("RESERVE", "COMMIT");
    }

    @Test
    void progressStopsTheHandlerOnceTheJobIsCancelledOrNotOurs() {
        String id = submit();
        Job job = executor.claim("worker").orElseThrow();
        assertThat(job.id().toString()).isEqualTo(id);
        assertThat(executor.startDataAccess(job.id(), "worker")).isTrue();

        executor.new Context(job, "worker").progress(0.3);
        assertThat(get("/v1/jobs/" + id).json().get("progress").asDouble()).isEqualTo(0.3);
        // Another worker's context (a lease it does not hold) is told to stop and changes nothing.
        assertThatThrownBy(() -> executor.new Context(job, "intruder").progress(0.9))
                .isInstanceOf(JobStoppedException.class);
        assertThat(get("/v1/jobs/" + id).json().get("progress").asDouble()).isEqualTo(0.3);

        assertThat(delete("/v1/jobs/" + id).json().get("state").asString()).isEqualTo("CANCELLED");
        assertThatThrownBy(() -> executor.new Context(job, "worker").progress(0.5))
                .isInstanceOf(JobStoppedException.class);
        // The executor treats the stop as a quiet end: still CANCELLED, no result, charge kept.
        executor.execute(job, "worker");
        assertThat(get("/v1/jobs/" + id).json().get("state").asString()).isEqualTo("CANCELLED");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM job_result WHERE job_id = ?::uuid", Long.class, id)).isZero();
    }
}
