package io.privmat.mechanism.linear;

import java.util.List;

/**
 * A workload's Gram matrix WᵀW as a sum of Kronecker products, Σ_t ⊗_i G_{t,i}, over a shape (the
 * domain's attribute sizes, or [n] for a workload without product structure). This is what strategy
 * optimisation reads: for a product strategy ⊗A_i with K_i = (A_iᵀA_i)⁻¹ the expected error per
 * unit noise is tr(WᵀW·⊗K_i) = Σ_t Π_i tr(G_{t,i}·K_i).
 */
record KronGram(int[] shape, List<Factor[]> terms) {

    /** One attribute's Gram factor of one term: G = Σ over its one-attribute queries q of 1_q·1_qᵀ. */
    sealed interface Factor permits Generated, Interval, Dense {
        int n();

        /** The factor as a dense n × n row-major matrix. */
        double[] dense();

        /** tr(G·K) for a one-attribute covariance K. */
        double trace(Covariance1D k);
    }

    /** The Gram of a one-attribute generator (IDENTITY, TOTAL, PREFIX, ALL_RANGE); dense on demand. */
    record Generated(Generator generator, int n) implements Factor {
        @Override
        public double[] dense() {
            return generator.gram(n);
        }

        @Override
        public double trace(Covariance1D k) {
            // Σ over the generator's intervals of 1_qᵀK1_q (O(1) each for dense K, O(log n) for a tree).
            int[] lohi = new int[2];
            generator.first(n, lohi);
            double total = 0;
            do {
                total += k.rangeQuadratic(lohi[0], lohi[1]);
            } while (generator.next(n, lohi));
            return total;
        }
    }

    /** The rank-one factor 1_r·1_rᵀ of an interval r = [lo, hi] (one box of a RANGES workload). */
    record Interval(int n, int lo, int hi) implements Factor {
        @Override
        public double[] dense() {
            double[] g = new double[n * n];
            for (int i = lo; i <= hi; i++) {
                for (int j = lo; j <= hi; j++) {
                    g[i * n + j] = 1;
                }
            }
            return g;
        }

        @Override
        public double trace(Covariance1D k) {
            return k.rangeQuadratic(lo, hi);
        }
    }

    /** A dense symmetric factor (a flattened WᵀW). */
    record Dense(int n, double[] g) implements Factor {
        @Override
        public double[] dense() {
            return g;
        }

        @Override
        public double trace(Covariance1D k) {
            double[] kd = k.dense();
            double s = 0;
            for (int i = 0; i < g.length; i++) {
                s += g[i] * kd[i];
            }
            return s;
        }
    }

    /** The dense n × n Gram Σ_t ⊗_i G_{t,i} (n = Π shape). */
    double[] dense() {
        int n = 1;
        for (int s : shape) {
            n *= s;
        }
        double[] out = new double[n * n];
        for (Factor[] term : terms) {
            double[] product = {1};
            int size = 1;
            for (Factor f : term) {
                double[] g = f.dense();
                int m = f.n();
                double[] next = new double[size * m * size * m];
                int cols = size * m;
                for (int a = 0; a < size; a++) {
                    for (int b = 0; b < size; b++) {
                        double v = product[a * size + b];
                        if (v == 0) {
                            continue;
                        }
                        for (int i = 0; i < m; i++) {
                            int row = (a * m + i) * cols + b * m;
                            for (int j = 0; j < m; j++) {
                                next[row + j] = v * g[i * m + j];
                            }
                        }
                    }
                }
                product = next;
                size *= m;
            }
            for (int i = 0; i < out.length; i++) {
                out[i] += product[i];
            }
        }
        return out;
    }
}
