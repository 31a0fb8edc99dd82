package io.privmat.mechanism.linear;

/**
 * Public metadata of a strategy: where it came from and how good it is per unit of noise.
 *
 * @param workloadHash the {@link Workload#hash()} it was built for
 * @param method e.g. IDENTITY, HIERARCHICAL, OPTIMIZED/CONVEX, OPTIMIZED/P_IDENTITY, LOW_RANK
 * @param parameters canonical text of the options it was built with (part of the cache key)
 * @param objective expected total squared error E‖Wx̂ − Wx‖² at noise of variance 1 per unit of
 *     sensitivity (L2 for Gaussian strategies, L1 Laplace scale b = Δ₁ for Laplace ones: then
 *     variance 2b² is folded in) under ADD_REMOVE
 * @param lowerBound a certified lower bound on that objective over every strategy of its kind, or
 *     NaN (OPTIMIZED on one factor: the Lagrange dual value; see docs/mechanisms/linear-queries.md)
 * @param iterations optimiser iterations (0 for fixed strategies)
 * @param converged whether the optimiser met its tolerance (false: stopped at its iteration cap)
 */
public record StrategyInfo(String workloadHash, String method, String parameters, double objective, double lowerBound,
        int iterations, boolean converged) {}
