package io.privmat.mechanism.catalog;

/** The kind of dataset a mechanism reads. */
public enum DataShape {
    /** Rows of d values, each of L2 norm at most the public bound B; a row is the privacy unit. */
    MATRIX,
    /** An undirected graph with edge weights in [0, 1]; an edge is the privacy unit. */
    GRAPH
}
