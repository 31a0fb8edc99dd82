package io.privmat.mechanism.catalog;

import io.privmat.mechanism.linalg.FixedPointWeightedSums;

/**
 * One pass over a matrix's rows in blocks (the stored chunks), in row order; may be called
 * several times. Blocks are dense row-major {@code rows × d}.
 *
 * <p>Two passes have their own methods, so that an engine holding the rows elsewhere can compute them
 * where the rows are and send back only the result ({@link #project}: m × ℓ; {@link #weightedSums}:
 * ℓ × d; docs/scale-out.md). Both are defined row by row with arithmetic that does not depend on how
 * the rows are blocked, so every implementation gives the same bits; the defaults stream the blocks.
 */
@FunctionalInterface
public interface RowStream {

    void forEachBlock(BlockVisitor visitor);

    /**
     * One pass: Y = X·W (m × ℓ, row-major, into {@code y}) for a d × ℓ W, row i of Y computed by
     * {@link #projectRows} (a fixed order of operations per row, so the same bits however the rows
     * are split).
     */
    default void project(double[] w, int l, double[] y) {
        int[] at = {0};
        forEachBlock((block, count, firstRow) -> {
            projectRows(block, 0, count, w, l, y, at[0] * l);
            at[0] += count;
        });
    }

    /**
     * One pass: Σᵢ aᵢ x̃ᵢᵀ (ℓ × d, row-major) for the m × ℓ weights A (row i of A with row i of X),
     * exact in integers ({@link FixedPointWeightedSums}: each row clipped to {@code bound} and
     * quantised, each weight on the grid 2⁻³⁸ within [−1, 1]).
     */
    default double[] weightedSums(double[] a, int l, int d, double bound) {
        FixedPointWeightedSums sums = new FixedPointWeightedSums(d, l, bound);
        int[] at = {0};
        forEachBlock((block, count, firstRow) -> {
            sums.addRows(a, at[0] * l, block, 0, count);
            at[0] += count;
        });
        return sums.result();
    }

    /**
     * out[outOffset + r·ℓ + t] = Σ_j rows[offset + r·d + j]·w[j·ℓ + t] for {@code count} rows, d =
     * w.length / ℓ, the sum over j in increasing order in plain Java arithmetic (no fused
     * multiply-add, no BLAS): each row's result depends on that row and W alone, bit for bit, on any
     * machine — not on the rows beside it in a block, the number of threads or the BLAS. Every entry
     * is computed whatever the values (no shortcut for zeros), so the time depends on sizes only.
     */
    static void projectRows(double[] rows, int offset, int count, double[] w, int l, double[] out, int outOffset) {
        int d = w.length / l;
        java.util.Arrays.fill(out, outOffset, outOffset + count * l, 0.0);
        int r = 0;
        // Four rows at a time share each row of W (the order of each row's sum is unchanged).
        for (; r + 4 <= count; r += 4) {
            int o0 = outOffset + r * l;
            int o1 = o0 + l;
            int o2 = o1 + l;
            int o3 = o2 + l;
            int x0 = offset + r * d;
            for (int j = 0; j < d; j++) {
                double a0 = rows[x0 + j];
                double a1 = rows[x0 + d + j];
                double a2 = rows[x0 + 2 * d + j];
                double a3 = rows[x0 + 3 * d + j];
                int wj = j * l;
                for (int t = 0; t < l; t++) {
                    double wt = w[wj + t];
                    out[o0 + t] += a0 * wt;
                    out[o1 + t] += a1 * wt;
                    out[o2 + t] += a2 * wt;
                    out[o3 + t] += a3 * wt;
                }
            }
        }
        for (; r < count; r++) {
            int base = outOffset + r * l;
            int row = offset + r * d;
            for (int j = 0; j < d; j++) {
                double x = rows[row + j];
                int wj = j * l;
                for (int t = 0; t < l; t++) {
                    out[base + t] += x * w[wj + t];
                }
            }
        }
    }

    @FunctionalInterface
    interface BlockVisitor {
        void block(double[] rows, int count, long firstRow);
    }
}
