package io.privmat.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import io.privmat.support.FaultDatabase;
import io.privmat.support.LedgerInvariants;
import io.privmat.support.Patience;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Base of the fault-injection suite (tag {@code fault}; the bounded variants run in the default
 * build, docs/reliability.md): one replica on the suite's own PostgreSQL ({@link FaultDatabase},
 * which tests stop and restart), with small pools and short leases so that faults bite within
 * seconds — a request pool of 4 connections, at most 2 uploads at once, a 2 s rate window at
 * 1 KiB/s, a 6 s lease renewed every second, and {@link FaultHandlers} jobs.
 */
@Tag("fault")
@Import(FaultHandlers.class)
@TestPropertySource(properties = {
    "spring.datasource.url=${privmat.fault.jdbc-url}", "spring.datasource.username=postgres",
    "spring.datasource.password=",
    "spring.datasource.hikari.maximum-pool-size=4", "spring.datasource.hikari.connection-timeout=1000",
    "privmat.ingest.max-concurrent-uploads=2", "privmat.ingest.prefetch-size=16KB",
    "privmat.ingest.rate-window=2s", "privmat.ingest.min-upload-rate=1KB",
    "privmat.jobs.worker-threads=2", "privmat.jobs.pool-size=3", "privmat.jobs.connection-timeout=1s",
    "privmat.jobs.lease-timeout=6s", "privmat.jobs.heartbeat-interval=1s", "privmat.jobs.reaper-interval=1s",
    "privmat.readiness.connection-wait=500ms", "server.tomcat.connection-timeout=5s"})
public abstract class FaultTest extends ApiTest {

    static {
        FaultDatabase.get();
    }

    @Autowired
    protected FaultJobs faultJobs;

    /** A READY matrix dataset of the OWNER key, granted to the ANALYST key. */
    protected UUID dataset() {
        String id = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        assertThat(postJson("/v1/datasets/" + id + "/grants", "{\"analyst\":\"" + ANALYST + "\"}").status())
                .isEqualTo(201);
        return UUID.fromString(id);
    }

    protected UUID faultJob(UUID dataset, String parameters) {
        return faultJobs.enqueue(dataset, ANALYST, parameters);
    }

    protected JsonNode job(UUID id) {
        return JSON.readTree(jdbc.queryForObject("SELECT row_to_json(j)::text FROM job j WHERE id = ?", String.class, id));
    }

    protected String state(UUID id) {
        return jdbc.queryForObject("SELECT state FROM job WHERE id = ?", String.class, id);
    }

    /**
     * Waits (up to {@code seconds}, scaled to the machine's load by {@link Patience}) until the job is
     * in one of the states; returns it.
     */
    protected String awaitState(UUID id, int seconds, String... states) throws InterruptedException {
        long deadline = Patience.deadline(java.time.Duration.ofSeconds(seconds));
        String state = null;
        while (System.nanoTime() < deadline) {
            try {
                state = state(id);
            } catch (org.springframework.dao.DataAccessException databaseStillComingBack) {
                state = null; // the test's own read, e.g. right after a restart: try again
            }
            if (java.util.Arrays.asList(states).contains(state)) {
                break;
            }
            Thread.sleep(50);
        }
        return state;
    }

    protected void invariants(boolean allSettled) {
        LedgerInvariants.check(jdbc, allSettled);
    }
}
