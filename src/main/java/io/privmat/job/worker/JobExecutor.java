package io.privmat.job.worker;

import io.privmat.job.Job;
import io.privmat.job.JobContext;
import io.privmat.job.JobHandler;
import io.privmat.job.JobOutput;
import io.privmat.job.JobSettings;
import io.privmat.job.JobState;
import io.privmat.job.JobStoppedException;
import io.privmat.job.PlanMismatchException;
import io.privmat.job.jdbc.JobDatabase;
import io.privmat.job.jdbc.JobRepository;
import io.privmat.ledger.BudgetService;
import io.privmat.metrics.ServiceMetrics;
import io.privmat.problem.DatabaseFailures;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The steps of running one job, each its own short transaction on the job engine's own pool
 * ({@link JobDatabase}): claim; mark "data access started" together with the ledger COMMIT; run the
 * handler; store the result once. Every job-state write is retried, while this replica's lease on
 * the job lasts, when the database is briefly unavailable; each write checks the job's state and
 * owner first, so a retry after a commit whose outcome was lost changes nothing. Also the reaper's
 * policy for jobs whose worker died, and what happens to claimed jobs when this replica stops. Used
 * by {@link WorkerPool} and directly by tests.
 */
@Component
public class JobExecutor {

    private static final Logger log = LoggerFactory.getLogger(JobExecutor.class);

    /** Generic failure message: never the exception's text, which could carry data. */
    static final String FAILED_MESSAGE = "The mechanism failed after reading the data; the charge is kept.";

    /** Error code of a job still reading data when its replica stopped after the shutdown grace. */
    static final String REPLICA_STOPPED = "REPLICA_STOPPED";

    private final JobRepository jobs;
    private final BudgetService budget;
    private final TransactionTemplate tx;
    private final TransactionTemplate separateTx;
    private final Clock clock;
    private final JobSettings settings;
    private final Map<String, JobHandler> handlers;
    /** Per claimed job: until when ({@link System#nanoTime()}) this replica's lease is certainly valid. */
    private final Map<UUID, Long> leases = new ConcurrentHashMap<>();
    private volatile boolean stopping;
    private volatile Retry.Sleeper sleeper = Thread::sleep;
    private ServiceMetrics metrics = ServiceMetrics.NONE;

    @Autowired(required = false)
    public void setMetrics(ServiceMetrics metrics) {
        this.metrics = metrics;
    }

    @Autowired
    public JobExecutor(JobDatabase database, Clock clock, JobSettings settings, List<JobHandler> handlers) {
        this(database.jobs(), database.budget(), database.tx(), clock, settings, handlers);
    }

    /** On the given repositories and transactions (tests use the request pool's). */
    public JobExecutor(JobRepository jobs, BudgetService budget, TransactionTemplate tx, Clock clock,
            JobSettings settings, List<JobHandler> handlers) {
        this.jobs = jobs;
        this.budget = budget;
        this.tx = tx;
        // Progress is written from inside the handler's (read-only, streaming) transaction.
        this.separateTx = new TransactionTemplate(tx.getTransactionManager());
        this.separateTx.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
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
        if (stopping) {
            return Optional.empty();
        }
        long validUntil = System.nanoTime() + settings.leaseMargin().toNanos();
        Optional<Job> job = tx.execute(s -> jobs.claimNext(worker, clock.instant()));
        if (job == null) {
            return Optional.empty();
        }
        job.ifPresent(j -> {
            leases.put(j.id(), validUntil);
            if (j.attempts() == 1 && j.startedAt() != null) {
                metrics.queueWait(j.kind(), j.mechanism(), java.time.Duration.between(j.createdAt(), j.startedAt()));
            }
        });
        return job;
    }

    /**
     * From now on no claimed job starts reading data: {@link #startDataAccess} hands it back to the
     * queue instead, and nothing more is claimed. Called when this replica begins to stop.
     */
    public void beginShutdown() {
        stopping = true;
    }

