package io.privmat.dataset;

import io.privmat.mechanism.catalog.RatingsSource;
import java.util.List;
import java.util.OptionalInt;
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

    /**
     * A RATINGS dataset's ratings as stored (raw values on the declared scale, not centred; the per-user
     * cap already applied): users in dense id order, {@code items()} the declared n. Each
     * {@code forEachUser} call is one streaming pass over the stored chunks, in its own read-only
     * transaction.
     */
    RatingsSource ratings(UUID datasetId);

    /** A RATINGS dataset's user labels in dense id order (for the owner only: they name the users). */
    List<String> ratingsUsers(UUID datasetId);

    /** The dense id of a RATINGS dataset's user label, or empty when no such user was uploaded. */
    OptionalInt ratingsUserIndex(UUID datasetId, String userLabel);

    /** The label of a RATINGS dataset's user with this dense id, if there is one. */
    default java.util.Optional<String> ratingsUserLabel(UUID datasetId, int userIndex) {
        List<String> users = ratingsUsers(datasetId);
        return userIndex >= 0 && userIndex < users.size() ? java.util.Optional.of(users.get(userIndex))
                : java.util.Optional.empty();
    }
}
