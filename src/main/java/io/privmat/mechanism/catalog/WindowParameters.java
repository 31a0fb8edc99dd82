package io.privmat.mechanism.catalog;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;

/**
 * The public parameters of a windowed stream, fixed at creation; every noise scale and the total
 * privacy cost are functions of these alone.
 *
 * @param d the row width (for a graph stream: the number of vertices, ids 0..d−1)
 * @param rowBound B, the public L2 bound of a row (rows above it are scaled down to it); for a
 *     graph stream √2, the norm of a unit-weight edge row √w·(e_u − e_v)
 * @param blockRule {@link BlockRule#ROW_COUNT} or {@link BlockRule#TIME}
 * @param blockRows b, the rows (edges) per block under ROW_COUNT; 0 under TIME
 * @param windowBlocks w = W/b, the number of completed blocks a window covers
 * @param horizonBlocks T, the most blocks that will be released (≥ 1; {@link Long#MAX_VALUE} for no
 *     limit). No mechanism's cost depends on it; it bounds the stream's lifetime
 * @param relation the neighbouring relation on one row (one edge event for graphs)
 * @param graph true for an edge stream (rows √w·(e_u − e_v), w ∈ [0, 1]; the Gram is the Laplacian)
 */
public record WindowParameters(int d, double rowBound, BlockRule blockRule, int blockRows, int windowBlocks,
        long horizonBlocks, NeighbouringRelation relation, boolean graph) {

    /** Largest d: the packed upper triangle d(d+1)/2 must fit one Java array. */
    public static final int MAX_D = 46_340;

    public WindowParameters {
        if (d < 1 || d > MAX_D) {
            throw new IllegalArgumentException("d must be in [1, " + MAX_D + "] but was " + d);
        }
        if (!(rowBound > 0) || !Double.isFinite(rowBound)) {
            throw new IllegalArgumentException("rowBound must be positive and finite but was " + rowBound);
        }
        if (graph && rowBound != Math.sqrt(2)) {
            throw new IllegalArgumentException("a graph stream's row bound is √2 (edge weights in [0, 1])");
        }
        if (blockRule == BlockRule.ROW_COUNT && blockRows < 1) {
            throw new IllegalArgumentException("blockRows must be >= 1 under ROW_COUNT but was " + blockRows);
        }
        if (blockRule == BlockRule.TIME && blockRows != 0) {
            throw new IllegalArgumentException("blockRows must be 0 under TIME (blocks are time intervals)");
        }
        if (windowBlocks < 1) {
            throw new IllegalArgumentException("windowBlocks must be >= 1 but was " + windowBlocks);
        }
        if (horizonBlocks < 1) {
            throw new IllegalArgumentException("horizonBlocks must be >= 1 but was " + horizonBlocks);
        }
    }

    /** A matrix stream whose blocks hold {@code blockRows} rows each; W = windowBlocks·blockRows rows. */
    public static WindowParameters rows(int d, double rowBound, int blockRows, int windowBlocks, long horizonBlocks,
            NeighbouringRelation relation) {
        return new WindowParameters(d, rowBound, BlockRule.ROW_COUNT, blockRows, windowBlocks, horizonBlocks,
                relation, false);
    }

    /** A matrix stream whose blocks are time intervals closed by the caller. */
    public static WindowParameters timed(int d, double rowBound, int windowBlocks, long horizonBlocks,
            NeighbouringRelation relation) {
        return new WindowParameters(d, rowBound, BlockRule.TIME, 0, windowBlocks, horizonBlocks, relation, false);
    }

    /** An edge stream on {@code vertices} vertices, one edge event per row. */
    public static WindowParameters graph(int vertices, BlockRule rule, int edgesPerBlock, int windowBlocks,
            long horizonBlocks, NeighbouringRelation relation) {
        return new WindowParameters(vertices, Math.sqrt(2), rule, edgesPerBlock, windowBlocks, horizonBlocks,
                relation, true);
    }

    /**
     * The Frobenius sensitivity of one block's Gram Σ aaᵀ to one row: B² (ADD_REMOVE) or √2·B²
     * (REPLACE_ONE) from {@link Sensitivities#gramFrobenius}; for graph streams one edge's Laplacian
     * term, 2 or 2√2 ({@link Sensitivities#edgeLaplacianFrobenius}). One row lies in one block.
     */
    public double blockSensitivity() {
        return graph ? Sensitivities.edgeLaplacianFrobenius(relation) : Sensitivities.gramFrobenius(rowBound, relation);
    }

    /** W = w·b rows in a full window under ROW_COUNT; −1 under TIME (the count is private). */
    public long windowRows() {
        return blockRule == BlockRule.ROW_COUNT ? (long) windowBlocks * blockRows : -1;
    }

    /** d(d+1)/2, the doubles in one packed symmetric matrix of the state. */
    public int packedSize() {
        return packedSize(d);
    }

    /** d(d+1)/2, the doubles of a packed symmetric d×d matrix (upper triangle, row by row). */
    public static int packedSize(int d) {
        long s = (long) d * (d + 1) / 2;
        if (s > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("d = " + d + " is too large for a packed matrix");
        }
        return (int) s;
    }
}
