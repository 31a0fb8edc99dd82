package io.privmat.mechanism.linear;

import io.privmat.mechanism.linalg.LinearAlgebraOps;
import org.jspecify.annotations.Nullable;

/**
 * One attribute's factor K_i = (A_iᵀA_i)⁻¹ of a product strategy's estimate covariance
 * Cov(x̂) = σ²·⊗K_i.
 */
interface Covariance1D {

    int n();

    /** 1_rᵀ K 1_r for the interval r = [lo, hi]. */
    double rangeQuadratic(int lo, int hi);

    /** out (count × n) = in (count × n) · K (K is symmetric). */
    void apply(double[] in, int count, double[] out);

    /** K as a dense n × n row-major matrix. */
    double[] dense();

    /** The identity. */
    static Covariance1D identity(int n) {
        return new Covariance1D() {
            @Override
            public int n() {
                return n;
            }

            @Override
            public double rangeQuadratic(int lo, int hi) {
                return hi - lo + 1;
            }

            @Override
            public void apply(double[] in, int count, double[] out) {
                System.arraycopy(in, 0, out, 0, count * n);
            }

            @Override
            public double[] dense() {
                double[] k = new double[n * n];
                for (int i = 0; i < n; i++) {
                    k[i * n + i] = 1;
                }
                return k;
            }
        };
    }

    /** A dense symmetric K, with a summed-area table for interval quadratics built on first use. */
    static Covariance1D dense(int n, double[] k) {
        return new DenseCovariance1D(n, k);
    }

    /** Dense K: SAT lazily. */
    final class DenseCovariance1D implements Covariance1D {
        private final int n;
        private final double[] k;
        private volatile double @Nullable [] sat;

        DenseCovariance1D(int n, double[] k) {
            this.n = n;
            this.k = k;
        }

        @Override
        public int n() {
            return n;
        }

        @Override
        public double rangeQuadratic(int lo, int hi) {
            double[] s = sat;
            if (s == null) {
                s = k.clone();
                BoxSums.integrate(s, new int[] {n, n});
                sat = s;
            }
            double total = s[hi * n + hi];
            if (lo > 0) {
                total -= s[(lo - 1) * n + hi] + s[hi * n + lo - 1];
                total += s[(lo - 1) * n + lo - 1];
            }
            return total;
        }

        @Override
        public void apply(double[] in, int count, double[] out) {
            LinearAlgebraOps.multiply(in, count, n, k, n, out);
        }

        @Override
        public double[] dense() {
            return k;
        }
    }
}