    /** Claims and data access resume (the worker pool was started again). */
    public void resume() {
        stopping = false;
    }

    /**
     * Durably marks "data access started" and commits the charge, in one transaction. False if the
     * job is no longer this worker's RUNNING job (cancelled or reaped meanwhile): then no data may
     * be read. Also false, after handing the job back to the queue without using an attempt, when
     * this replica is stopping.
     */
    public boolean startDataAccess(UUID id, String worker) {
        Boolean started = retrying(id, "start data access", () -> tx.execute(s -> {
            Job job = jobs.lock(id).orElse(null);
            if (job == null || job.state() != JobState.RUNNING || !worker.equals(job.leaseOwner())) {
                return false;
            }
            if (job.dataAccessStartedAt() == null) {
                if (stopping) {
                    jobs.requeueUnstarted(id);
                    log.info("job {} handed back to the queue: this replica is stopping", id);
                    return false;
                }
                jobs.markDataAccess(id, clock.instant());
                budget.commit(id);
            }
            return true;
        }));
        return Boolean.TRUE.equals(started);
    }

    /** Runs a claimed job to its end state. */
    public void execute(Job job, String worker) {
        JobHandler handler = handlers.get(job.kind());
        if (handler == null) {
            // Nothing was read: refund.
            finishBeforeDataAccess(job.id(), worker, "UNKNOWN_KIND", "No handler for this job kind in this replica.");
            finished(job, "FAILED", "unknown-kind");
            leases.remove(job.id());
            return;
        }
        try {
            run(handler, job, worker);
        } finally {
            handler.discard(job);
            leases.remove(job.id());
        }
    }

