package io.privmat.mechanism.catalog;

/** What an analyst asks for; each mechanism answers one or more kinds. */
public enum QueryKind {
    /** Noisy per-column sums Σᵢ xᵢ of a matrix. */
    COLUMN_SUMS,
    /** A private second-moment (or, centred, scatter) matrix, d × d. */
    COVARIANCE,
    /** A private top-k principal subspace and its eigenvalues. */
    PCA,
    /** A private sketch released once; directional variances or cuts are then answered for free. */
    SKETCH,
    /** A private rank-k factorisation u·diag(s)·vᵀ of the rows. */
    LOW_RANK,
    /** The private top-k right singular vectors v and singular values s. */
    TOP_SINGULAR_VECTORS,
    /** A private linear regression of one column on others, with an interval for every coefficient. */
    REGRESSION,
    /**
     * A batch of linear counting queries (a workload W) over a histogram's cells, answered through a
     * public strategy; the estimate x̂ answers further linear queries for free.
     */
    LINEAR_QUERIES,
    /**
     * Matrix completion on a ratings dataset under joint DP: analysts get the global release (item
     * factors and a spectrum); each user's completed row is computed from it and that user's own
     * ratings, and served to the data owner only.
     */
    COMPLETION
}
