package io.privmat.mechanism.catalog;

import org.jspecify.annotations.Nullable;

/**
 * A private rank-k factorisation A ≈ u·diag(s)·vᵀ.
 *
 * @param u m × k row-major (null when the mechanism releases only the right factors)
 * @param s k values, descending
 * @param v d × k row-major, orthonormal columns
 * @param facts public facts of the run (noise scales, error bounds) for the result
 */
public record Factorization(double @Nullable [] u, double[] s, double[] v, int m, int d, int k,
        Facts facts) {}
