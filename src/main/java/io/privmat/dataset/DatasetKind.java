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
    STREAM,
    /**
     * A matrix whose rows stay where the owner keeps them (Parquet or CSV read by an engine such as
     * Apache Spark, {@link ExternalSchema}); a row, clipped to the public L2 bound, is the privacy
     * unit. Queried like a MATRIX; privmat never copies the rows (docs/scale-out.md).
     */
    EXTERNAL,
    /**
     * A sparse users × items ratings matrix with its observed set Ω kept (a missing rating is absent,
     * not zero), uploaded as (user, item, rating) triples against a public item universe, rating range
     * and per-user cap declared at creation ({@link RatingsSchema}). One user's ratings (USER) or one
     * rating (RATING) is the privacy unit (docs/ratings.md).
     */
    RATINGS
}
