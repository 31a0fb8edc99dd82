package io.privmat.release;

/** What a release holds. */
public enum ReleaseKind {
    /** A JL sketch of a graph's Laplacian (r × n): answers cut queries. */
    GRAPH_SKETCH,
    /** A JL sketch (r × d) or a Wishart-noised Gram (d × d) of a matrix: answers directional variance. */
    MATRIX_SKETCH,
    /** The noisy second-moment matrix of a COVARIANCE job: answers directional variance. */
    COVARIANCE,
    /**
     * A matrix stream's window estimate after one block (d × d), released by a standing
     * subscription: answers directional variance.
     */
    WINDOW_COVARIANCE,
    /** An edge stream's window Laplacian estimate after one block (n × n): answers cuts and directional variance. */
    WINDOW_LAPLACIAN,
    /**
     * The consistent estimate x̂ (1 × n) of a LINEAR_QUERIES job on a histogram: answers further linear
     * queries (boxes or dense vectors) with their standard deviations.
     */
    HISTOGRAM_ESTIMATE,
    /**
     * A COMPLETION job's global model (item directions or factors and the released spectrum): what
     * analysts get; the data owner's per-user predictions are computed from it and each user's own
     * ratings (docs/mechanisms/completion.md, "Delivery"). Answers no free query.
     */
    COMPLETION_MODEL
}
