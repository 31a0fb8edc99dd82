package io.privmat.job.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.job.Job;
import io.privmat.support.ApiTest;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.test.context.TestPropertySource;

/**
 * A heartbeat that fails (as during a PostgreSQL restart) is retried with backoff within the lease,
 * and the real lease renewal then succeeds: the job is not given up (issue 16, item 7).
 */
@TestPropertySource(properties = {"privmat.embedded-postgres.database=stopping", "privmat.jobs.enabled=false"})
class HeartbeatRetryTest extends ApiTest {

    @Autowired
    JobExecutor executor;

    @Test
    void failedHeartbeatsAreRetriedWithBackoffUntilTheLeaseIsRenewed() {
        jdbc.update("UPDATE job SET state = 'CANCELLED' WHERE state IN ('QUEUED', 'RUNNING')");
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        postJson("/v1/datasets/" + dataset + "/queries", "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\","
                + "\"rho\":0.005}");
        Job job = executor.claim("w").orElseThrow();
        jdbc.update("UPDATE job SET heartbeat_at = now() - interval '20 seconds' WHERE id = ?", job.id());
        Timestamp before = jdbc.queryForObject("SELECT heartbeat_at FROM job WHERE id = ?", Timestamp.class, job.id());
        AtomicInteger failures = new AtomicInteger(3);
        AtomicInteger attempts = new AtomicInteger();
        List<Long> sleeps = new ArrayList<>();
        boolean ok = WorkerPool.retryUntil(() -> {
            attempts.incrementAndGet();
            if (failures.getAndDecrement() > 0) {
                throw new TransientDataAccessResourceException("database restarting");
            }
            assertThat(executor.heartbeat(Set.of(job.id()), "w")).isEqualTo(1);
        }, System.nanoTime() + 60_000_000_000L, 100, 2000, sleeps::add);
        assertThat(ok).isTrue();
        assertThat(attempts).hasValue(4);
        assertThat(sleeps).containsExactly(100L, 200L, 400L);
        Timestamp after = jdbc.queryForObject("SELECT heartbeat_at FROM job WHERE id = ?", Timestamp.class, job.id());
        assertThat(after).isAfter(before);
        assertThat(get("/v1/jobs/" + job.id()).json().get("state").asString()).isEqualTo("RUNNING");
    }

    @Test
    void retriesStopWhenTheLeaseCannotBeSavedAnyMore() {
        List<Long> sleeps = new ArrayList<>();
        AtomicInteger attempts = new AtomicInteger();
        long start = System.nanoTime();
        boolean ok = WorkerPool.retryUntil(() -> {
            attempts.incrementAndGet();
            throw new TransientDataAccessResourceException("down");
        }, start + 300_000_000L, 20, 80, millis -> {
            sleeps.add(millis);
            Thread.sleep(millis);
        });
        assertThat(ok).isFalse();
        assertThat(sleeps).startsWith(20L, 40L, 80L).allMatch(s -> s <= 80L);
        assertThat(attempts.get()).isEqualTo(sleeps.size() + 1);
        assertThat(System.nanoTime() - start).isLessThan(1_000_000_000L);
    }
}
