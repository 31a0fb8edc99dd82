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
    HISTOGRAM
}
