package io.privmat.mechanism.linalg;

/**
 * Accumulates XᵀX over blocks of rows with O(d²) memory, whatever the number of rows, using BLAS
 * dsyrk — multi-threaded in native OpenBLAS; with the pure-Java fallback each block is split over
 * two threads with an accumulator each. Not thread-safe.
 */
public final class GramAccumulator {

    private final int d;
    private final double[] c;
    /** Second accumulator for the pure-Java fallback, which is single-threaded per call. */
    private final double[] c2;
    private long rows;

    public GramAccumulator(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("d must be >= 1");
        }
        this.d = d;
        this.c = new double[d * d];
        this.c2 = LinearAlgebra.isNative() ? null : new double[d * d];
    }

    /** Adds the rows of a dense row-major block ({@code rows × d}, starting at {@code offset}). */
    public void addRows(double[] block, int offset, int count) {
        if (count <= 0) {
            return;
        }
        if (c2 == null || count < 64) {
            // Native OpenBLAS threads dsyrk itself.
            LinearAlgebra.syrkRowMajor(block, offset, count, d, c);
        } else {
            // Pure-Java fallback: split the rows over two threads, one accumulator each.
            int half = count / 2;
            java.util.concurrent.CompletableFuture<Void> other = java.util.concurrent.CompletableFuture.runAsync(
                    () -> LinearAlgebra.syrkRowMajor(block, offset + half * d, count - half, d, c2));
            LinearAlgebra.syrkRowMajor(block, offset, half, d, c);
            other.join();
        }
        rows += count;
    }

    public long rows() {
        return rows;
    }

    /** The full symmetric XᵀX, row-major d×d (a new array). */
    public double[] result() {
        // dsyrk kept the upper triangle of the column-major matrix = lower triangle as stored row-major.
        double[] out = c.clone();
        if (c2 != null) {
            for (int i = 0; i < out.length; i++) {
                out[i] += c2[i];
            }
        }
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                out[j * d + i] = out[i * d + j];
            }
        }
        return out;
    }
}
