package io.privmat.mechanism.linalg;

/**
 * Accumulates XᵀX over blocks of rows with O(d²) memory, whatever the number of rows, using BLAS
 * dsyrk (multi-threaded in native OpenBLAS). Not thread-safe.
 */
public final class GramAccumulator {

    private final int d;
    private final double[] c;
    private long rows;

    public GramAccumulator(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("d must be >= 1");
        }
        this.d = d;
        this.c = new double[d * d];
    }

    /** Adds the rows of a dense row-major block ({@code rows × d}, starting at {@code offset}). */
    public void addRows(double[] block, int offset, int count) {
        if (count > 0) {
            LinearAlgebra.syrkRowMajor(block, offset, count, d, c);
            rows += count;
        }
    }

    public long rows() {
        return rows;
    }

    /** The full symmetric XᵀX, row-major d×d (a new array). */
    public double[] result() {
        // dsyrk kept the upper triangle of the column-major matrix = lower triangle as stored row-major.
        double[] out = c.clone();
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                out[j * d + i] = out[i * d + j];
            }
        }
        return out;
    }
}
