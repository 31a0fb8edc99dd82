package io.privmat.mechanism.catalog;

/**
 * How a mechanism reads the dataset: the exact, clipped statistics of {@link Input}. Implemented by
 * the service over the stored chunks (reporting job progress from public values only) and by tests
 * over small in-memory matrices. A mechanism calls only what its declared input needs.
 */
public interface DataAccess {

    /** Σᵢ xᵢ, compensated summation, one pass. */
    double[] columnSums();

    /** XᵀX (row-major d × d), and Σᵢ xᵢ in the same pass when {@code withSums}. */
    Gram gram(boolean withSums);

    /** The rows, for a fixed public number of passes. */
    RowStream rows(int passes);

    /**
     * Whether {@link #rows(int)} keeps the clean rows in memory between its passes when asked for
     * {@code passes}: decided from public values only (the public row count, d, the engine's
     * memory), never from the data. A mechanism that would read the rows twice only to replay its
     * noise may then read once and hold its noisy rows instead: the same memory
     * (docs/mechanisms/low-rank.md, "Randomized response").
     */
    default boolean holdsRows(int passes) {
        return false;
    }

    /**
     * Y = XᵀX·V for a d × k V (the power methods' streamed statistic when d exceeds the Gram limit),
     * one pass over the rows per application, at most {@code passes} applications. By default
     * streamed from {@link #rows(int)}; an engine that holds the rows elsewhere runs each
     * application where they are, sending only V (public: a function of earlier noisy releases).
     */
    default GramOperator gramOperator(int d, int passes) {
        return GramOperator.ofRows(rows(passes), d);
    }

    /** The edges of a graph, one pass. */
    EdgeSource edges();

    /** A histogram's counts, one per cell (row-major over its domain), one pass. */
    default double[] histogram() {
        throw new UnsupportedOperationException("this data holds no histogram");
    }

    /** A ratings dataset's users, one pass per {@code forEachUser}. */
    default RatingsSource ratings() {
        throw new UnsupportedOperationException("this data holds no ratings");
    }

    /** XᵀX and optionally the column sums from the same pass. */
    record Gram(double[] gram, double[] sums) {}
}
