package io.privmat.mechanism.linear;

import io.privmat.mechanism.catalog.WorkloadParam;

/**
 * Size limits for linear-query workloads and strategies, checked from public values before anything
 * is charged ({@link LinearQueryException.Reason#TOO_LARGE}). They bound memory (a few hundred MB
 * at most per request) and the time of a strategy optimisation.
 */
public final class LinearLimits {

    /** Cells of a histogram domain: n = Π sizes ≤ 2^20. */
    public static final int MAX_CELLS = WorkloadParam.MAX_CELLS;
    /** Attributes of a domain. */
    public static final int MAX_ATTRIBUTES = WorkloadParam.MAX_ATTRIBUTES;
    /** Queries in a workload (answers and standard deviations are m doubles each). */
    public static final int MAX_QUERIES = 1 << 24;
    /** Entries m·n of a CUSTOM (dense) workload matrix: 2^24 doubles = 128 MiB. */
    public static final long MAX_DENSE_ENTRIES = 1L << 24;
    /** Boxes in a RANGES workload. */
    public static final int MAX_RANGES = 1 << 20;
    /**
     * Largest n for anything held as a dense n × n matrix: WᵀW of a non-product workload, the
     * covariance of a flattened strategy, the Low-Rank Mechanism's Gram (4096² doubles = 128 MiB).
     */
    public static final int MAX_DENSE_CELLS = 4096;
    /**
     * Largest attribute the optimiser optimises (dense n_i × n_i factors, one eigendecomposition per
     * iteration); larger attributes get the hierarchical factor.
     */
    public static final int MAX_OPTIMIZED_ATTRIBUTE = 4096;
    /**
     * The Low-Rank Mechanism's solver costs about r²·n per gradient step (r ≈ 1.2·rank(W), up to 30
     * steps per alternation, 5 alternations per outer iteration, up to 100 outer iterations); it is
     * accepted when rank(W)·n ≤ 2^19 (a full-rank workload on up to 724 cells; all ranges on 512
     * cells took about 4 minutes on two shared cores, docs/accuracy/linear-queries.md) and n ≤
     * {@link #MAX_DENSE_CELLS}.
     */
    public static final long MAX_LOW_RANK_WORK = 1L << 19;
    /** Rows of a strategy (noise dimension), e.g. a product of padded trees: 2^24. */
    public static final long MAX_STRATEGY_ROWS = 1L << 24;

    private LinearLimits() {}
}
