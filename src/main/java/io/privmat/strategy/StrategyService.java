package io.privmat.strategy;

import io.privmat.json.ProblemProperties;
import io.privmat.mechanism.linear.LinearQueries;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PublicArtifacts;
import io.privmat.mechanism.catalog.ComputeBudget;
import io.privmat.mechanism.linear.LinearQueryException;
import io.privmat.mechanism.catalog.OptimizationControl;
import io.privmat.mechanism.linear.Strategy;
import io.privmat.mechanism.linear.StrategyCodec;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.security.Caller;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;

/**
 * The strategy cache (docs/adr/0009-strategy-cache.md) and the scheduler of the free work that fills
 * it (docs/reliability.md, "Free work and storage"). A strategy is a deterministic function of a
 * public workload and public options, so computing it reads no data and costs no budget; it is
 * stored once in PostgreSQL (insert-if-absent: replicas computing the same key write the same bytes)
 * and kept in a bounded in-memory cache.
 *
 * <p>Free does not mean unbounded. Before anything is queued, the task's cost from public sizes is
 * checked against the budget ({@link #budget()}: {@code max-compute-time} at the reference rate, and
 * {@code max-memory}); an optimisation is capped at that budget's operations. Background
 * computations wait in a {@link FairQueue} (round robin between API keys, quotas per key and per
 * subject, 429 or 503 with {@code Retry-After} beyond) for {@code threads} daemon threads; each is
 * cancelled at its next checkpoint (one iteration) when it outlives {@code max-compute-time}
 * (CANCELLED, reason TIME_LIMIT) or the replica stops. A planning request whose strategy is missing
 * computes a small one on its own thread ({@link LinearQueries#INLINE_OPTIMIZED_MAX_ATTRIBUTE},
 * {@link LinearQueries#INLINE_LOW_RANK_MAX_CELLS}) within {@code inline-max-time} and the inline
 * limits, and otherwise queues it and is told 409 strategy-not-ready. A worker rebuilding a stored
 * plan waits for it (bounded) or computes it.
 */
@Service
public class StrategyService {

    private static final Logger log = LoggerFactory.getLogger(StrategyService.class);

    /** Where a strategy is. */
    public enum Status { PENDING, RUNNING, DONE, FAILED, CANCELLED }

    /** Why a computation did not finish. */
    public enum Reason {
        /** It outlived {@code privmat.strategies.max-compute-time}. */
        TIME_LIMIT,
        /** The replica ran out of memory while computing it. */
        MEMORY,
        /** The replica is stopping. */
        SHUTDOWN,
        /** The computation refused its input or failed. */
        ERROR
    }

    /**
     * A strategy's public state.
     *
     * @param info public facts: the task's (mechanism, workload and Gram hashes, kind, cells, queries,
     *     options, estimated seconds and bytes) and, once done, the strategy's (method, objective,
     *     lowerBound, iterations, converged, expectedRmsePerUnitNoise, computeMillis)
     * @param reason FAILED or CANCELLED: why
     */
    public record View(String id, String mechanism, Status status, double progress, StrategyDocument info,
            @Nullable String error, @Nullable Reason reason, @Nullable Instant createdAt, long bytes) {}

    /** What a task says of itself (to store its strategy again: {@link #keep}). */
    private record Facts(String cacheKey, String mechanism, StrategyDocument info) {}

    /** A computation that did not finish, remembered per replica. */
    private record Failure(Status status, Reason reason, String message, String mechanism,
            PublicArtifacts.TaskInfo info, Instant at) {}

    /** A background computation, waiting or running. */
    private static final class Running {
        final PublicArtifacts.StrategyTask task;
        final CompletableFuture<byte[]> result = new CompletableFuture<>();
        volatile Status status = Status.PENDING;
        volatile double progress;

        Running(PublicArtifacts.StrategyTask task) {
            this.task = task;
        }
    }

