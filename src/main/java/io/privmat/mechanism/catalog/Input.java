package io.privmat.mechanism.catalog;

/**
 * The exact, clipped statistic a mechanism consumes before adding noise. It says what the data
 * layer must compute (locally today; on another engine later) and how many passes over the rows.
 */
public enum Input {
    /** Σᵢ xᵢ, one pass. */
    COLUMN_SUMS,
    /** XᵀX, one pass (with Σᵢ xᵢ in the same pass when centring). */
    GRAM,
    /** The rows themselves, a fixed public number of passes. */
    ROW_STREAM,
    /** XᵀX when d is at most the Gram limit, else Xᵀ(X·V) streamed once per iteration. */
    GRAM_OR_ROW_STREAM,
    /** The edges of a graph, one pass. */
    EDGES,
    /** A histogram's counts vector, one pass. */
    HISTOGRAM,
    /**
     * The exact Gram of each completed block of a stream (the Laplacian for edge streams),
     * accumulated as rows are appended; rows are never stored or read again.
     */
    BLOCK_GRAMS,
    /** A ratings dataset's users one by one (items and ratings), read once into O(|Ω|) memory. */
    RATINGS
}
