package io.privmat.mechanism.catalog;

import io.privmat.mechanism.lowrank.RowStream;
import io.privmat.mechanism.sketch.JlGraphSketch;

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

    /** The edges of a graph, one pass. */
    JlGraphSketch.EdgeSource edges();

    /** A histogram's counts, one per cell (row-major over its domain), one pass. */
    default double[] histogram() {
        throw new UnsupportedOperationException("this data holds no histogram");
    }

    /** XᵀX and optionally the column sums from the same pass. */
    record Gram(double[] gram, double[] sums) {}
}
