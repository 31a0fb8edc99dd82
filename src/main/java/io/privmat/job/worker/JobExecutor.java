package io.privmat.job.worker;

import io.privmat.job.Job;
import io.privmat.job.JobContext;
import io.privmat.job.JobHandler;
import io.privmat.job.JobOutput;
import io.privmat.job.JobSettings;
import io.privmat.job.JobState;
import io.privmat.job.JobStoppedException;
import io.privmat.job.PlanMismatchException;
import io.privmat.job.jdbc.JobRepository;
import io.privmat.ledger.BudgetService;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The steps of running one job, each its own short transaction: claim; mark "data access
 * started" together with the ledger COMMIT; run the handler; store the result once. Also the
 * reaper's policy for jobs whose worker died. Used by {@link WorkerPool} and directly by tests.
 */
@Component
public class JobExecutor {

    private static final Logger log = LoggerFactory.getLogger(JobExecutor.class);

    /** Generic failure message: never the exception's text, which could carry data. */
    static final String FAILED_MESSAGE = "The mechanism failed after reading the data; the charge is kept.";

    private final JobRepository jobs;
    private final BudgetService budget;
    private final TransactionTemplate tx;
    private final TransactionTemplate separateTx;
    private final Clock clock;
    private final JobSettings settings;
    private final Map<String, JobHandler> handlers;

