package io.privmat.job.worker;

import io.privmat.job.Job;
import io.privmat.job.JobSettings;
import io.privmat.job.JobWakeups;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * This replica's workers: {@code workerThreads} loops that claim and run jobs, one thread for
 * heartbeats and one for the reaper. Every replica runs one; they coordinate only through
 * PostgreSQL.
 *
 * <p>Shutdown (docs/reliability.md): readiness is already REFUSING when this stops, in the same
 * phase as the web server's graceful shutdown. Nothing more is claimed; jobs claimed but not yet
 * reading data go back to the queue without using an attempt; jobs reading data get
 * {@code privmat.jobs.shutdown-grace} to finish, with their leases renewed, after which they fail
 * with their charge kept. Then heartbeats stop; the pools and the database close after this.
 */
@Component
public class WorkerPool implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WorkerPool.class);

    private final JobExecutor executor;
    private final JobSettings settings;
    private final JobWakeups wakeups;
    private final String workerId = "worker-" + UUID.randomUUID();
    private final Set<UUID> active = ConcurrentHashMap.newKeySet();
    private volatile boolean running;
    private ExecutorService workers;
    private ScheduledExecutorService scheduler;
    private ScheduledExecutorService heartbeats;

    public WorkerPool(JobExecutor executor, JobSettings settings, JobWakeups wakeups) {
        this.executor = executor;
        this.settings = settings;
        this.wakeups = wakeups;
    }

    public String workerId() {
        return workerId;
    }

    @Override
    public void start() {
        if (!settings.enabled()) {
            log.info("job workers disabled in this replica (privmat.jobs.enabled=false)");
            return;
        }
        running = true;
        executor.resume();
        int threads = settings.effectiveWorkerThreads();
        workers = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "privmat-worker");
            t.setDaemon(true);
            return t;
        });
        for (int i = 0; i < threads; i++) {
            workers.submit(this::loop);
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "privmat-job-scheduler");
            t.setDaemon(true);
            return t;
        });
        // Heartbeats have their own thread: retries must not wait behind the reaper, nor delay it.
        heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "privmat-heartbeat");
            t.setDaemon(true);
            return t;
        });
        long heartbeat = settings.heartbeatInterval().toMillis();
        heartbeats.scheduleWithFixedDelay(this::beat, heartbeat, heartbeat, TimeUnit.MILLISECONDS);
        long reaper = settings.reaperInterval().toMillis();
        scheduler.scheduleWithFixedDelay(this::reapQuietly, reaper, reaper, TimeUnit.MILLISECONDS);
        log.info("{} started with {} worker threads", workerId, threads);
    }

    private void loop() {
        while (running) {
            try {
                Optional<Job> job = executor.claim(workerId);
                if (job.isEmpty()) {
                    wakeups.await(settings.pollInterval().toMillis());
                    continue;
                }
                active.add(job.get().id());
                try {
                    executor.execute(job.get(), workerId);
                } finally {
                    active.remove(job.get().id());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // Database hiccups: log the type only and back off; the reaper recovers leases.
                log.warn("{} loop error: {}", workerId, e.getClass().getName());
                try {
                    Thread.sleep(settings.pollInterval().toMillis());
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Nanos of the last heartbeat that reached the database. */
    private volatile long lastBeat = System.nanoTime();

    /**
     * Renews the leases of this replica's running jobs. A failed write (a PostgreSQL restart, a
     * dropped connection) is retried with exponential backoff from 100 ms up to the heartbeat
     * interval, for as long as the lease can still be saved: until 90 % of the lease timeout has
     * passed since the last successful heartbeat. Only then is the job given up (the reaper will
     * take it). See docs/reliability.md.
     */
    private void beat() {
        if (active.isEmpty()) {
            lastBeat = System.nanoTime();
            return;
        }
        // Keep a tenth of the lease as margin for the write itself and for clock skew between replicas.
        long deadline = lastBeat + settings.leaseMargin().toNanos();
        boolean ok = retryUntil(() -> executor.heartbeat(Set.copyOf(active), workerId), deadline,
                100, Math.max(100, settings.heartbeatInterval().toMillis()), Thread::sleep);
        if (ok) {
            lastBeat = System.nanoTime();
        } else {
            log.warn("{}: heartbeats failed until close to the lease timeout; running jobs may be reaped", workerId);
        }
    }

    /** Sleeps for the given milliseconds (a test replaces it). */
    interface Sleeper extends Retry.Sleeper {}

    /**
     * Runs {@code action} until it succeeds, sleeping {@code firstBackoffMs}, twice that, … (at most
     * {@code maxBackoffMs}) between attempts, and gives up when the next attempt would start after
     * {@code deadlineNanos} ({@link System#nanoTime()}). Logs failure types only.
     *
     * @return whether an attempt succeeded
     */
    static boolean retryUntil(Runnable action, long deadlineNanos, long firstBackoffMs, long maxBackoffMs,
            Sleeper sleeper) {
        try {
            Retry.until("heartbeat", () -> {
                action.run();
                return Boolean.TRUE;
            }, deadlineNanos, firstBackoffMs, maxBackoffMs, sleeper, e -> true);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void reapQuietly() {
        try {
            int n = executor.reap();
            if (n > 0) {
                log.info("reaped {} jobs of dead workers", n);
            }
        } catch (RuntimeException e) {
            log.warn("reaper failed: {}", e.getClass().getName());
        }
    }

    @Override
    public void stop(Runnable callback) {
        if (!running) {
            callback.run();
            return;
        }
        beginStop();
        Thread drain = new Thread(() -> {
            try {
                drain();
            } finally {
                callback.run();
            }
        }, "privmat-worker-shutdown");
        drain.setDaemon(true);
        drain.start();
    }

    @Override
    public void stop() {
        if (running) {
            beginStop();
            drain();
        }
    }

    private void beginStop() {
        running = false;
        executor.beginShutdown();
        wakeups.signal();
        workers.shutdown();
        scheduler.shutdownNow();
        log.info("{} stopping: nothing more is claimed; {} running job(s) get up to {}", workerId, active.size(),
                settings.shutdownGrace());
    }

    /** Waits for running jobs (their leases still renewed), then gives up the rest; stops heartbeats last. */
    private void drain() {
        try {
            if (!workers.awaitTermination(settings.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS)) {
                for (UUID id : Set.copyOf(active)) {
                    try {
                        executor.abandon(id, workerId);
                    } catch (RuntimeException e) {
                        log.warn("job {} could not be given up cleanly ({}); the reaper will", id, e.getClass().getName());
                    }
                }
                workers.shutdownNow();
                if (!workers.awaitTermination(5, TimeUnit.SECONDS)) {
                    log.warn("{}: worker threads still busy after the shutdown grace", workerId);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            workers.shutdownNow();
        } finally {
            heartbeats.shutdownNow();
            log.info("{} stopped", workerId);
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        // With the web server's graceful shutdown (readiness is REFUSING before either), so that jobs
        // and in-flight requests drain at the same time; the pools and the database close later.
        return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE;
    }
}
