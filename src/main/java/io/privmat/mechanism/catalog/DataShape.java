package io.privmat.mechanism.catalog;

/** The kind of dataset a mechanism reads. */
public enum DataShape {
    /** Rows of d values, each of L2 norm at most the public bound B; a row is the privacy unit. */
    MATRIX,
    /** An undirected graph with edge weights in [0, 1]; an edge is the privacy unit. */
    GRAPH,
    /**
     * Counts of records over the cells of a public product domain ({@link HistogramDomain}); one
     * record (adding 1 to one cell) is the privacy unit.
     */
    HISTOGRAM,
    /**
     * A stream of rows of d values (norm ≤ B), or of weighted edge events on a declared vertex set,
     * grouped into public blocks ({@link StreamLayout}); one row or one edge event is the privacy
     * unit. Rows are never stored: only the open block's exact Gram and the mechanisms' state are.
     */
    STREAM,
    /**
     * A sparse users × items ratings matrix with its observed set Ω, over a public item universe and
     * rating range ({@link RatingsFacts}); one user (all of their ratings) is the privacy unit, or one
     * rating under the RATING relation.
     */
    RATINGS
}
