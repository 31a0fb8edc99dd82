package io.privmat.mechanism.linear;

/**
 * Public metadata of a strategy: where it came from and how good it is per unit of noise.
 *
 * @param workloadHash what it was built for: the {@link Workload#hash()}, or for an optimised
 *     strategy the {@link Workload#gramHash()} (it depends on W only through WᵀW)
 * @param method e.g. IDENTITY, HIERARCHICAL, OPTIMIZED/CONVEX, OPTIMIZED/P_IDENTITY, LOW_RANK
 * @param parameters canonical text of the options it was built with (part of the cache key)
 * @param objective Δ²·Σ_q w_qᵀ(Cov(x̂)/v)w_q: the expected total squared error E‖Wx̂ − Wx‖² when
 *     every measurement has noise of variance v = Δ², Δ the strategy's own sensitivity under
 *     ADD_REMOVE (L1, Δ_L, for LOW_RANK; L2 otherwise). Multiply by 2/ε² for Laplace noise at ε, by
 *     (σ/Δ)² for Gaussian noise of standard deviation σ; √(objective/m) is HDMM's per-query RMSE
 *     for the L2 strategies. For LOW_RANK it is Δ_L²·tr(BᵀB) (bias excluded).
 * @param lowerBound a certified lower bound on that objective over every strategy of its kind, or
 *     NaN (an optimised strategy on one factor: the Lagrange dual value; see docs/mechanisms/linear-queries.md)
 * @param iterations optimiser iterations (0 for fixed strategies)
 * @param converged whether the optimiser met its tolerance (false: stopped at its iteration cap)
 */
public record StrategyInfo(String workloadHash, String method, String parameters, double objective, double lowerBound,
        int iterations, boolean converged) {}
