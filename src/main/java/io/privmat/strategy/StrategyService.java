package io.privmat.strategy;

import io.privmat.mechanism.catalog.LinearQueries;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PublicArtifacts;
import io.privmat.mechanism.linear.LinearQueryException;
import io.privmat.mechanism.linear.OptimizationControl;
import io.privmat.mechanism.linear.Strategy;
import io.privmat.mechanism.linear.StrategyCodec;
import io.privmat.mechanism.linear.StrategyInfo;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;

/**
 * The strategy cache (docs/adr/0009-strategy-cache.md). A strategy is a deterministic function of a
 * public workload and public options, so computing it reads no data and costs no budget: it runs in a
 * small background executor, is stored once in PostgreSQL (insert-if-absent: replicas computing the
 * same key write the same bytes) and kept in a bounded in-memory cache. A planning request whose
 * strategy is missing computes it on its own thread when the work is below the public inline
 * threshold ({@link LinearQueries#INLINE_OPTIMIZED_MAX_ATTRIBUTE},
 * {@link LinearQueries#INLINE_LOW_RANK_MAX_CELLS}); otherwise it starts the computation and is told
 * 409 strategy-not-ready with the strategy's resource. A worker rebuilding a stored plan waits for
 * (or computes) the strategy instead.
 */
@Service
public class StrategyService {

    /** Where a strategy is. */
    public enum Status { PENDING, RUNNING, DONE, FAILED }

    /**
     * A strategy's public state.
     *
     * @param info public facts: the task's (mechanism, workload hash and kind, cells, queries, options)
     *     and, once done, the strategy's (method, objective, lowerBound, iterations, converged,
     *     expectedRmsePerUnitNoise, computeMillis)
     */
    public record View(String id, String mechanism, Status status, double progress, Map<String, Object> info,
            @Nullable String error, @Nullable Instant createdAt, long bytes) {}

