package io.privmat.mechanism.completion;

/** Small dense symmetric solves (r ≤ a few dozen), deterministic and allocation-light. */
final class SmallSolve {

    private SmallSolve() {}

    /**
     * x = G⁻¹b for a symmetric positive definite r × r G by Cholesky; returns zeros when G is not
     * numerically positive definite (a local fit that is post-processing only: the fallback is the
     * midpoint prediction, never an error or a retry).
     */
    static double[] spd(double[] g, double[] b, int r) {
        double[] l = new double[r * r];
        for (int i = 0; i < r; i++) {
            for (int j = 0; j <= i; j++) {
                double s = g[i * r + j];
                for (int k = 0; k < j; k++) {
                    s -= l[i * r + k] * l[j * r + k];
                }
                if (i == j) {
                    if (!(s > 0)) {
                        return new double[r];
                    }
                    l[i * r + i] = Math.sqrt(s);
                } else {
                    l[i * r + j] = s / l[j * r + j];
                }
            }
        }
        double[] z = new double[r];
        for (int i = 0; i < r; i++) {
            double s = b[i];
            for (int k = 0; k < i; k++) {
                s -= l[i * r + k] * z[k];
            }
            z[i] = s / l[i * r + i];
        }
        double[] x = new double[r];
        for (int i = r - 1; i >= 0; i--) {
            double s = z[i];
            for (int k = i + 1; k < r; k++) {
                s -= l[k * r + i] * x[k];
            }
            x[i] = s / l[i * r + i];
            if (!Double.isFinite(x[i])) {
                return new double[r]; // a tiny pivot: no fit rather than an infinite one
            }
        }
        return x;
    }
}
