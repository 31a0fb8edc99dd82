package io.privmat.mechanism.linear;

import io.privmat.mechanism.linalg.LinearAlgebraOps;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The covariance of an estimate x̂ over the domain's cells, Cov(x̂) = s·K, computed from public
 * values only (the strategy and the noise variance). It gives the exact variance of any linear
 * query qᵀx̂ without forming an m × m matrix: a box in O(k) (product form) or O(4^k) (dense form,
 * through a summed-area table of the 2k-dimensional pair tensor K[c][c′]).
 */
public sealed interface CellCovariance permits CellCovariance.Product, CellCovariance.Dense {

    /** Var(Σ_{c ∈ box} x̂_c). */
    double boxVariance(int[] lo, int[] hi);

    /** Var(qᵀx̂) = s·qᵀKq. */
    double quadratic(double[] q);

    /** The variance of each row of a dense m × n matrix (row-major). */
    double[] rowQuadratics(double[] rows, int m);

    /** s·⊗K_i with one factor per attribute of the domain. */
    final class Product implements CellCovariance {
        private final double scale;
        private final List<Covariance1D> factors;
        private final int[] shape;

        Product(double scale, List<Covariance1D> factors) {
            this.scale = scale;
            this.factors = List.copyOf(factors);
            this.shape = new int[factors.size()];
            for (int i = 0; i < shape.length; i++) {
                shape[i] = factors.get(i).n();
            }
        }

        @Override
        public double boxVariance(int[] lo, int[] hi) {
            double v = scale;
            for (int i = 0; i < shape.length; i++) {
                v *= factors.get(i).rangeQuadratic(lo[i], hi[i]);
            }
            return v;
        }

        @Override
        public double quadratic(double[] q) {
            double[] v = q;
            for (int i = 0; i < shape.length; i++) {
                Covariance1D k = factors.get(i);
                v = Tensors.applyMode(v, shape, i, shape[i], k::apply);
            }
            return scale * Tensors.dot(q, v);
        }

        @Override
        public double[] rowQuadratics(double[] rows, int m) {
            int n = rows.length / m;
            double[] out = new double[m];
            double[] row = new double[n];
            for (int i = 0; i < m; i++) {
                System.arraycopy(rows, i * n, row, 0, n);
                out[i] = quadratic(row);
            }
            return out;
        }
    }

    /** s·K with K a dense n × n matrix over the cells of a domain. */
    final class Dense implements CellCovariance {
        private final double scale;
        private final double[] k;
        private final int n;
        private final int[] pairShape;
        private final int[] pairStrides;
        private volatile double @Nullable [] sat;

        Dense(double scale, double[] k, Domain domain) {
            this.scale = scale;
            this.k = k;
            this.n = domain.cells();
            this.pairShape = BoxSums.pairShape(domain.sizes());
            this.pairStrides = BoxSums.strides(pairShape);
        }

        @Override
        public double boxVariance(int[] lo, int[] hi) {
            double[] s = sat;
            if (s == null) {
                s = k.clone();
                BoxSums.integrate(s, pairShape);
                sat = s;
            }
            int d = lo.length;
            int[] lo2 = new int[2 * d];
            int[] hi2 = new int[2 * d];
            System.arraycopy(lo, 0, lo2, 0, d);
            System.arraycopy(lo, 0, lo2, d, d);
            System.arraycopy(hi, 0, hi2, 0, d);
            System.arraycopy(hi, 0, hi2, d, d);
            return scale * BoxSums.boxSum(s, pairShape, pairStrides, lo2, hi2);
        }

        @Override
        public double quadratic(double[] q) {
            double[] kq = new double[n];
            LinearAlgebraOps.multiply(k, n, n, q, 1, kq);
            return scale * Tensors.dot(q, kq);
        }

        @Override
        public double[] rowQuadratics(double[] rows, int m) {
            double[] out = new double[m];
            int chunk = Math.max(1, Math.min(m, (1 << 22) / n));
            double[] t = new double[chunk * n];
            double[] part = new double[chunk * n];
            for (int start = 0; start < m; start += chunk) {
                int count = Math.min(chunk, m - start);
                System.arraycopy(rows, start * n, part, 0, count * n);
                LinearAlgebraOps.multiply(part, count, n, k, n, t);
                for (int i = 0; i < count; i++) {
                    double s = 0;
                    for (int j = 0; j < n; j++) {
                        s += t[i * n + j] * part[i * n + j];
                    }
                    out[start + i] = scale * s;
                }
            }
            return out;
        }
    }
}
