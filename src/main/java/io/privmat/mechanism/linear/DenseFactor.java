package io.privmat.mechanism.linear;

import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import org.jspecify.annotations.Nullable;

/**
 * An explicit factor A_i (rows × cols, row-major) of full column rank, e.g. an optimised strategy.
 * (A_iᵀA_i)⁻¹ is computed once (LAPACK Cholesky) when first needed; it is a function of the public
 * A_i only.
 */
final class DenseFactor implements Factor {

    private final int rows;
    private final int cols;
    private final double[] a;
    private volatile double @Nullable [] inverseGram;

    DenseFactor(int rows, int cols, double[] a) {
        if (a.length != rows * cols) {
            throw LinearQueryException.shape("strategy.factor", "a " + rows + " × " + cols + " factor needs "
                    + rows * cols + " entries");
        }
        for (double v : a) {
            if (!Double.isFinite(v)) {
                throw new LinearQueryException(LinearQueryException.Reason.NOT_FINITE, "strategy.factor",
                        "a strategy factor has a non-finite entry");
            }
        }
        this.rows = rows;
        this.cols = cols;
        this.a = a;
    }

    /** With a precomputed (AᵀA)⁻¹ (e.g. from the optimiser's eigendecomposition). */
    DenseFactor(int rows, int cols, double[] a, double[] inverseGram) {
        this(rows, cols, a);
        this.inverseGram = inverseGram;
    }

    double[] matrix() {
        return a;
    }

    /** AᵀA (cols × cols). */
    double[] gram() {
        double[] g = new double[cols * cols];
        LinearAlgebraOps.addMultiplyTransA(a, rows, cols, a, cols, g);
        for (int i = 0; i < cols; i++) {
            for (int j = 0; j < i; j++) {
                double v = 0.5 * (g[i * cols + j] + g[j * cols + i]);
                g[i * cols + j] = v;
                g[j * cols + i] = v;
            }
        }
        return g;
    }

    double[] inverseGram() {
        double[] k = inverseGram;
        if (k == null) {
            k = LinearAlgebra.inverseSpd(gram(), cols);
            inverseGram = k;
        }
        return k;
    }

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public void forward(double[] in, int count, double[] out) {
        LinearAlgebraOps.multiplyTransB(in, count, cols, a, rows, out);
    }

    @Override
    public void leastSquares(double[] in, int count, double[] out) {
        double[] t = new double[count * cols];
        LinearAlgebraOps.multiply(in, count, rows, a, cols, t);
        LinearAlgebraOps.multiply(t, count, cols, inverseGram(), cols, out);
    }

    @Override
    public double maxColumnL1() {
        double[] s = new double[cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                s[j] += Math.abs(a[i * cols + j]);
            }
        }
        double max = 0;
        for (double v : s) {
            max = Math.max(max, v);
        }
        return max;
    }

    @Override
    public double maxColumnL2() {
        double[] s = new double[cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                s[j] += a[i * cols + j] * a[i * cols + j];
            }
        }
        double max = 0;
        for (double v : s) {
            max = Math.max(max, v);
        }
        return Math.sqrt(max);
    }

    @Override
    public boolean gramNonNegative() {
        for (double v : gram()) {
            if (v < 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Covariance1D covariance() {
        return Covariance1D.dense(cols, inverseGram());
    }
}
