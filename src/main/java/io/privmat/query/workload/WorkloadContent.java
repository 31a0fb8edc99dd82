package io.privmat.query.workload;

import io.privmat.hashing.Sha256;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;

/**
 * A workload matrix's stored form (migration V029): DENSE, rows × cols little-endian float64 in
 * row-major order, or SPARSE, one (int32 row, int32 col, float64 value) entry per non-zero in
 * row-major order, whichever is smaller; and its content address, the SHA-256 of its shape and its
 * dense values (what plans record). Decoding checks the address, so a stored row that no longer
 * holds the content it is named by is never used.
 */
record WorkloadContent(String sha256, int rows, int cols, String encoding, long nonZeros, byte[] payload) {

    static final String DENSE = "DENSE";
    static final String SPARSE = "SPARSE";
    private static final int SPARSE_ENTRY = 16;

    /** The smaller encoding of a rows × cols matrix (row-major values). */
    static WorkloadContent encode(int rows, int cols, double[] values) {
        long nnz = 0;
        for (double v : values) {
            nnz += Double.doubleToRawLongBits(v) != 0 ? 1 : 0; // -0.0 is stored: it is part of the hash
        }
        String sha = sha256(rows, cols, values);
        if (nnz * SPARSE_ENTRY < (long) values.length * Double.BYTES) {
            ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(nnz * SPARSE_ENTRY)).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < values.length; i++) {
                if (Double.doubleToRawLongBits(values[i]) != 0) {
                    b.putInt(i / cols).putInt(i % cols).putDouble(values[i]);
                }
            }
            return new WorkloadContent(sha, rows, cols, SPARSE, nnz, b.array());
        }
        ByteBuffer b = ByteBuffer.allocate(values.length * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.asDoubleBuffer().put(values);
        return new WorkloadContent(sha, rows, cols, DENSE, values.length, b.array());
    }

    /**
     * The dense values, row-major.
     *
     * @throws IllegalStateException when the payload does not decode to the content its SHA-256 names
     */
    double[] values() {
        double[] out = new double[Math.multiplyExact(rows, cols)];
        ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        if (encoding.equals(DENSE)) {
            if (payload.length != out.length * Double.BYTES) {
                throw corrupt();
            }
            b.asDoubleBuffer().get(out);
        } else {
            if (payload.length != nonZeros * SPARSE_ENTRY) {
                throw corrupt();
            }
            for (long k = 0; k < nonZeros; k++) {
                int r = b.getInt();
                int c = b.getInt();
                double v = b.getDouble();
                if (r < 0 || r >= rows || c < 0 || c >= cols) {
                    throw corrupt();
                }
                out[r * cols + c] = v;
            }
        }
        if (!sha256(rows, cols, out).equals(sha256)) {
            throw corrupt();
        }
        return out;
    }

    private IllegalStateException corrupt() {
        return new IllegalStateException("stored workload content " + sha256 + " does not match its address");
    }

    static String sha256(int rows, int cols, double[] values) {
        MessageDigest digest = Sha256.digest();
        ByteBuffer head = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(rows).putInt(cols);
        digest.update(head.array());
        ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.asDoubleBuffer().put(values);
        digest.update(b.array());
        return Sha256.hex(digest);
    }
}
