package io.privmat.mechanism.linear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.catalog.OptimizationControl;
import io.privmat.mechanism.linalg.LinearAlgebra;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;

class OptimizerTest {

    static double svdBound(double[] g, int n) {
        double s = 0;
        for (double v : LinearAlgebra.eigen(g, n).values()) {
            s += Math.sqrt(Math.max(v, 0));
        }
        return s * s / n;
    }

    static double traceGK(double[] g, double[] k) {
        double s = 0;
        for (int i = 0; i < g.length; i++) {
            s += g[i] * k[i];
        }
        return s;
    }

    @Test
    void convexSolutionIsFeasibleAndCertifiedOptimal() {
        int n = 48;
        for (double[] g : List.of(Generator.ALL_RANGE.gram(n), Generator.PREFIX.gram(n), randomGram(n, 2 * n, 3),
                randomGram(n, n / 2, 3))) {
            boolean fullRank = g != null && LinearAlgebra.eigen(g, n).values()[n - 1] > 1e-6;
            ConvexFactorSolver.Solution s = ConvexFactorSolver.solve(g, n, null, fullRank ? 200 : 2000, 1e-6,
                    OptimizationControl.none());
            DenseFactor f = s.factor();
            double[] ata = f.gram();
            double maxDiag = 0;
            for (int i = 0; i < n; i++) {
                maxDiag = Math.max(maxDiag, ata[i * n + i]);
            }
            assertThat(maxDiag).isCloseTo(1, within(1e-9));
            assertThat(f.maxColumnL2()).isCloseTo(1, within(1e-9));
            // K is (AᵀA)⁻¹ and the objective is tr(G·K).
            double[] product = LinearFixtures.multiply(ata, n, n, f.inverseGram(), n);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    assertThat(product[i * n + j]).isCloseTo(i == j ? 1 : 0, within(1e-6));
                }
            }
            assertThat(s.objective()).isCloseTo(traceGK(g, LinearFixtures.inverse(ata, n)), within(1e-6 * s.objective()));
            // Weak duality: SVD bound ≤ certified lower bound ≤ objective, and the gap is closed.
            assertThat(s.converged()).isTrue();
            assertThat(s.lowerBound()).isGreaterThanOrEqualTo(svdBound(g, n) * (1 - 1e-9));
            assertThat(s.objective()).isGreaterThanOrEqualTo(s.lowerBound());
            // Full rank: the gap closes to the tolerance (plus the 1e-8 regularisation); rank-deficient G
            // (regularised, then the bound corrected for it) converges more slowly.
            assertThat(s.objective()).isLessThanOrEqualTo(s.lowerBound() * (1 + (fullRank ? 3e-6 : 1e-4)));
            // No other unit-norm strategy does better: identity, the tree normalised, p-Identity.
            assertThat(s.objective()).isLessThanOrEqualTo(traceGK(g, Covariance1D.identity(n).dense()));
            PIdentitySolver.Solution p = PIdentitySolver.solve(g, n, 4, null, 2, 1, 500, 1e-9, OptimizationControl.none());
            assertThat(s.objective()).isLessThanOrEqualTo(p.objective() * (1 + 1e-9));
            assertThat(p.factor().maxColumnL2()).isCloseTo(1, within(1e-9));
            assertThat(p.objective()).isCloseTo(traceGK(g, LinearFixtures.inverse(p.factor().gram(), n)),
                    within(1e-6 * p.objective()));
        }
    }

    static double[] randomGram(int n, int m, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] w = new double[m * n];
        for (int i = 0; i < w.length; i++) {
            w[i] = r.nextGaussian();
        }
        return LinearFixtures.multiply(LinearFixtures.transpose(w, m, n), n, m, w, n);
    }

    @Test
    void pIdentityGradientIsTheDerivative() {
        int n = 12;
        int p = 3;
        double[] g = Generator.ALL_RANGE.gram(n);
        SplittableRandom r = new SplittableRandom(4);
        double[] theta = new double[p * n];
        for (int i = 0; i < theta.length; i++) {
            theta[i] = r.nextDouble();
        }
        double[] grad = new double[p * n];
        PIdentitySolver.evaluate(g, n, p, theta, grad);
        for (int i = 0; i < theta.length; i++) {
            double[] plus = theta.clone();
            double[] minus = theta.clone();
            plus[i] += 1e-6;
            minus[i] -= 1e-6;
            double numeric = (PIdentitySolver.evaluate(g, n, p, plus, null) - PIdentitySolver.evaluate(g, n, p, minus, null))
                    / 2e-6;
            assertThat(grad[i]).isCloseTo(numeric, within(1e-5 * Math.max(1, Math.abs(numeric))));
        }
    }

    @Test
    void optimisationIsAPureFunctionOfItsPublicInputs() {
        Workload w = Workload.allRange(Domain.of(24));
        for (OptimizerOptions o : List.of(OptimizerOptions.convex(), OptimizerOptions.pIdentity().withRestarts(2))) {
            byte[] first = StrategyCodec.encode(Strategies.optimized(w, o, OptimizationControl.none()));
            byte[] second = StrategyCodec.encode(Strategies.optimized(Workload.allRange(Domain.of(24)), o,
                    OptimizationControl.none()));
            assertThat(second).isEqualTo(first);
        }
    }

    @Test
    void productStrategiesForMarginalsBeatIdentityAndTheTree() {
        Workload w = Workload.marginals(Domain.of(4, 6, 5, 3), 2);
        ProductStrategy opt = Strategies.optimized(w, OptimizerOptions.convex(), OptimizationControl.none());
        assertThat(opt.factors()).allMatch(f -> f instanceof DenseFactor);
        double optimised = opt.info().objective();
        // The objective is Δ₂²·Σ_q Var(w_qᵀx̂) at unit noise.
        assertThat(optimised).isCloseTo(Strategies.totalVariance(w, opt) * Math.pow(opt.maxColumnL2(), 2),
                within(1e-6 * optimised));
        assertThat(optimised).isLessThan(0.9 * Strategies.identity(w).info().objective());
        assertThat(optimised).isLessThan(Strategies.hierarchical(w).info().objective());
        ProductStrategy p = Strategies.optimized(w, OptimizerOptions.pIdentity().withRestarts(1),
                OptimizationControl.none());
        assertThat(p.info().objective()).isLessThan(Strategies.identity(w).info().objective());
    }

    @Test
    void flattenedAndLargeAttributes() {
        // A CUSTOM workload on a two-attribute domain is optimised as one factor over the 20 cells.
        Domain d = Domain.of(4, 5);
        Workload custom = Workload.custom(d, 12, LinearFixtures.random01(12, 20, 8));
        ProductStrategy s = Strategies.optimized(custom, OptimizerOptions.convex(), OptimizationControl.none());
        assertThat(s.shape()).containsExactly(20);
        CellCovariance cov = s.covariance(1, d);
        assertThat(cov).isInstanceOf(CellCovariance.Dense.class);
        double[] k = ((DenseFactor) s.factors().get(0)).inverseGram();
        double[] row = custom.row(3);
        assertThat(custom.variances(cov)[3]).isCloseTo(StrategyTest.dot(row, LinearFixtures.multiply(k, 20, 20, row, 1)),
                within(1e-9));
        // Attributes above the optimisation limit get the tree.
        Workload big = Workload.prefix(Domain.of(LinearLimits.MAX_OPTIMIZED_ATTRIBUTE + 1, 2));
        ProductStrategy b = Strategies.optimized(big, OptimizerOptions.convex(), OptimizationControl.none());
        assertThat(b.factors().get(0)).isInstanceOf(TreeFactor.class);
        assertThat(b.factors().get(1)).isInstanceOf(DenseFactor.class);
    }

    @Test
    void progressIsReportedAndCancellationStops() {
        Workload w = Workload.marginals(Domain.of(5, 5, 5), 2);
        List<Double> progress = new ArrayList<>();
        Strategies.optimized(w, OptimizerOptions.convex(), new OptimizationControl(progress::add, () -> false));
        assertThat(progress).isNotEmpty();
        for (int i = 1; i < progress.size(); i++) {
            assertThat(progress.get(i)).isGreaterThanOrEqualTo(progress.get(i - 1) - 1e-12);
        }
        assertThat(progress.get(progress.size() - 1)).isEqualTo(1.0);
        int[] calls = {0};
        assertThatThrownBy(() -> Strategies.optimized(w, OptimizerOptions.convex(),
                new OptimizationControl(p -> { }, () -> ++calls[0] > 3))).isInstanceOf(CancellationException.class);
        assertThatThrownBy(() -> Strategies.lowRank(Workload.custom(Domain.of(20), 5, LinearFixtures.random01(5, 20, 1)),
                LowRankOptions.defaults(), new OptimizationControl(p -> { }, () -> true)))
                .isInstanceOf(CancellationException.class);
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> Strategies.optimized(w, OptimizerOptions.convex(), OptimizationControl.none()))
                    .isInstanceOf(CancellationException.class);
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void optionsAreValidated() {
        WorkloadTest.assertReason(() -> OptimizerOptions.convex().withRestarts(0), LinearQueryException.Reason.INVALID,
                "options.restarts");
        WorkloadTest.assertReason(() -> OptimizerOptions.convex().withTolerance(0), LinearQueryException.Reason.INVALID,
                "options.tolerance");
        WorkloadTest.assertReason(() -> new LowRankOptions(0.5, 0.01, 0.01, 100), LinearQueryException.Reason.INVALID,
                "options.rankFactor");
        assertThat(OptimizerOptions.convex().canonical()).isNotEqualTo(OptimizerOptions.pIdentity().canonical());
    }
}
