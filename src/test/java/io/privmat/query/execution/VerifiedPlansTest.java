package io.privmat.query.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.job.Job;
import io.privmat.job.worker.JobExecutor;
import io.privmat.support.ApiTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * The handler keeps the plan it verified for a job until the job runs; a job that never runs after
 * verification (cancelled meanwhile, or handed back because the replica is stopping) must not
 * leave its plan behind (issue 16, item 6).
 */
@TestPropertySource(properties = {"privmat.embedded-postgres.database=stopping", "privmat.jobs.enabled=false"})
class VerifiedPlansTest extends ApiTest {

    private static final String QUERY = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.005}";

    @Autowired
    JobExecutor executor;

    @Autowired
    QueryJobHandler handler;

    @BeforeEach
    void noLeftoverJobs() {
        jdbc.update("UPDATE job SET state = 'CANCELLED' WHERE state IN ('QUEUED', 'RUNNING')");
    }

    @Test
    void aPlanVerifiedForAJobCancelledBeforeDataAccessIsDropped() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String id = postJson("/v1/datasets/" + dataset + "/queries", QUERY).json().get("id").asString();
        Job job = executor.claim("w").orElseThrow();
        assertThat(job.id().toString()).isEqualTo(id);
        assertThat(delete("/v1/jobs/" + id).json().get("state").asString()).isEqualTo("CANCELLED");
        executor.execute(job, "w");
        assertThat(handler.pendingVerified()).isZero();
    }

    @Test
    void aPlanVerifiedForAJobHandedBackOnShutdownIsDropped() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String id = postJson("/v1/datasets/" + dataset + "/queries", QUERY).json().get("id").asString();
        Job job = executor.claim("w").orElseThrow();
        executor.beginShutdown();
        try {
            executor.execute(job, "w");
        } finally {
            executor.resume();
        }
        assertThat(handler.pendingVerified()).isZero();
        assertThat(get("/v1/jobs/" + id).json().get("state").asString()).isEqualTo("QUEUED");
        assertThat(jdbc.queryForObject("SELECT attempts FROM job WHERE id = ?::uuid", Integer.class, id)).isZero();
        assertThat(jdbc.queryForList("SELECT entry_type FROM ledger_entry WHERE job_id = ?::uuid", String.class, id))
                .containsExactly("RESERVE");
    }
}
