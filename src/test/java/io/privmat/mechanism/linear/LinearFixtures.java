package io.privmat.mechanism.linear;

import java.util.SplittableRandom;

/** Dense reference computations for the linear-query tests. */
final class LinearFixtures {

    private LinearFixtures() {}

    /** W as a dense m × n matrix, from its rows. */
    static double[] dense(Workload w) {
        int m = w.queries();
        int n = w.cells();
        double[] out = new double[m * n];
        for (int q = 0; q < m; q++) {
            System.arraycopy(w.row(q), 0, out, q * n, n);
        }
        return out;
    }

    static double[] multiply(double[] a, int m, int k, double[] b, int n) {
        double[] out = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int t = 0; t < k; t++) {
                double v = a[i * k + t];
                if (v == 0) {
                    continue;
                }
                for (int j = 0; j < n; j++) {
                    out[i * n + j] += v * b[t * n + j];
                }
            }
        }
        return out;
    }

    static double[] transpose(double[] a, int m, int n) {
        double[] t = new double[n * m];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                t[j * m + i] = a[i * n + j];
            }
        }
        return t;
    }

    /** Inverse of a small SPD matrix by Gauss–Jordan (independent of LAPACK). */
    static double[] inverse(double[] a, int n) {
        double[] m = a.clone();
        double[] inv = new double[n * n];
        for (int i = 0; i < n; i++) {
            inv[i * n + i] = 1;
        }
        for (int c = 0; c < n; c++) {
            int pivot = c;
            for (int r = c + 1; r < n; r++) {
                if (Math.abs(m[r * n + c]) > Math.abs(m[pivot * n + c])) {
                    pivot = r;
                }
            }
            for (int j = 0; j < n; j++) {
                double t = m[c * n + j];
                m[c * n + j] = m[pivot * n + j];
                m[pivot * n + j] = t;
                t = inv[c * n + j];
                inv[c * n + j] = inv[pivot * n + j];
                inv[pivot * n + j] = t;
            }
            double d = m[c * n + c];
            for (int j = 0; j < n; j++) {
                m[c * n + j] /= d;
                inv[c * n + j] /= d;
            }
            for (int r = 0; r < n; r++) {
                if (r != c) {
                    double f = m[r * n + c];
                    if (f != 0) {
                        for (int j = 0; j < n; j++) {
                            m[r * n + j] -= f * m[c * n + j];
                            inv[r * n + j] -= f * inv[c * n + j];
                        }
                    }
                }
            }
        }
        return inv;
    }

    /** A random histogram of non-negative integer counts. */
    static double[] histogram(int n, long seed, int max) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = r.nextInt(max + 1);
        }
        return x;
    }

    /** A dense matrix with entries drawn from {0, 1}. */
    static double[] random01(int m, int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] w = new double[m * n];
        for (int i = 0; i < w.length; i++) {
            w[i] = r.nextInt(2);
        }
        return w;
    }

    /** W = C·A with C (m × s) and A (s × n) standard Gaussian: rank s ("WRelated"). */
    static double[] related(int m, int n, int s, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] c = new double[m * s];
        double[] a = new double[s * n];
        for (int i = 0; i < c.length; i++) {
            c[i] = r.nextGaussian();
        }
        for (int i = 0; i < a.length; i++) {
            a[i] = r.nextGaussian();
        }
        return multiply(c, m, s, a, n);
    }
}
