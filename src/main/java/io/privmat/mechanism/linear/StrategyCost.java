package io.privmat.mechanism.linear;

import io.privmat.mechanism.catalog.ComputeBudget;

/**
 * What a strategy computation costs, from public sizes only (the workload's shape and number of
 * queries, and the options), before anything is queued: floating-point operations and memory. The
 * counts are the optimisers' own bookkeeping — {@link ProductOptimizer} stops on them — not
 * measurements, and are upper bounds up to the constants below (calibrated against the times and
 * peak heaps in docs/accuracy/linear-queries.md).
 *
 * <ul>
 *   <li>OPTIMIZED/CONVEX: per iteration on an optimised attribute of n values, one symmetric
 *       eigendecomposition (about 9n³ with vectors) and O(n²) besides; per factor solve, building
 *       the factor (2n³). At most {@code maxIterations} per solve, one solve per optimised attribute
 *       per sweep, {@code maxSweeps} sweeps (one for a single optimised attribute). With a budget,
 *       the optimiser stops before an iteration that would exceed it; its smallest useful run is
 *       one sweep of {@value #MINIMUM_ITERATIONS} iterations per optimised attribute.</li>
 *   <li>OPTIMIZED/P_IDENTITY: per restart and L-BFGS iteration at most 40 evaluations of
 *       2pn² + 8p²n + p³ (not capped by a budget; only estimated).</li>
 *   <li>the Low-Rank factorisation: an n × n eigendecomposition, then per outer iteration about
 *       40r²n + 10r³ with r = ⌈rankFactor·min(m, n)⌉ (rank(W) ≤ min(m, n) is all that is known
 *       before computing it); not capped: all or nothing.</li>
 * </ul>
 * Memory: for CONVEX nine n_max² doubles of working space (the eigendecomposition's input, output
 * and workspace, the best point so far) plus four n_i² per attribute (factor, inverse Gram,
 * covariance, dense Gram factor), the Gram's terms, and a CUSTOM matrix itself; for LOW_RANK four n²
 * and eight r·n doubles and the matrix.
 *
 * @param flops operations the computation may use (with a budget: at most the budget)
 * @param minimumFlops the smallest useful run: what a budget must allow for it to be accepted
 * @param stepFlops the largest single step between two cancellation checkpoints
 * @param bytes peak memory, estimated
 */
public record StrategyCost(double flops, double minimumFlops, double stepFlops, long bytes) {

    /** Iterations of each optimised attribute's first solve that a CONVEX budget must allow. */
    public static final int MINIMUM_ITERATIONS = 8;

    /** CONVEX: one iteration on an attribute of n values (eigendecomposition and the O(n²) around it). */
    static double convexIteration(int n) {
        double d = n;
        return 9 * d * d * d + 8 * d * d;
    }

    /** CONVEX: building the factor and its inverse Gram from the best iteration. */
    static double convexBuild(int n) {
        double d = n;
        return 2 * d * d * d + 8 * d * d;
    }

    /** The attribute sizes the optimiser optimises over: the domain's, or [n] for a CUSTOM matrix. */
    static int[] shape(Workload w) {
        return w instanceof DenseWorkload ? new int[] {w.cells()} : w.domain().sizes();
    }

    private static boolean optimised(int n) {
        return n > 1 && n <= LinearLimits.MAX_OPTIMIZED_ATTRIBUTE;
    }

    /** The number of Kronecker terms of the workload's Gram (one per box of a RANGES workload). */
    private static long terms(Workload w) {
        return w instanceof RangeWorkload ? w.queries() : w instanceof DenseWorkload ? 1 : 64;
    }

    /** The cost of an optimised strategy for this workload with these options (and their work cap). */
    public static StrategyCost optimized(Workload w, OptimizerOptions options) {
        int[] shape = shape(w);
        long terms = terms(w);
        int k = shape.length;
        int count = 0;
        int largest = 1;
        double sweep = 0;
        double minimum = 0;
        double step = 0;
        long squares = 0;
        for (int n : shape) {
            squares += (long) n * n;
            if (!optimised(n)) {
                continue;
            }
            count++;
            largest = Math.max(largest, n);
            double overhead = 4.0 * n * n + 10.0 * terms * k;
            if (options.template() == OptimizerOptions.Template.CONVEX) {
                sweep += options.maxIterations() * convexIteration(n) + convexBuild(n) + overhead;
                minimum += Math.min(MINIMUM_ITERATIONS, options.maxIterations()) * convexIteration(n)
                        + convexBuild(n) + overhead;
                step = Math.max(step, Math.max(convexIteration(n), convexBuild(n)));
            } else {
                double p = options.p() > 0 ? options.p() : Math.max(1, n / 16);
                double evaluation = 2 * p * n * n + 8 * p * p * n + p * p * p;
                double solve = options.restarts() * options.maxIterations() * 40 * evaluation + overhead;
                sweep += solve;
                minimum += solve;
                step = Math.max(step, 40 * evaluation);
            }
        }
        int sweeps = count <= 1 ? 1 : options.maxSweeps();
        double worst = sweeps * sweep;
        if (options.template() == OptimizerOptions.Template.P_IDENTITY) {
            minimum = worst;
        }
        double flops = Math.min(worst, options.maxWork());
        long bytes = 8L * (9L * largest * largest + 4 * squares) + terms * (16 + 32L * k) + matrixBytes(w);
        return new StrategyCost(flops, Math.min(minimum, worst), step, bytes);
    }

    /** The cost of the Low-Rank Mechanism's factorisation for this workload. */
    public static StrategyCost lowRank(Workload w, LowRankOptions options) {
        double n = w.cells();
        double r = Math.ceil(options.rankFactor() * Math.min(w.queries(), w.cells()));
        double eigen = 9 * n * n * n;
        double outer = 40 * r * r * n + 10 * r * r * r;
        double flops = eigen + options.maxIterations() * outer + 4 * n * n * r;
        long bytes = (long) (8 * (4 * n * n + 8 * r * n)) + matrixBytes(w);
        return new StrategyCost(flops, flops, Math.max(eigen, outer), bytes);
    }

    private static long matrixBytes(Workload w) {
        return w instanceof DenseWorkload ? 8L * w.queries() * w.cells() : 0;
    }

    /** Whether a budget allows this computation: its smallest useful run, and its memory. */
    public boolean fits(ComputeBudget budget) {
        return minimumFlops <= budget.maxFlops() && bytes <= budget.maxBytes();
    }
}