    private final StrategyRepository repository;
    private final JsonMapper json;
    private final Clock clock;
    private final StrategySettings settings;
    private final ComputeBudget budget;
    private final Object lock = new Object();
    private final FairQueue<Running> queue;
    private final List<Thread> threads = new ArrayList<>();
    private final Map<String, byte[]> cache = new LinkedHashMap<>(16, 0.75f, true);
    private long cached;
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    private final Map<String, Failure> failed = leastRecentlyUsed(256);
    /** Inline computations running, in all and per caller (guarded by {@link #lock}). */
    private int inline;
    private final Map<String, Integer> inlineByCaller = new HashMap<>();
    /** When this replica last recorded a use of a strategy (bounded; see {@link #touch}). */
    private final Map<String, Instant> touched = leastRecentlyUsed(4096);
    /** The facts of tasks resolved on this replica (bounded; guarded by {@link #lock}). */
    private final Map<String, Facts> tasks = leastRecentlyUsed(4096);
    private volatile boolean closing;

    /** A map in access order that drops its least recently used entry beyond {@code max} (not thread-safe). */
    private static <V> Map<String, V> leastRecentlyUsed(int max) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > max;
            }
        };
    }

    StrategyService(StrategyRepository repository, JsonMapper json, Clock clock, StrategySettings settings) {
        this.repository = repository;
        this.json = json;
        this.clock = clock;
        this.settings = settings;
        // The operations a computation can do within its wall-clock limit while it runs cpu-share of the time.
        this.budget = new ComputeBudget(settings.maxComputeTime().toMillis() / 1000.0 * settings.cpuShare()
                * settings.referenceRate(), settings.memoryLimit(), settings.cpuShare() * settings.referenceRate());
        this.queue = new FairQueue<>(new FairQueue.Limits(settings.queue(), settings.maxQueuedPerCaller(),
                settings.maxQueuedPerTenant(), settings.maxRunningPerCaller(), settings.maxRunningPerTenant()));
        for (int i = 0; i < settings.threads(); i++) {
            Thread t = new Thread(this::work, "strategy-optimiser-" + i);
            t.setDaemon(true);
            t.setPriority(Thread.NORM_PRIORITY - 1);
            threads.add(t);
            t.start();
        }
    }

    /** What one computation may use: {@code max-compute-time} at the reference rate, and {@code max-memory}. */
    public ComputeBudget budget() {
        return budget;
    }

    /**
     * The encoded strategy of a task: from memory, from PostgreSQL, or computed now when the task is
     * small (within the inline limits) or {@code caller} is null (a worker rebuilding a stored plan);
     * otherwise its computation is queued for the caller.
     *
     * @param caller who asks (its key and subject bear the quotas), or null for a worker
     * @throws PlanningException STRATEGY_NOT_READY (409) while it is computed, STRATEGY_FAILED (422)
     *     when its computation failed or was cancelled
     * @throws PrivmatException 429 or 503 (with Retry-After) when it cannot be queued
     */
    public byte[] resolve(PublicArtifacts.StrategyTask task, @Nullable Caller caller) {
        synchronized (lock) {
            tasks.put(task.id(), new Facts(task.cacheKey(), task.mechanism(), StrategyDocument.of(task.info())));
        }
        byte[] hit = stored(task.id());
        if (hit != null) {
            return hit;
        }
        boolean worker = caller == null;
        Failure failure = worker ? null : failure(task.id());
        if (failure != null) {
            throw failedProblem(task.id(), failure);
        }
        Running r = running.get(task.id());
        if (worker) {
            return forWorker(task, r);
        }
        if (r != null) {
            throw notReady(r);
        }
        if (task.small() && enterInline(caller)) {
            try {
                return computeHere(task, settings.inlineMaxTime().toNanos());
            } catch (CancellationException tooLong) {
                if (closing) {
                    throw shuttingDown(task.id());
                }
                log.info("strategy {} did not finish within the inline limit {}; queued", task.id(),
                        settings.inlineMaxTime());
            } finally {
                leaveInline(caller);
            }
        }
        throw notReady(submit(task, caller));
    }

    /**
     * Starts computing a task in the background unless it is done or under way (a failed one, or one
     * cancelled for a reason other than its time limit, is tried again), and returns its state.
     *
     * @throws PrivmatException 429 or 503 (with Retry-After) when it cannot be queued
     */
    public View start(PublicArtifacts.StrategyTask task, Caller caller) {
        failure(task.id()); // forgets a TIME_LIMIT verdict older than time-limit-retry
        Optional<View> known = view(task.id());
        if (known.isPresent() && !(known.get().status() == Status.FAILED
                || known.get().status() == Status.CANCELLED && known.get().reason() != Reason.TIME_LIMIT)) {
            return known.get();
        }
        synchronized (lock) {
            failed.remove(task.id());
        }
        submit(task, caller);
        return view(task.id()).orElseThrow();
    }

    /**
     * The failure remembered for a strategy, if any; a TIME_LIMIT cancellation older than
     * {@code time-limit-retry} is forgotten (the next request queues it again: a loaded replica, not
     * the task, may have been too slow).
     */
    private @Nullable Failure failure(String id) {
        synchronized (lock) {
            Failure f = failed.get(id);
            if (f != null && f.reason() == Reason.TIME_LIMIT
                    && !f.at().plus(settings.timeLimitRetry()).isAfter(clock.instant())) {
                failed.remove(id);
                return null;
            }
            return f;
        }
    }

    /** A strategy's state, if this replica or the database knows it. */
    public Optional<View> view(String id) {
        Optional<StrategyRepository.Row> row = repository.find(id);
        if (row.isPresent()) {
            StrategyRepository.Row s = row.get();
            return Optional.of(new View(s.id(), s.mechanism(), Status.DONE, 1,
                    json.readValue(s.infoJson(), StrategyDocument.class), null, null, s.createdAt(), s.bytes()));
        }
        Running r = running.get(id);
        if (r != null) {
            return Optional.of(new View(id, r.task.mechanism(), r.status, r.progress,
                    StrategyDocument.of(r.task.info()), null, null, null, 0));
        }
        Failure failure = failure(id);
        return failure == null ? Optional.empty() : Optional.of(new View(id, failure.mechanism(), failure.status(), 0,
                StrategyDocument.of(failure.info()), failure.message(), failure.reason(), null, 0));
    }

    /** A stored strategy, decoded (for rebuilding an estimate's error model). */
    public Optional<Strategy> load(String id) {
        byte[] b = stored(id);
        return b == null ? Optional.empty() : Optional.of(StrategyCodec.decode(b));
    }

    // ---- the queue ----

    private Running submit(PublicArtifacts.StrategyTask task, Caller caller) {
        synchronized (lock) {
            Running known = running.get(task.id());
            if (known != null) {
                return known; // the same work, already queued or running for someone: shared
            }
            if (closing) {
                throw shuttingDown(task.id());
            }
            String key = caller.keyId().toString();
            FairQueue.Refusal refusal = queue.refusal(key, caller.subject());
            if (refusal != null) {
                throw refused(refusal, task.id());
            }
            Running fresh = new Running(task);
            running.put(task.id(), fresh);
            queue.add(new FairQueue.Entry<>(key, caller.subject(), fresh));
            lock.notifyAll();
            return fresh;
        }
    }

    private PrivmatException refused(FairQueue.Refusal refusal, String id) {
        ProblemProperties p = ProblemProperties.of("strategy", "/v1/strategies/" + id, "retryAfterSeconds",
                Math.max(1, settings.retryAfter().toSeconds()));
        return switch (refusal) {
            case FULL -> new PrivmatException(ProblemType.SERVICE_UNAVAILABLE, "Too many strategies are waiting to be "
                    + "computed on this replica (privmat.strategies.queue: " + settings.queue() + "); try again "
                    + "later.", p);
            case CALLER -> new PrivmatException(ProblemType.COMPUTATION_QUOTA_EXCEEDED, "This API key already has "
                    + settings.maxQueuedPerCaller() + " strategies waiting to be computed "
                    + "(privmat.strategies.max-queued-per-caller); ask again when one is done.", p);
            case TENANT -> new PrivmatException(ProblemType.COMPUTATION_QUOTA_EXCEEDED, "The keys of this subject "
                    + "already have " + settings.maxQueuedPerTenant() + " strategies waiting to be computed "
                    + "(privmat.strategies.max-queued-per-tenant); ask again when one is done.", p);
        };
    }

    /** A background thread: runs what the fair queue hands out until the replica stops. */
    private void work() {
        while (!closing) {
            FairQueue.Entry<Running> entry;
            synchronized (lock) {
                entry = queue.next();
                if (entry == null) {
                    try {
                        lock.wait(1000);
                    } catch (InterruptedException e) {
                        if (closing) {
                            return;
                        }
                    }
                    continue;
                }
            }
            try {
                run(entry.item());
            } finally {
                synchronized (lock) {
                    queue.done(entry);
                    lock.notifyAll();
                }
            }
        }
    }

    private void run(Running r) {
        r.status = Status.RUNNING;
        long deadline = System.nanoTime() + settings.maxComputeTime().toNanos();
        Throttle throttle = new Throttle(settings.cpuShare());
        try {
            byte[] bytes = compute(r.task, new OptimizationControl(p -> {
                r.progress = p;
                throttle.pause();
            }, () -> closing || System.nanoTime() - deadline > 0));
            r.progress = 1;
            r.result.complete(bytes);
        } catch (CancellationException e) {
            Reason reason = closing ? Reason.SHUTDOWN : Reason.TIME_LIMIT;
            fail(r, Status.CANCELLED, reason, reason == Reason.SHUTDOWN ? "cancelled: the replica is stopping"
                    : "cancelled: it did not finish within the limit of " + settings.maxComputeTime().toSeconds()
                            + " s per computation (privmat.strategies.max-compute-time)", e);
        } catch (OutOfMemoryError e) {
            fail(r, Status.FAILED, Reason.MEMORY, "the replica ran out of memory while computing it", e);
        } catch (RuntimeException e) {
            String message = e instanceof LinearQueryException l ? l.getMessage()
                    : e instanceof PlanningException p ? p.getMessage() : e.getClass().getSimpleName();
            fail(r, Status.FAILED, Reason.ERROR, message, e);
        } finally {
            running.remove(r.task.id(), r);
        }
    }

    private void fail(Running r, Status status, Reason reason, String message, Throwable cause) {
        synchronized (lock) {
            if (reason != Reason.SHUTDOWN) {
                failed.put(r.task.id(), new Failure(status, reason, message, r.task.mechanism(), r.task.info(),
                        clock.instant()));
            }
        }
        r.status = status;
        r.result.completeExceptionally(cause);
        log.info("strategy {} {} ({})", r.task.id(), status, reason);
    }

    /**
     * Keeps a background computation's running time within a share of the wall clock: at each
     * checkpoint it sleeps for the time it ran since the last one times (1/share − 1), at most 10 s,
     * so that requests and paid jobs keep most of the cores (docs/reliability.md, "Free work and
     * storage"). An interrupted sleep (the replica stopping) ends at once.
     */
    private static final class Throttle {
        private final double share;
        private long resumed = System.nanoTime();

        Throttle(double share) {
            this.share = share;
        }

        void pause() {
            if (share >= 1) {
                return;
            }
            long ran = System.nanoTime() - resumed;
            long nanos = Math.min((long) (ran * (1 / share - 1)), 10_000_000_000L);
            if (nanos > 0) {
                try {
                    Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // the next checkpoint cancels
                }
            }
            resumed = System.nanoTime();
        }
    }

    // ---- inline computations ----

    private boolean enterInline(Caller caller) {
        String key = caller.keyId().toString();
        synchronized (lock) {
            if (closing || inline >= settings.maxInline()
                    || inlineByCaller.getOrDefault(key, 0) >= settings.maxInlinePerCaller()) {
                return false;
            }
            inline++;
            inlineByCaller.merge(key, 1, Integer::sum);
            return true;
        }
    }

    private void leaveInline(Caller caller) {
        synchronized (lock) {
            inline--;
            inlineByCaller.merge(caller.keyId().toString(), -1, (a, b) -> a + b == 0 ? null : a + b);
        }
    }

    /** Computes on this thread within {@code limitNanos}, stopping when the replica stops. */
    private byte[] computeHere(PublicArtifacts.StrategyTask task, long limitNanos) {
        long deadline = System.nanoTime() + limitNanos;
        try {
            return compute(task, new OptimizationControl(p -> { }, () -> closing || System.nanoTime() - deadline > 0));
        } catch (LinearQueryException e) {
            throw LinearQueries.problem(e);
        }
    }

    /** Computes, stores (first writer wins) and caches; returns the stored bytes. */
    private byte[] compute(PublicArtifacts.StrategyTask task, OptimizationControl control) {
        long start = System.nanoTime();
        byte[] bytes = task.compute().apply(control);
        long millis = (System.nanoTime() - start) / 1_000_000;
        StrategyDocument doc = StrategyDocument.of(task.info()).computed(StrategyCodec.decode(bytes).info(),
                millis);
        Instant now = clock.instant();
        repository.insertIfAbsent(task.id(), task.cacheKey(), task.mechanism(), json.writeValueAsString(doc), bytes, now);
        byte[] stored = repository.codec(task.id()).orElse(bytes);
        remember(task.id(), stored);
        synchronized (lock) {
            touched.put(task.id(), now);
        }
        return stored;
    }

    /**
     * Makes sure that the strategy a release is about to name is stored, in the caller's transaction
     * (the release's): records a use and locks its row until that transaction ends, so that a pruning
     * pass waits and then sees the release; or, when a pass deleted it meanwhile (on any replica: this
     * replica's memory copy outlives another's deletes), stores it again from the strategy the job
     * measured with. Its bytes are the same: the encoding is lossless and the strategy a deterministic
     * function of the public workload and options.
     *
     * @param mechanism the release's mechanism (one that needs a public strategy)
     */
    public void keep(String id, String mechanism, Strategy strategy) {
        Instant now = clock.instant();
        synchronized (lock) {
            touched.put(id, now);
        }
        if (repository.lockAndTouch(id, now)) {
            return;
        }
        Facts facts;
        synchronized (lock) {
            facts = tasks.get(id);
        }
        StrategyDocument taskInfo = facts != null ? facts.info() : StrategyDocument.mechanism(mechanism);
        byte[] bytes = StrategyCodec.encode(strategy);
        repository.insertLocked(id, facts != null ? facts.cacheKey() : "", facts != null ? facts.mechanism()
                : mechanism, json.writeValueAsString(taskInfo.computed(strategy.info(), null)), bytes, now);
        remember(id, bytes);
        log.info("strategy {} stored again for a release that names it (it had been pruned)", id);
    }

    /**
     * A worker's strategy: it waits for the computation under way, or computes it on its own thread.
     * A computation cancelled at its time limit (its own, or another caller's it waited for) is the
     * job's planned failure, STRATEGY_FAILED (before data access: refunded), not an escape that
     * leaves the job to the lease reaper; only the replica stopping still cancels (the job is then
     * handed back like any job a stopping replica held).
     */
    private byte[] forWorker(PublicArtifacts.StrategyTask task, @Nullable Running r) {
        try {
            return r != null ? join(r) : computeHere(task, settings.maxComputeTime().toNanos());
        } catch (CancellationException e) {
            if (closing) {
                throw e;
            }
            throw failedProblem(task.id(), new Failure(Status.CANCELLED, Reason.TIME_LIMIT, "cancelled: it did not "
                    + "finish within the limit of " + settings.maxComputeTime().toSeconds() + " s per computation "
                    + "(privmat.strategies.max-compute-time)", task.mechanism(), task.info(), clock.instant()));
        }
    }

    /** A worker waits for a queued or running computation, at most its time limit (then fails closed). */
    private byte[] join(Running r) {
        try {
            return r.result.get(settings.maxComputeTime().toMillis() + settings.inlineMaxTime().toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for strategy " + r.task.id());
        } catch (TimeoutException e) {
            throw failedProblem(r.task.id(), new Failure(Status.CANCELLED, Reason.TIME_LIMIT, "not computed within "
                    + "the time limit", r.task.mechanism(), r.task.info(), clock.instant()));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof LinearQueryException l) {
                throw LinearQueries.problem(l);
            }
            throw failedProblem(r.task.id(), new Failure(Status.FAILED, Reason.ERROR, cause == null ? "failed"
                    : cause.getClass().getSimpleName(), r.task.mechanism(), r.task.info(), clock.instant()));
        }
    }

    private static PlanningException notReady(Running r) {
        ProblemProperties p = ProblemProperties.of("strategyKey", r.task.id(), "strategy", "/v1/strategies/" + r.task.id())
                .with("status", r.status.name()).with("progress", r.progress);
        return new PlanningException(PlanningException.Reason.STRATEGY_NOT_READY, "The " + r.task.mechanism()
                + " strategy for this workload is being computed (from public values only; nothing was charged). "
                + "Follow its progress at /v1/strategies/" + r.task.id() + " and ask again when it is DONE.", p);
    }

    private static PlanningException failedProblem(String id, Failure failure) {
        ProblemProperties p = ProblemProperties.of("strategyKey", id, "strategy", "/v1/strategies/" + id)
                .with("status", failure.status().name()).with("reason", failure.reason().name());
        return new PlanningException(PlanningException.Reason.STRATEGY_FAILED, "The strategy " + id + " could not be "
                + "computed: " + failure.message(), p);
    }

    private PrivmatException shuttingDown(String id) {
        return new PrivmatException(ProblemType.SERVICE_UNAVAILABLE, "This replica is stopping; ask again.",
                Map.of("strategy", "/v1/strategies/" + id, "retryAfterSeconds",
                        Math.max(1, settings.retryAfter().toSeconds())));
    }

    // ---- the memory cache ----

    private byte @Nullable [] stored(String id) {
        byte[] hit;
        synchronized (cache) {
            hit = cache.get(id);
        }
        if (hit == null) {
            Optional<byte[]> fromDb = repository.codec(id);
            fromDb.ifPresent(b -> remember(id, b));
            hit = fromDb.orElse(null);
        }
        if (hit != null) {
            touch(id);
        }
        return hit;
    }

    /**
     * Records that a strategy was used (for pruning unused ones), at most once an hour per strategy and
     * replica; a failure to record it only makes it look older.
     */
    private void touch(String id) {
        Instant now = clock.instant();
        synchronized (lock) {
            Instant last = touched.get(id);
            if (last != null && last.isAfter(now.minusSeconds(3600))) {
                return;
            }
            touched.put(id, now);
        }
        try {
            repository.touch(id, now);
        } catch (DataAccessException e) {
            log.debug("strategy {}: use not recorded ({})", id, e.getClass().getSimpleName());
        }
    }

    private void remember(String id, byte[] bytes) {
        synchronized (cache) {
            if (bytes.length > settings.cacheBytes() || cache.containsKey(id)) {
                return;
            }
            Iterator<byte[]> it = cache.values().iterator();
            while (cached + bytes.length > settings.cacheBytes() && it.hasNext()) {
                cached -= it.next().length;
                it.remove();
            }
            cache.put(id, bytes);
            cached += bytes.length;
        }
    }

    /** Forgets strategies deleted from the store (the pruning job). */
    void forget(List<String> ids) {
        synchronized (cache) {
            for (String id : ids) {
                byte[] b = cache.remove(id);
                if (b != null) {
                    cached -= b.length;
                }
            }
        }
    }

    /** Strategies computing or queued on this replica (tests). */
    int inFlight() {
        return running.size();
    }

    /**
     * Stops: queued computations are cancelled at once, running ones at their next checkpoint (their
     * threads are daemons: the JVM does not wait for them), and waits end (a worker's join is bounded).
     */
    @PreDestroy
    void close() {
        List<FairQueue.Entry<Running>> dropped;
        synchronized (lock) {
            closing = true;
            dropped = queue.drain();
            lock.notifyAll();
        }
        for (FairQueue.Entry<Running> e : dropped) {
            running.remove(e.item().task.id(), e.item());
            e.item().status = Status.CANCELLED;
            e.item().result.completeExceptionally(new CancellationException("the replica is stopping"));
        }
        for (Thread t : threads) {
            t.interrupt();
        }
        log.info("strategy computations stopping: {} queued cancelled, running ones stop at their next checkpoint",
                dropped.size());
    }
}
