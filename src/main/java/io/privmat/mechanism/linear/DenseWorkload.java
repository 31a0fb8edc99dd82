package io.privmat.mechanism.linear;

import io.privmat.hashing.Sha256;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import java.nio.ByteBuffer;
import java.util.List;

/** CUSTOM: an explicit dense m × n workload matrix (row-major). */
final class DenseWorkload extends Workload {

    private final int m;
    private final double[] w;

    DenseWorkload(Domain domain, int rows, double[] matrix) {
        super(domain);
        int n = domain.cells();
        if (rows < 1 || matrix.length == 0) {
            throw new LinearQueryException(LinearQueryException.Reason.EMPTY, "workload.matrix",
                    "a CUSTOM workload needs at least one row");
        }
        if ((long) rows * n > LinearLimits.MAX_DENSE_ENTRIES) {
            throw LinearQueryException.tooLarge("workload.matrix", "the number of entries m·n", (long) rows * n,
                    LinearLimits.MAX_DENSE_ENTRIES);
        }
        if (matrix.length != rows * n) {
            throw LinearQueryException.shape("workload.matrix", "a " + rows + " × " + n + " matrix needs "
                    + (long) rows * n + " entries but had " + matrix.length);
        }
        boolean nonZero = false;
        for (int i = 0; i < matrix.length; i++) {
            if (!Double.isFinite(matrix[i])) {
                throw new LinearQueryException(LinearQueryException.Reason.NOT_FINITE, "workload.matrix",
                        "entry (" + i / n + ", " + i % n + ") is " + matrix[i]);
            }
            nonZero |= matrix[i] != 0;
        }
        if (!nonZero) {
            throw LinearQueryException.invalid("workload.matrix", "the workload matrix is all zeros");
        }
        this.m = rows;
        this.w = matrix.clone();
        for (int i = 0; i < w.length; i++) {
            w[i] += 0.0; // −0.0 → 0.0, so equal matrices have equal descriptions
        }
    }

    @Override
    public int queries() {
        return m;
    }

    @Override
    public String kind() {
        return "CUSTOM";
    }

    /** The matrix (a copy). */
    public double[] matrix() {
        return w.clone();
    }

    double[] matrixView() {
        return w;
    }

    @Override
    public String canonical() {
        ByteBuffer bytes = ByteBuffer.allocate(8 * w.length);
        for (double v : w) {
            bytes.putLong(Double.doubleToLongBits(v));
        }
        return "custom;domain=" + domain().canonical() + ";m=" + m + ";matrix-sha256=" + Sha256.hex(bytes.array());
    }

    @Override
    public double[] answer(double[] x) {
        checkCells(x, "x");
        double[] out = new double[m];
        LinearAlgebraOps.multiply(w, m, cells(), x, 1, out);
        return out;
    }

    @Override
    public double frobeniusSquared() {
        double s = 0;
        for (double v : w) {
            s += v * v;
        }
        return s;
    }

    @Override
    public double maxColumnL1() {
        int n = cells();
        double[] c = new double[n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                c[j] += Math.abs(w[i * n + j]);
            }
        }
        double max = 0;
        for (double v : c) {
            max = Math.max(max, v);
        }
        return max;
    }

    @Override
    public double maxColumnL2() {
        int n = cells();
        double[] c = new double[n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                c[j] += w[i * n + j] * w[i * n + j];
            }
        }
        double max = 0;
        for (double v : c) {
            max = Math.max(max, v);
        }
        return Math.sqrt(max);
    }

    @Override
    public double[] denseGram() {
        requireDenseCells("WᵀW");
        int n = cells();
        double[] g = new double[n * n];
        LinearAlgebraOps.addMultiplyTransA(w, m, n, w, n, g);
        // Exactly symmetric.
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                double v = 0.5 * (g[i * n + j] + g[j * n + i]);
                g[i * n + j] = v;
                g[j * n + i] = v;
            }
        }
        return g;
    }

    @Override
    KronGram kronGram() {
        int n = cells();
        return new KronGram(new int[] {n}, List.<KronGram.Factor[]>of(new KronGram.Factor[] {
                new KronGram.Dense(n, denseGram())}));
    }

    @Override
    public double[] variances(CellCovariance covariance) {
        return covariance.rowQuadratics(w, m);
    }

    @Override
    public double[] row(int query) {
        if (query < 0 || query >= m) {
            throw LinearQueryException.shape("query", "query index " + query + " is not in [0, " + m + ")");
        }
        double[] r = new double[cells()];
        System.arraycopy(w, query * cells(), r, 0, cells());
        return r;
    }
}
