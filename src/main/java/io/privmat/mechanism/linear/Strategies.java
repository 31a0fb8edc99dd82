package io.privmat.mechanism.linear;

import io.privmat.mechanism.catalog.OptimizationControl;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds strategies from public inputs only. {@link #identity} and {@link #hierarchical} are
 * instant; {@link #optimized} and {@link #lowRank} are optimisations that a service runs as a job
 * (progress and cancellation through {@link OptimizationControl}) and caches under
 * {@link #cacheKey}. Each is a deterministic function of (workload, options).
 */
public final class Strategies {

    private Strategies() {}

    /** A = I. */
    public static ProductStrategy identity(Workload workload) {
        Domain d = workload.domain();
        List<Factor> factors = new ArrayList<>();
        for (int i = 0; i < d.attributes(); i++) {
            factors.add(new IdentityFactor(d.size(i)));
        }
        ProductStrategy s = new ProductStrategy("IDENTITY", factors, placeholder(workload, "IDENTITY"));
        return s.withInfo(new StrategyInfo(workload.hash(), "IDENTITY", "", totalVariance(workload, s), Double.NaN, 0,
                true));
    }

    /**
     * The hierarchical strategy: on every attribute the binary tree H₂ over the attribute padded to a
     * power of two (Hay et al. 2010), Kronecker product across attributes. Refused when its number
     * of rows (noise dimension) exceeds {@link LinearLimits#MAX_STRATEGY_ROWS}.
     */
    public static ProductStrategy hierarchical(Workload workload) {
        Domain d = workload.domain();
        List<Factor> factors = new ArrayList<>();
        long rows = 1;
        for (int i = 0; i < d.attributes(); i++) {
            TreeFactor f = new TreeFactor(d.size(i));
            factors.add(f);
            rows *= f.rows();
        }
        if (rows > LinearLimits.MAX_STRATEGY_ROWS) {
            throw LinearQueryException.tooLarge("workload", "the hierarchical strategy's number of rows", rows,
                    LinearLimits.MAX_STRATEGY_ROWS);
        }
        ProductStrategy s = new ProductStrategy("HIERARCHICAL", factors, placeholder(workload, "HIERARCHICAL"));
        return s.withInfo(new StrategyInfo(workload.hash(), "HIERARCHICAL", "", totalVariance(workload, s)
                * s.maxColumnL2() * s.maxColumnL2(), Double.NaN, 0, true));
    }

    /**
     * The strategy a stored estimate names by its method ({@link StrategyInfo#method()}) when it is
     * rebuilt from the cells alone, not stored: identity and hierarchical; empty for a method whose
     * strategy is stored under its key.
     */
    public static Optional<Strategy> rebuilt(String method, Workload cells) {
        return switch (method) {
            case "IDENTITY" -> Optional.of(identity(cells));
            case "HIERARCHICAL" -> Optional.of(hierarchical(cells));
            default -> Optional.empty();
        };
    }

    /** The optimised strategy (Gaussian matrix mechanism) for this workload. */
    public static ProductStrategy optimized(Workload workload, OptimizerOptions options, OptimizationControl control) {
        return ProductOptimizer.optimize(workload, options, control);
    }

    /** The Low-Rank Mechanism's factorisation for this workload. */
    public static LowRankStrategy lowRank(Workload workload, LowRankOptions options, OptimizationControl control) {
        return LowRankSolver.solve(workload, options, control);
    }

    /**
     * The cache key of a strategy: (what it is a function of, mechanism, canonical options) — the
     * Gram's hash for a strategy shared by Gram ({@link Workload#gramHash()}: workloads with the same
     * WᵀW share one strategy, as an optimised one), else the workload's own ({@link Workload#hash()}:
     * the Low-Rank factorisation W ≈ BL depends on W itself).
     */
    public static String cacheKey(Workload workload, LinearMechanism mechanism, String canonicalOptions) {
        return mechanism.strategyBuiltFor(workload) + "/" + mechanism.name() + "/" + canonicalOptions;
    }

    private static StrategyInfo placeholder(Workload workload, String method) {
        return new StrategyInfo(workload.hash(), method, "", Double.NaN, Double.NaN, 0, true);
    }

    /** Σ_q Var(w_qᵀx̂) at unit noise variance: tr(WᵀW·Cov(x̂)) per unit variance. */
    static double totalVariance(Workload workload, Strategy strategy) {
        double[] v = workload.variances(strategy.covariance(1, workload.domain()));
        double total = 0;
        for (double x : v) {
            total += x;
        }
        return total;
    }
}