    private final StrategyRepository repository;
    private final JsonMapper json;
    private final Clock clock;
    private final long cacheBytes;
    private final ThreadPoolExecutor executor;
    private final Map<String, byte[]> cache = new LinkedHashMap<>(16, 0.75f, true);
    private long cached;
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    private final Map<String, String> failed = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > 256;
        }
    };
    private volatile boolean closing;

    /** A computation in progress. */
    private static final class Running {
        final PublicArtifacts.StrategyTask task;
        final CompletableFuture<byte[]> result = new CompletableFuture<>();
        volatile Status status = Status.PENDING;
        volatile double progress;

        Running(PublicArtifacts.StrategyTask task) {
            this.task = task;
        }
    }

    StrategyService(StrategyRepository repository, JsonMapper json, Clock clock,
            @Value("${privmat.strategies.cache-bytes:268435456}") long cacheBytes,
            @Value("${privmat.strategies.threads:1}") int threads,
            @Value("${privmat.strategies.queue:16}") int queue) {
        this.repository = repository;
        this.json = json;
        this.clock = clock;
        this.cacheBytes = cacheBytes;
        this.executor = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.MINUTES, new ArrayBlockingQueue<>(queue),
                r -> {
                    Thread t = new Thread(r, "strategy-optimiser");
                    t.setDaemon(true);
                    t.setPriority(Thread.NORM_PRIORITY - 1);
                    return t;
                });
        executor.allowCoreThreadTimeOut(true);
    }

    /**
     * The encoded strategy of a task: from memory, from PostgreSQL, or computed now when the task is
     * small or {@code wait} (a worker rebuilding a stored plan); otherwise its computation is started
     * in the background.
     *
     * @throws PlanningException STRATEGY_NOT_READY (409) while it is computed, STRATEGY_FAILED (422)
     *     when its computation failed
     */
    public byte[] resolve(PublicArtifacts.StrategyTask task, boolean wait) {
        byte[] hit = stored(task.id());
        if (hit != null) {
            return hit;
        }
        String failure;
        synchronized (failed) {
            failure = failed.get(task.id());
        }
        if (failure != null && !wait) {
            throw failedProblem(task.id(), failure);
        }
        Running r = running.get(task.id());
        if (r != null) {
            if (wait) {
                return join(r);
            }
            throw notReady(r);
        }
        if (task.small() || wait) {
            return computeHere(task);
        }
        throw notReady(submit(task));
    }

    /**
     * Starts computing a task in the background unless it is done or under way (a failed one is tried
     * again), and returns its state.
     */
    public View start(PublicArtifacts.StrategyTask task) {
        Optional<View> known = view(task.id());
        if (known.isPresent() && known.get().status() != Status.FAILED) {
            return known.get();
        }
        synchronized (failed) {
            failed.remove(task.id());
        }
        submit(task);
        return view(task.id()).orElseThrow();
    }

    /** A strategy's state, if this replica or the database knows it. */
    public Optional<View> view(String id) {
        Optional<StrategyRepository.Row> row = repository.find(id);
        if (row.isPresent()) {
            StrategyRepository.Row s = row.get();
            @SuppressWarnings("unchecked")
            Map<String, Object> info = json.readValue(s.infoJson(), LinkedHashMap.class);
            return Optional.of(new View(s.id(), s.mechanism(), Status.DONE, 1, info, null, s.createdAt(), s.bytes()));
        }
        Running r = running.get(id);
        if (r != null) {
            return Optional.of(new View(id, r.task.mechanism(), r.status, r.progress, r.task.info(), null, null, 0));
        }
        String failure;
        synchronized (failed) {
            failure = failed.get(id);
        }
        return failure == null ? Optional.empty() : Optional.of(new View(id, "", Status.FAILED, 0, Map.of(), failure,
                null, 0));
    }

    /** A stored strategy, decoded (for rebuilding an estimate's error model). */
    public Optional<Strategy> load(String id) {
        byte[] b = stored(id);
        return b == null ? Optional.empty() : Optional.of(StrategyCodec.decode(b));
    }

    // ---- computing ----

    private Running submit(PublicArtifacts.StrategyTask task) {
        Running fresh = new Running(task);
        Running r = running.putIfAbsent(task.id(), fresh);
        if (r != null) {
            return r;
        }
        try {
            executor.execute(() -> run(fresh));
        } catch (RejectedExecutionException e) {
            running.remove(task.id(), fresh);
            throw new PrivmatException(ProblemType.SERVICE_UNAVAILABLE, "Too many strategies are being computed; "
                    + "try again later.", Map.of("strategy", "/v1/strategies/" + task.id()));
        }
        return fresh;
    }

    private void run(Running r) {
        r.status = Status.RUNNING;
        try {
            byte[] bytes = compute(r.task, new OptimizationControl(p -> r.progress = p, () -> closing));
            r.progress = 1;
            r.result.complete(bytes);
        } catch (CancellationException e) {
            r.result.completeExceptionally(e);
        } catch (RuntimeException | OutOfMemoryError e) {
            String message = e instanceof LinearQueryException l ? l.getMessage()
                    : e instanceof PlanningException p ? p.getMessage() : e.getClass().getSimpleName();
            synchronized (failed) {
                failed.put(r.task.id(), message);
            }
            r.status = Status.FAILED;
            r.result.completeExceptionally(e);
        } finally {
            running.remove(r.task.id(), r);
        }
    }

    private byte[] computeHere(PublicArtifacts.StrategyTask task) {
        try {
            return compute(task, OptimizationControl.none());
        } catch (LinearQueryException e) {
            throw LinearQueries.problem(e);
        }
    }

    /** Computes, stores (first writer wins) and caches; returns the stored bytes. */
    private byte[] compute(PublicArtifacts.StrategyTask task, OptimizationControl control) {
        long start = System.nanoTime();
        byte[] bytes = task.compute().apply(control);
        long millis = (System.nanoTime() - start) / 1_000_000;
        StrategyInfo info = StrategyCodec.decode(bytes).info();
        Map<String, Object> doc = new LinkedHashMap<>(task.info());
        doc.put("method", info.method());
        doc.put("parameters", info.parameters());
        doc.put("objective", finite(info.objective()));
        doc.put("lowerBound", finite(info.lowerBound()));
        doc.put("iterations", info.iterations());
        doc.put("converged", info.converged());
        Object queries = task.info().get("queries");
        if (queries instanceof Number m && Double.isFinite(info.objective())) {
            doc.put("expectedRmsePerUnitNoise", Math.sqrt(info.objective() / m.doubleValue()));
        }
        doc.put("computeMillis", millis);
        repository.insertIfAbsent(task.id(), task.cacheKey(), task.mechanism(), json.writeValueAsString(doc), bytes,
                clock.instant());
        byte[] stored = repository.codec(task.id()).orElse(bytes);
        remember(task.id(), stored);
        return stored;
    }

    private static @Nullable Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private byte[] join(Running r) {
        try {
            return r.result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for strategy " + r.task.id());
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof LinearQueryException l) {
                throw LinearQueries.problem(l);
            }
            throw failedProblem(r.task.id(), cause == null ? "failed" : cause.getClass().getSimpleName());
        }
    }

    private static PlanningException notReady(Running r) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("strategyKey", r.task.id());
        p.put("strategy", "/v1/strategies/" + r.task.id());
        p.put("status", r.status.name());
        p.put("progress", r.progress);
        return new PlanningException(PlanningException.Reason.STRATEGY_NOT_READY, "The " + r.task.mechanism()
                + " strategy for this workload is being computed (from public values only; nothing was charged). "
                + "Follow its progress at /v1/strategies/" + r.task.id() + " and ask again when it is DONE.", p);
    }

    private static PlanningException failedProblem(String id, String message) {
        return new PlanningException(PlanningException.Reason.STRATEGY_FAILED, "The strategy " + id + " could not be "
                + "computed: " + message, Map.of("strategyKey", id, "strategy", "/v1/strategies/" + id));
    }

    // ---- the memory cache ----

    private byte @Nullable [] stored(String id) {
        synchronized (cache) {
            byte[] hit = cache.get(id);
            if (hit != null) {
                return hit;
            }
        }
        Optional<byte[]> fromDb = repository.codec(id);
        fromDb.ifPresent(b -> remember(id, b));
        return fromDb.orElse(null);
    }

    private void remember(String id, byte[] bytes) {
        synchronized (cache) {
            if (bytes.length > cacheBytes || cache.containsKey(id)) {
                return;
            }
            Iterator<byte[]> it = cache.values().iterator();
            while (cached + bytes.length > cacheBytes && it.hasNext()) {
                cached -= it.next().length;
                it.remove();
            }
            cache.put(id, bytes);
            cached += bytes.length;
        }
    }

    /** Strategies computing or queued on this replica (tests). */
    int inFlight() {
        return running.size();
    }

    @PreDestroy
    void close() {
        closing = true;
        executor.shutdownNow();
    }
}
