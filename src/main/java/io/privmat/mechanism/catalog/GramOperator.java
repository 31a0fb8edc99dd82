package io.privmat.mechanism.catalog;

import io.privmat.mechanism.linalg.LinearAlgebraOps;

/**
 * Y = XᵀX·V for a d × k V (row-major), without necessarily forming XᵀX: from a held Gram matrix
 * (d² memory, one pass over the rows in total) or by streaming the rows, Y = Σ_blocks X_bᵀ(X_b V)
 * (O(d·k) memory, one pass per application). Both give the same product up to rounding.
 */
@FunctionalInterface
public interface GramOperator {

    void apply(double[] v, int k, double[] out);

    static GramOperator ofGram(double[] gram, int d) {
        return (v, k, out) -> LinearAlgebraOps.multiply(gram, d, d, v, k, out);
    }

    static GramOperator ofRows(RowStream rows, int d) {
        return (v, k, out) -> {
            java.util.Arrays.fill(out, 0, d * k, 0);
            rows.forEachBlock((block, count, firstRow) -> {
                double[] xv = new double[count * k];
                LinearAlgebraOps.multiply(block, count, d, v, k, xv);
                LinearAlgebraOps.addMultiplyTransA(block, count, d, xv, k, out);
            });
        };
    }
}
