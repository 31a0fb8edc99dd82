package io.privmat.dataset;

import java.util.UUID;
import java.util.function.Consumer;

/**
 * Streaming access to a ready dataset's data, one stored chunk at a time (a few MiB), so that
 * mechanisms never need the whole matrix in memory. Chunks arrive in row (edge) order.
 */
public interface DatasetRows {

    /** Streams a matrix dataset's row chunks in order. */
    void forEachMatrixChunk(UUID datasetId, Consumer<MatrixChunk> consumer);

    /** Streams a graph dataset's edge chunks in order. */
    void forEachEdgeChunk(UUID datasetId, Consumer<EdgeChunk> consumer);

    /** A histogram dataset's counts, one per cell in row-major order (first attribute slowest). */
    double[] histogramCounts(UUID datasetId);
}