    public JobExecutor(JobRepository jobs, BudgetService budget, TransactionTemplate tx, Clock clock,
            JobSettings settings, List<JobHandler> handlers) {
        this.jobs = jobs;
        this.budget = budget;
        this.tx = tx;
        // Progress is written from inside the handler's (read-only, streaming) transaction.
        this.separateTx = new TransactionTemplate(tx.getTransactionManager());
        this.separateTx.setPropagationBehavior(org.springframework.transaction.TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.clock = clock;
        this.settings = settings;
        this.handlers = new java.util.HashMap<>();
        for (JobHandler h : handlers) {
            for (String kind : h.kinds()) {
                if (this.handlers.put(kind, h) != null) {
                    throw new IllegalStateException("two handlers for job kind " + kind);
                }
            }
        }
    }

    public Optional<Job> claim(String worker) {
        return tx.execute(s -> jobs.claimNext(worker, clock.instant()));
    }

    /**
     * Durably marks "data access started" and commits the charge, in one transaction. False if the
     * job is no longer this worker's RUNNING job (cancelled or reaped meanwhile): then no data may
     * be read.
     */
    public boolean startDataAccess(UUID id, String worker) {
        Boolean started = tx.execute(s -> {
            Job job = jobs.lock(id).orElse(null);
            if (job == null || job.state() != JobState.RUNNING || !worker.equals(job.leaseOwner())) {
                return false;
            }
            if (job.dataAccessStartedAt() == null) {
                jobs.markDataAccess(id, clock.instant());
                budget.commit(id);
            }
            return true;
        });
        return Boolean.TRUE.equals(started);
    }

    /** Runs a claimed job to its end state. */
    public void execute(Job job, String worker) {
        JobHandler handler = handlers.get(job.kind());
        if (handler == null) {
            // Nothing was read: refund.
            finishBeforeDataAccess(job.id(), worker, "UNKNOWN_KIND", "No handler for this job kind in this replica.");
            return;
        }
        try {
            handler.verify(job);
        } catch (PlanMismatchException e) {
            // The stored plan no longer gives the reserved loss: fail closed before any row is read.
            log.error("job {} refused before data access: {}", job.id(), e.getMessage());
            finishBeforeDataAccess(job.id(), worker, "PLAN_MISMATCH", "The stored plan does not rebuild into the "
                    + "reserved privacy loss; nothing was read.");
            return;
        }
        if (!startDataAccess(job.id(), worker)) {
            return;
        }
        JobOutput output;
        try {
            output = handler.run(new Context(job, worker));
        } catch (JobStoppedException e) {
            // Cancelled or reaped while running: nothing to publish, and the state is not ours to change.
            log.info("job {} stopped: no longer running under {}", job.id(), worker);
            return;
        } catch (Throwable e) {
            log.warn("job {} failed: {}", job.id(), e.getClass().getName());
            fail(job.id(), worker, "JOB_FAILED", FAILED_MESSAGE);
            if (e instanceof Error error && !(e instanceof AssertionError) && !(e instanceof OutOfMemoryError)) {
                throw error;
            }
            return;
        }
        complete(job.id(), worker, output);
    }

    private void complete(UUID id, String worker, JobOutput output) {
        tx.executeWithoutResult(s -> {
            Job job = jobs.lock(id).orElse(null);
            if (job == null || job.state() != JobState.RUNNING || !worker.equals(job.leaseOwner())) {
                return; // cancelled or reaped meanwhile: the result is discarded, never released
            }
            Instant now = clock.instant();
            jobs.insertResult(id, output, now);
            jobs.transition(id, JobState.DONE, now);
        });
    }

    private void fail(UUID id, String worker, String code, String message) {
        tx.executeWithoutResult(s -> {
            Job job = jobs.lock(id).orElse(null);
            if (job == null || job.state() != JobState.RUNNING || !worker.equals(job.leaseOwner())) {
                return;
            }
            jobs.transition(id, JobState.FAILED, clock.instant());
            jobs.recordError(id, code, message);
        });
    }

    private void finishBeforeDataAccess(UUID id, String worker, String code, String message) {
        tx.executeWithoutResult(s -> {
            Job job = jobs.lock(id).orElse(null);
            if (job == null || job.state() != JobState.RUNNING || !worker.equals(job.leaseOwner())
                    || job.dataAccessStartedAt() != null) {
                return;
            }
            jobs.transition(id, JobState.FAILED, clock.instant());
            jobs.recordError(id, code, message + " The charge was refunded.");
            budget.refund(id);
        });
    }

    /**
     * Reaps RUNNING jobs whose heartbeat is older than the lease timeout. Before "data access
     * started": back to QUEUED (or, after {@code maxAttempts} claims, FAILED and refunded).
     * After it: FAILED with the charge kept — the data may have been read.
     *
     * @return the number of jobs reaped
     */
    public int reap() {
        Integer n = tx.execute(s -> {
            Instant now = clock.instant();
            List<Job> expired = jobs.lockExpired(now.minus(settings.leaseTimeout()));
            for (Job job : expired) {
                if (job.dataAccessStartedAt() != null) {
                    jobs.transition(job.id(), JobState.FAILED, now);
                    jobs.recordError(job.id(), "WORKER_LOST",
                            "The worker stopped after data access started; the charge is kept.");
                } else if (job.attempts() >= settings.maxAttempts()) {
                    jobs.transition(job.id(), JobState.FAILED, now);
                    jobs.recordError(job.id(), "WORKER_LOST",
                            "Workers stopped " + job.attempts() + " times before data access; the charge was refunded.");
                    budget.refund(job.id());
                } else {
                    jobs.transition(job.id(), JobState.QUEUED, now);
                }
            }
            return expired.size();
        });
        return n == null ? 0 : n;
    }

    public int heartbeat(java.util.Collection<UUID> ids, String worker) {
        Integer n = tx.execute(s -> jobs.heartbeat(ids, worker, clock.instant()));
        return n == null ? 0 : n;
    }

    /** The handler's view of its job; package-private so tests can drive it directly. */
    final class Context implements JobContext {
        private final Job job;
        private final String worker;
        private long lastUpdate;

        Context(Job job, String worker) {
            this.job = job;
            this.worker = worker;
        }

        @Override
        public Job job() {
            return job;
        }

        @Override
        public void progress(double fraction) {
            long now = System.nanoTime();
            if (lastUpdate != 0 && now - lastUpdate < 250_000_000L && fraction < 1) {
                return;
            }
            lastUpdate = now;
            double clamped = Math.max(0, Math.min(1, fraction));
            Integer updated;
            try {
                updated = separateTx.execute(s -> jobs.progress(job.id(), worker, clamped));
            } catch (RuntimeException e) {
                log.debug("progress update failed: {}", e.getClass().getName());
                return;
            }
            if (updated != null && updated == 0) {
                throw new JobStoppedException();
            }
        }
    }
}
