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
    WINDOW_LAPLACIAN
}
