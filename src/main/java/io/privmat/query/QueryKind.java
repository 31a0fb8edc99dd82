package io.privmat.query;

import java.util.List;

/** The catalogue of query kinds and the mechanisms each accepts. */
enum QueryKind {
    /** Noisy per-column sums Σᵢ xᵢ of a matrix (the cheap end-to-end query). */
    COLUMN_SUMS(List.of("GAUSSIAN", "LAPLACE")),
    /** A private second-moment (or, with params.center, scatter) matrix, d×d. */
    COVARIANCE(List.of("ANALYZE_GAUSS", "WISHART", "EIGEN_SAMPLING")),
    /** A private top-k principal subspace (params.k) and its eigenvalues. */
    PCA(List.of("ANALYZE_GAUSS", "WISHART", "EIGEN_SAMPLING")),
    /** A private sketch released once; directional variances or cuts are then answered for free. */
    SKETCH(List.of("JL", "WISHART")),
    /** A private rank-k factorisation u·diag(s)·vᵀ of the rows (params.k; REPLACE_ONE only). */
    LOW_RANK(List.of("RANDOMIZED_RESPONSE", "HARDT_ROTH")),
    /** The private top-k right singular vectors v and singular values s (params.k). */
    TOP_SINGULAR_VECTORS(List.of("RANDOMIZED_RESPONSE", "HARDT_ROTH", "NOISY_POWER", "PRIVATE_OJA",
            "ORBIT_SAMPLING"));

    final List<String> mechanisms;

    QueryKind(List<String> mechanisms) {
        this.mechanisms = mechanisms;
    }
}