    private void run(JobHandler handler, Job job, String worker) {
        try {
            handler.verify(job);
        } catch (PlanMismatchException e) {
            // The stored plan no longer gives the reserved loss: fail closed before any row is read.
            log.error("job {} refused before data access: {}", job.id(), e.getMessage());
            finishBeforeDataAccess(job.id(), worker, e.code(), e.publicMessage());
            finished(job, "FAILED", e.code().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
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
            finished(job, "FAILED", failureClass(handler, e));
            if (e instanceof Error error && !(e instanceof AssertionError) && !(e instanceof OutOfMemoryError)) {
                throw error;
            }
            return;
        }
        if (complete(job.id(), worker, output)) {
            finished(job, "DONE", null);
        }
    }

    /** Records a finished job's duration (from its first start) and, when it failed, the failure's class. */
    private void finished(Job job, String state, @org.jspecify.annotations.Nullable String failure) {
        Instant started = job.startedAt() == null ? job.createdAt() : job.startedAt();
        metrics.finished(job.kind(), job.mechanism(), state, java.time.Duration.between(started, clock.instant()));
        if (failure != null) {
            metrics.failure(job.kind(), job.mechanism(), failure);
        }
    }

    /**
     * The class of a failure, from the exception's type only (never its message): "memory" for an
     * OutOfMemoryError anywhere in the cause chain, else the first class the job's handler recognises
     * ({@link JobHandler#failureClass}), else "other". The engine names no mechanism's exception.
     */
    public static String failureClass(JobHandler handler, Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutOfMemoryError) {
                return "memory";
            }
            String known = handler.failureClass(t);
            if (known != null) {
                return known;
            }
        }
        return "other";
    }

    /** Stores the result; false when the job was no longer this worker's (nothing stored). */
    private boolean complete(UUID id, String worker, JobOutput output) {
        Boolean stored = retrying(id, "store the result", () -> tx.execute(s -> {
            Job job = jobs.lock(id).orElse(null);
            if (job == null || job.state() != JobState.RUNNING || !worker.equals(job.leaseOwner())) {
                return false; // cancelled or reaped meanwhile (or done by an earlier attempt): never released twice
            }
            Instant now = clock.instant();
            jobs.insertResult(id, output, now);
            jobs.transition(id, JobState.DONE, now);
            return true;
        }));
        return Boolean.TRUE.equals(stored);
    }

    private void fail(UUID id, String worker, String code, String message) {
        retrying(id, "record a failure", () -> tx.execute(s -> {
            Job job = jobs.lock(id).orElse(null);
            if (job == null || job.state() != JobState.RUNNING || !worker.equals(job.leaseOwner())) {
                return null;
            }
            jobs.transition(id, JobState.FAILED, clock.instant());
            jobs.recordError(id, code, message);
            return null;
        }));
    }

    private void finishBeforeDataAccess(UUID id, String worker, String code, String message) {
        retrying(id, "refund", () -> tx.execute(s -> {
            Job job = jobs.lock(id).orElse(null);
            if (job == null || job.state() != JobState.RUNNING || !worker.equals(job.leaseOwner())
                    || job.dataAccessStartedAt() != null) {
                return null;
            }
            jobs.transition(id, JobState.FAILED, clock.instant());
            jobs.recordError(id, code, message + " The charge was refunded.");
            budget.refund(id);
            return null;
        }));
    }

    /**
     * This replica is stopping and the job is still running after the shutdown grace: if it had
     * started reading data it fails with its charge kept (and its handler, told at its next progress
     * report, stops); otherwise it goes back to the queue without using an attempt.
     */
    void abandon(UUID id, String worker) {
        retrying(id, "abandon on shutdown", () -> tx.execute(s -> {
            Job job = jobs.lock(id).orElse(null);
            if (job == null || job.state() != JobState.RUNNING || !worker.equals(job.leaseOwner())) {
                return null;
            }
            if (job.dataAccessStartedAt() == null) {
                jobs.requeueUnstarted(id);
            } else {
                jobs.transition(id, JobState.FAILED, clock.instant());
                jobs.recordError(id, REPLICA_STOPPED, "The replica running the job stopped after data access "
                        + "started; the charge is kept.");
            }
            return null;
        }));
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
                    metrics.failure(job.kind(), job.mechanism(), "worker-lost");
                } else if (job.attempts() >= settings.maxAttempts()) {
                    jobs.transition(job.id(), JobState.FAILED, now);
                    jobs.recordError(job.id(), "WORKER_LOST",
                            "Workers stopped " + job.attempts() + " times before data access; the charge was refunded.");
                    metrics.failure(job.kind(), job.mechanism(), "worker-lost");
                    budget.refund(job.id());
                } else {
                    jobs.transition(job.id(), JobState.QUEUED, now);
                }
            }
            return expired.size();
        });
        return n == null ? 0 : n;
    }

    /** Renews the leases of the given jobs held by {@code worker}; extends this replica's view of them. */
    public int heartbeat(Collection<UUID> ids, String worker) {
        long validUntil = System.nanoTime() + settings.leaseMargin().toNanos();
        Integer n = tx.execute(s -> jobs.heartbeat(ids, worker, clock.instant()));
        for (UUID id : ids) {
            leases.computeIfPresent(id, (k, v) -> Math.max(v, validUntil));
        }
        return n == null ? 0 : n;
    }

    /** Replaces the sleep between retries (tests). */
    void sleeper(Retry.Sleeper sleeper) {
        this.sleeper = sleeper;
    }

    /**
     * A job-state write, retried with backoff (100 ms doubling up to the heartbeat interval) while
     * the database is unavailable and this replica's lease on the job lasts. After that the job is no
     * longer ours to write: the reaper settles it (requeued before data access, failed with the
     * charge kept after it).
     */
    private <T> T retrying(UUID id, String what, Supplier<T> write) {
        long deadline = leases.getOrDefault(id, System.nanoTime() + settings.leaseMargin().toNanos());
        return Retry.until("job " + id + ": " + what, write, deadline, 100,
                Math.max(100, settings.heartbeatInterval().toMillis()), sleeper, DatabaseFailures::isUnavailable);
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
