package io.privmat.mechanism.completion;

import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;

/**
 * The top eigenpair of a symmetric operator by Lanczos with full reorthogonalisation and a fixed,
 * public number of steps q (never a convergence test on the data): q products, a q × q
 * tridiagonal eigenproblem, the top Ritz pair. The start vector is data-independent. The only
 * early stop is an exact invariant subspace (β = 0 up to rounding), where the Ritz pair is already
 * exact; it changes running time only.
 */
final class TopEigen {

    private TopEigen() {}

    /** y = A·x for a symmetric A. */
    @FunctionalInterface
    interface Operator {
        void apply(double[] x, double[] y);
    }

    /** The top Ritz value and its unit Ritz vector (sign fixed: largest-magnitude entry positive). */
    record Pair(double value, double[] vector) {}

    static Pair lanczos(Operator op, int n, int steps, double[] start) {
        int q = Math.max(1, Math.min(steps, n));
        double[][] basis = new double[q][];
        double[] alpha = new double[q];
        double[] beta = new double[q];
        double[] x = start.clone();
        double norm = norm(x);
        if (!(norm > 0)) {
            throw new IllegalArgumentException("start vector must be non-zero");
        }
        scale(x, 1 / norm);
        double[] w = new double[n];
        int used = 0;
        double scaleEstimate = 0;
        for (int j = 0; j < q; j++) {
            basis[j] = x;
            used = j + 1;
            op.apply(x, w);
            alpha[j] = dot(x, w);
            scaleEstimate = Math.max(scaleEstimate, Math.abs(alpha[j]));
            // Full reorthogonalisation, twice ("twice is enough").
            for (int pass = 0; pass < 2; pass++) {
                for (int i = 0; i <= j; i++) {
                    double c = dot(basis[i], w);
                    axpy(-c, basis[i], w);
                }
            }
            if (j == q - 1) {
                break;
            }
            double b = norm(w);
            scaleEstimate = Math.max(scaleEstimate, b);
            if (!(b > 1e-14 * scaleEstimate)) {
                break;
            }
            beta[j] = b;
            x = w.clone();
            scale(x, 1 / b);
        }
        double[] t = new double[used * used];
        for (int i = 0; i < used; i++) {
            t[i * used + i] = alpha[i];
            if (i + 1 < used) {
                t[i * used + i + 1] = beta[i];
                t[(i + 1) * used + i] = beta[i];
            }
        }
        SymmetricEigen e = LinearAlgebra.eigen(t, used);
        double[] vector = new double[n];
        for (int i = 0; i < used; i++) {
            axpy(e.vectors()[i * used], basis[i], vector);
        }
        double vn = norm(vector);
        scale(vector, 1 / vn);
        int arg = 0;
        for (int i = 1; i < n; i++) {
            if (Math.abs(vector[i]) > Math.abs(vector[arg])) {
                arg = i;
            }
        }
        if (vector[arg] < 0) {
            scale(vector, -1);
        }
        return new Pair(e.values()[0], vector);
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static double norm(double[] a) {
        return Math.sqrt(dot(a, a));
    }

    static void scale(double[] a, double c) {
        for (int i = 0; i < a.length; i++) {
            a[i] *= c;
        }
    }

    static void axpy(double c, double[] x, double[] y) {
        for (int i = 0; i < y.length; i++) {
            y[i] += c * x[i];
        }
    }
}
