package io.privmat.mechanism.linear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.catalog.OptimizationControl;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StrategyTest {

    /** The explicit (2N − 1) × n tree matrix of a padded binary tree, heap order. */
    static double[] treeMatrix(TreeFactor t) {
        int n = t.cols();
        int rows = t.rows();
        double[] a = new double[rows * n];
        double[] e = new double[n];
        double[] col = new double[rows];
        for (int j = 0; j < n; j++) {
            java.util.Arrays.fill(e, 0);
            e[j] = 1;
            t.forward(e, 1, col);
            for (int i = 0; i < rows; i++) {
                a[i * n + j] = col[i];
            }
        }
        return a;
    }

    /**
     * The tree's least-squares operator and covariance restricted to the real cells: the tree over
     * N = 2^L leaves estimates every leaf (padding included, whose true count is 0) and keeps the
     * first n, so its operator is the first n rows of (HᵀH)⁻¹Hᵀ for the full N-column tree matrix.
     */
    static double[][] paddedOperators(TreeFactor t) {
        int n = t.cols();
        int big = (t.rows() + 1) / 2;
        TreeFactor full = new TreeFactor(big);
        double[] h = treeMatrix(full);
        int p = full.rows();
        double[] pinv = pseudoInverse(h, p, big);
        double[] k = LinearFixtures.inverse(LinearFixtures.multiply(LinearFixtures.transpose(h, p, big), big, p, h, big),
                big);
        double[] op = new double[n * p];
        System.arraycopy(pinv, 0, op, 0, n * p);
        double[] kn = new double[n * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(k, i * big, kn, i * n, n);
        }
        return new double[][] {op, kn};
    }

    /** (AᵀA)⁻¹Aᵀ for a full-column-rank A (p × n). */
    static double[] pseudoInverse(double[] a, int p, int n) {
        double[] at = LinearFixtures.transpose(a, p, n);
        double[] inv = LinearFixtures.inverse(LinearFixtures.multiply(at, n, p, a, n), n);
        return LinearFixtures.multiply(inv, n, n, at, p);
    }

    @Test
    void treeInferenceIsTheLeastSquaresEstimate() {
        SplittableRandom r = new SplittableRandom(2);
        for (int n : new int[] {1, 2, 5, 8, 13, 16}) {
            TreeFactor t = new TreeFactor(n);
            double[] a = treeMatrix(t);
            int p = t.rows();
            // Every node sums its leaves; the root sums all.
            for (int j = 0; j < n; j++) {
                assertThat(a[j]).isEqualTo(1);
            }
            double[] y = new double[p];
            for (int i = 0; i < p; i++) {
                y[i] = r.nextGaussian() * 3 + 1;
            }
            double[][] ops = paddedOperators(t);
            double[] expected = LinearFixtures.multiply(ops[0], n, p, y, 1);
            double[] actual = new double[n];
            t.leastSquares(y, 1, actual);
            assertThat(actual).as("n = " + n).containsExactly(expected, within(1e-9));
            double[] k = ops[1];
            // Unbiased: the operator applied to the noiseless measurements returns x.
            double[] x = LinearFixtures.histogram(n, n, 5);
            double[] back = new double[n];
            t.leastSquares(LinearFixtures.multiply(a, p, n, x, 1), 1, back);
            assertThat(back).containsExactly(x, within(1e-9));
            Covariance1D cov = t.covariance();
            assertThat(cov.dense()).containsExactly(k, within(1e-12));
            for (int lo = 0; lo < n; lo++) {
                for (int hi = lo; hi < n; hi++) {
                    double q = 0;
                    for (int i = lo; i <= hi; i++) {
                        for (int j = lo; j <= hi; j++) {
                            q += k[i * n + j];
                        }
                    }
                    assertThat(cov.rangeQuadratic(lo, hi)).isCloseTo(q, within(1e-12));
                }
            }
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                v[i] = r.nextGaussian();
            }
            double[] kv = new double[n];
            cov.apply(v, 1, kv);
            assertThat(kv).containsExactly(LinearFixtures.multiply(k, n, n, v, 1), within(1e-12));
            double levels = Math.ceil(Math.log(n) / Math.log(2));
            assertThat(t.maxColumnL1()).isEqualTo(levels + 1);
        }
    }

    @Test
    void productStrategiesMatchTheirDenseKroneckerProduct() {
        // Powers of two, so the tree factors are exactly least squares on their own columns.
        Domain d = Domain.of(4, 8);
        Workload w = Workload.allRange(d);
        ProductStrategy h = Strategies.hierarchical(w);
        // Dense A = A₀ ⊗ A₁.
        TreeFactor t0 = (TreeFactor) h.factors().get(0);
        TreeFactor t1 = (TreeFactor) h.factors().get(1);
        double[] a0 = treeMatrix(t0);
        double[] a1 = treeMatrix(t1);
        int p0 = t0.rows();
        int p1 = t1.rows();
        int p = p0 * p1;
        int n = 32;
        double[] a = new double[p * n];
        for (int i0 = 0; i0 < p0; i0++) {
            for (int i1 = 0; i1 < p1; i1++) {
                for (int j0 = 0; j0 < 4; j0++) {
                    for (int j1 = 0; j1 < 8; j1++) {
                        a[(i0 * p1 + i1) * n + j0 * 8 + j1] = a0[i0 * 4 + j0] * a1[i1 * 8 + j1];
                    }
                }
            }
        }
        double[] x = LinearFixtures.histogram(n, 4, 7);
        assertThat(h.measure(x)).containsExactly(LinearFixtures.multiply(a, p, n, x, 1), within(1e-12));
        SplittableRandom r = new SplittableRandom(5);
        double[] y = new double[p];
        for (int i = 0; i < p; i++) {
            y[i] = r.nextGaussian();
        }
        assertThat(h.estimate(y)).containsExactly(LinearFixtures.multiply(pseudoInverse(a, p, n), n, p, y, 1),
                within(1e-9));
        assertThat(h.maxColumnL1()).isEqualTo(3 * 4); // (log₂4 + 1)(log₂8 + 1)
        // Per-query variances: w_qᵀ(AᵀA)⁻¹w_q.
        double[] k = LinearFixtures.inverse(LinearFixtures.multiply(LinearFixtures.transpose(a, p, n), n, p, a, n), n);
        double[] variances = w.variances(h.covariance(2.5, d));
        for (int q = 0; q < w.queries(); q += 7) {
            double[] row = w.row(q);
            double expected = 2.5 * dot(row, LinearFixtures.multiply(k, n, n, row, 1));
            assertThat(variances[q]).isCloseTo(expected, within(1e-9));
        }
        // The dense (flattened) covariance form gives the same box variances.
        CellCovariance dense = new CellCovariance.Dense(2.5, k, d);
        double[] denseVariances = w.variances(dense);
        assertThat(denseVariances).containsExactly(variances, within(1e-9));
        double[] q = w.row(17);
        assertThat(dense.quadratic(q)).isCloseTo(variances[17], within(1e-9));
        assertThat(h.covariance(2.5, d).quadratic(q)).isCloseTo(variances[17], within(1e-9));
    }

    @Test
    void strategiesSurviveTheCodec() {
        Domain d = Domain.of(16);
        Workload w = Workload.prefix(d);
        ProductStrategy opt = Strategies.optimized(w, OptimizerOptions.convex(), OptimizationControl.none());
        LowRankStrategy lrm = Strategies.lowRank(Workload.custom(Domain.of(24), 6, LinearFixtures.related(6, 24, 2, 3)),
                LowRankOptions.defaults(), OptimizationControl.none());
        for (Strategy s : List.of(opt, Strategies.hierarchical(w), Strategies.identity(w), lrm)) {
            byte[] bytes = StrategyCodec.encode(s);
            Strategy back = StrategyCodec.decode(bytes);
            assertThat(back.info()).isEqualTo(s.info());
            assertThat(back.kind()).isEqualTo(s.kind());
            assertThat(back.rows()).isEqualTo(s.rows());
            assertThat(back.maxColumnL1()).isEqualTo(s.maxColumnL1());
            assertThat(back.maxColumnL2()).isEqualTo(s.maxColumnL2());
            assertThat(StrategyCodec.encode(back)).isEqualTo(bytes);
            double[] x = LinearFixtures.histogram(s.cells(), 9, 5);
            assertThat(back.measure(x)).containsExactly(s.measure(x), within(0.0));
            Domain dd = Domain.of(s.cells());
            Workload ww = Workload.allRange(dd);
            assertThat(ww.variances(back.covariance(1, dd))).containsExactly(ww.variances(s.covariance(1, dd)),
                    within(1e-7));
        }
        byte[] bad = StrategyCodec.encode(opt);
        bad[3] ^= 1;
        WorkloadTest.assertReason(() -> StrategyCodec.decode(bad), LinearQueryException.Reason.INVALID, "strategy");
        byte[] truncated = java.util.Arrays.copyOf(StrategyCodec.encode(opt), 100);
        WorkloadTest.assertReason(() -> StrategyCodec.decode(truncated), LinearQueryException.Reason.INVALID, "strategy");
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    @Test
    void aStoredEstimateRebuildsTheStrategiesOfTheCellsAloneAndNoOther() {
        Workload cells = Workload.identity(Domain.of(8));
        assertThat(Strategies.rebuilt("IDENTITY", cells)).get().extracting(Strategy::kind).isEqualTo("IDENTITY");
        assertThat(Strategies.rebuilt("HIERARCHICAL", cells)).get().extracting(Strategy::rows)
                .isEqualTo(Strategies.hierarchical(cells).rows());
        // optimised and low-rank strategies are stored under their key, not rebuilt
        assertThat(Strategies.rebuilt("OPTIMIZED/CONVEX", cells)).isEmpty();
        assertThat(Strategies.rebuilt("LOW_RANK", cells)).isEmpty();
    }
}
