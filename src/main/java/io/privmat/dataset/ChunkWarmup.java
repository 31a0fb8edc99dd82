package io.privmat.dataset;

import io.privmat.dataset.storage.ChunkCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The chunk decoding of the read path run on synthetic chunks, for the start-up warm-up
 * ({@code io.privmat.query.warmup.Warmup}): a job calls {@link ChunkCodec#decodeMatrix} and
 * {@link MatrixChunk#toDense} once per stored chunk (about a hundred times per job on a few hundred
 * MB), too few calls for the just-in-time compiler to compile them fully before the first jobs
 * (docs/benchmarks.md, "Issue 21's table"). Here they run on many small chunks in both layouts, a
 * fixed pattern with about half the entries zero; no dataset is read and nothing is stored.
 */
public final class ChunkWarmup {

    /** Enough calls for the optimising compiler (HotSpot's tier-4 thresholds count calls and loop turns). */
    static final int CALLS = 1_000;
    private static final int ROWS = 4;

    private ChunkWarmup() {}

    /**
     * Encodes, decodes, densifies and visits {@link #CALLS} synthetic chunks of each layout with
     * {@code cols} columns; returns a sum of what was decoded (so that nothing is optimised away).
     */
    public static double run(int cols) {
        int count = ROWS * cols;
        double[] pattern = new double[count];
        for (int i = 0; i < count; i++) {
            pattern[i] = i % 2 == 0 ? 0 : (1 + i % 255) / 256.0;
        }
        long nnz = count / 2;
        ByteBuffer buffer = ByteBuffer.allocate(count * 8).order(ByteOrder.LITTLE_ENDIAN);
        byte[] sparse = copy(ChunkCodec.encodeSparse(pattern, ROWS, cols, nnz, buffer));
        byte[] dense = copy(ChunkCodec.encodeDense(pattern, count, buffer));
        double[] sum = {0};
        for (int call = 0; call < CALLS; call++) {
            for (MatrixChunk chunk : new MatrixChunk[] {
                    ChunkCodec.decodeMatrix(0, ROWS, cols, "SPARSE", nnz, sparse),
                    ChunkCodec.decodeMatrix(0, ROWS, cols, "DENSE", nnz, dense)}) {
                sum[0] += chunk.toDense()[count - 1];
                chunk.forEachEntry((row, col, value) -> sum[0] += value);
            }
        }
        return sum[0];
    }

    private static byte[] copy(ByteBuffer encoded) {
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        return bytes;
    }
}
