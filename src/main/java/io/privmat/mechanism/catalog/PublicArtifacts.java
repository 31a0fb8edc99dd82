package io.privmat.mechanism.catalog;

import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Public artifacts a plan may need besides the request and the dataset's public facts, resolved by
 * the service and passed into planning so that the catalogue stays free of storage: a stored query
 * workload (LINEAR_QUERIES with a CUSTOM workload) and a cached, data-independent strategy
 * (the mechanisms that need one). Neither depends on any dataset, so resolving them reads no data
 * and spends no budget. {@link #inline()} resolves without a service: no stored workloads, and
 * strategies computed on the calling thread (tests, and the mechanism's own declarations).
 */
public interface PublicArtifacts {

    /**
     * A stored workload by its id.
     *
     * @throws PlanningException naming {@code params.workload.id} when there is no such workload
     */
    StoredWorkload workload(String id);

    /**
     * The encoded strategy of a task ({@link io.privmat.mechanism.linear.StrategyCodec}): cached, or
     * computed now.
     *
     * @throws PlanningException {@link PlanningException.Reason#STRATEGY_NOT_READY} when it is being
     *     computed in the background, {@link PlanningException.Reason#STRATEGY_FAILED} when it could
     *     not be computed
     */
    byte[] strategy(StrategyTask task);

    /**
     * What one strategy computation may use (the service's limits); a task over it is refused before
     * it is queued, and an optimisation is capped at its operations.
     */
    default ComputeBudget strategyBudget() {
        return ComputeBudget.UNLIMITED;
    }

    /**
     * A workload matrix uploaded once: rows × cols values, row-major, and the SHA-256 of its shape and
     * values (what a stored plan records, so that it never runs on other queries than it was charged for).
     */
    record StoredWorkload(String id, int rows, int cols, String sha256, double[] values) {}

    /**
     * A strategy computation: a deterministic function of public values only.
     *
     * @param id the public id of the strategy (hex SHA-256 of {@code cacheKey})
     * @param cacheKey (workload hash, mechanism, canonical options)
     * @param small whether the work is below the public inline threshold (a request may compute it
     *     on its own thread instead of answering 409)
     * @param info public facts about the task, shown while it is computed (mechanism, cells, queries,
     *     the estimate)
     * @param compute the computation, reporting progress and honouring cancellation; returns the
     *     encoded strategy
     */
    record StrategyTask(String id, String cacheKey, String mechanism, boolean small, TaskInfo info,
            Function<OptimizationControl, byte[]> compute) {}

    /**
     * Public facts about a strategy task, shown while it is computed and stored with its strategy.
     *
     * @param mechanism the mechanism that needs the strategy
     * @param gramHash a strategy keyed by the Gram (shared by the workloads of several callers): the
     *     SHA-256 of WᵀW; null otherwise
     * @param workloadHash a strategy keyed by its workload: the workload's hash; null when keyed by the
     *     Gram, which records nothing of the first caller's own workload
     * @param workloadKind a strategy keyed by its workload: the workload's kind; null when keyed by the Gram
     * @param cells the domain's cells n
     * @param queries the workload's queries m
     * @param options the canonical options (part of the cache key)
     * @param estimatedSeconds the computation's time at the reference rate; null when the budget it
     *     was built for has no operation limit
     * @param estimatedBytes the computation's peak memory
     */
    record TaskInfo(String mechanism, @Nullable String gramHash, @Nullable String workloadHash,
            @Nullable String workloadKind, int cells, int queries, String options, @Nullable Double estimatedSeconds,
            long estimatedBytes) {}

    /** No stored workloads; strategies computed on the calling thread. */
    static PublicArtifacts inline() {
        return new PublicArtifacts() {
            @Override
            public StoredWorkload workload(String id) {
                throw PlanningException.invalid("params.workload.id", "the id of a stored workload",
                        "stored workloads are resolved by the service; none is available here");
            }

            @Override
            public byte[] strategy(StrategyTask task) {
                return task.compute().apply(OptimizationControl.none());
            }
        };
    }
}
