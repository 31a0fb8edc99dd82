package io.privmat.dataset.storage;

import io.privmat.dataset.EdgeChunk;
import io.privmat.dataset.MatrixChunk;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Binary layout of stored chunks, all little-endian:
 * DENSE — {@code rows × cols} float64, row-major;
 * SPARSE — per row an int32 count k, then k int32 column indices, then k float64 values (RATINGS
 * datasets use it for per-user records: a user's rated items and ratings, an explicit 0 included);
 * EDGES — per edge int32 u, int32 v, float64 weight.
 */
public final class ChunkCodec {

    private ChunkCodec() {}

    /** Encodes {@code values[0, count)} densely into {@code into} (cleared first), ready to read. */
    public static ByteBuffer encodeDense(double[] values, int count, ByteBuffer into) {
        into.clear().order(ByteOrder.LITTLE_ENDIAN);
        into.asDoubleBuffer().put(values, 0, count);
        return into.limit(count * 8);
    }

    /**
     * Encodes rows [0, rows) of a dense row-major buffer sparsely into {@code into} (cleared first),
     * ready to read; {@code nnz} is their non-zero count.
     */
    public static ByteBuffer encodeSparse(double[] dense, int rows, int cols, long nnz, ByteBuffer into) {
        ByteBuffer buffer = into.clear().order(ByteOrder.LITTLE_ENDIAN);
        buffer.limit(Math.toIntExact(rows * 4L + nnz * 12L));
        for (int r = 0; r < rows; r++) {
            int base = r * cols;
            int k = 0;
            for (int c = 0; c < cols; c++) {
                if (dense[base + c] != 0) {
                    k++;
                }
            }
            buffer.putInt(k);
            for (int c = 0; c < cols; c++) {
                if (dense[base + c] != 0) {
                    buffer.putInt(c);
                }
            }
            for (int c = 0; c < cols; c++) {
                if (dense[base + c] != 0) {
                    buffer.putDouble(dense[base + c]);
                }
            }
        }
        return buffer.flip();
    }

    /**
     * Encodes rows [0, rows) given in compressed-row form in the SPARSE layout, every stored entry kept
     * (zeros included: for ratings an observed 0 is not a missing entry).
     */
    public static byte[] encodeRows(int rows, int[] pointers, int[] indices, double[] values) {
        int nnz = pointers[rows] - pointers[0];
        ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(rows * 4L + nnz * 12L)).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < rows; r++) {
            buffer.putInt(pointers[r + 1] - pointers[r]);
            for (int k = pointers[r]; k < pointers[r + 1]; k++) {
                buffer.putInt(indices[k]);
            }
            for (int k = pointers[r]; k < pointers[r + 1]; k++) {
                buffer.putDouble(values[k]);
            }
        }
        return buffer.array();
    }

    public static byte[] encodeEdges(int[] u, int[] v, double[] w, int count) {
        ByteBuffer buffer = ByteBuffer.allocate(count * 16).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            buffer.putInt(u[i]).putInt(v[i]).putDouble(w[i]);
        }
        return buffer.array();
    }

    public static MatrixChunk decodeMatrix(long firstRow, int rows, int cols, String encoding, long nnz, byte[] payload) {
        ByteBuffer buffer = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        if ("DENSE".equals(encoding)) {
            double[] values = new double[rows * cols];
            buffer.asDoubleBuffer().get(values);
            return new MatrixChunk(firstRow, rows, cols, false, new int[0], new int[0], values);
        }
        int total = Math.toIntExact(nnz);
        int[] pointers = new int[rows + 1];
        int[] indices = new int[total];
        double[] values = new double[total];
        int at = 0;
        for (int r = 0; r < rows; r++) {
            int k = buffer.getInt();
            for (int j = 0; j < k; j++) {
                indices[at + j] = buffer.getInt();
            }
            for (int j = 0; j < k; j++) {
                values[at + j] = buffer.getDouble();
            }
            at += k;
            pointers[r + 1] = at;
        }
        return new MatrixChunk(firstRow, rows, cols, true, pointers, indices, values);
    }

    public static EdgeChunk decodeEdges(long firstEdge, int count, byte[] payload) {
        ByteBuffer buffer = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        int[] u = new int[count];
        int[] v = new int[count];
        double[] w = new double[count];
        for (int i = 0; i < count; i++) {
            u[i] = buffer.getInt();
            v[i] = buffer.getInt();
            w[i] = buffer.getDouble();
        }
        return new EdgeChunk(firstEdge, count, u, v, w);
    }
}
