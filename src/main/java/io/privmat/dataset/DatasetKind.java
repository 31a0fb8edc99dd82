package io.privmat.dataset;

/** What a dataset holds. */
public enum DatasetKind {
    /** A real matrix whose rows are the privacy units (rows are clipped to a public L2 bound). */
    MATRIX,
    /** An undirected weighted graph whose edges (weights in [0, 1]) are the privacy units. */
    GRAPH,
    /**
     * Counts of records over the product of public attribute domains declared at creation
     * ({@link HistogramSchema}); one record is the privacy unit.
     */
    HISTOGRAM,
    /**
     * A stream of rows (or weighted edge events on a declared vertex set) appended in batches and
     * never stored, with a public block structure declared at creation ({@link StreamSchema}); one
     * row or edge event is the privacy unit. Answered by standing subscriptions, not one-shot queries.
     */
    STREAM
}
