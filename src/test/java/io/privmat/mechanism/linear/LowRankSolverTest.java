package io.privmat.mechanism.linear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.catalog.OptimizationControl;
import org.junit.jupiter.api.Test;

class LowRankSolverTest {

    @Test
    void factorisationIsValidAndItsSensitivityComesFromTheFinalL() {
        int m = 40;
        int n = 24;
        double[] w = LinearFixtures.related(m, n, 3, 6);
        Workload workload = Workload.custom(Domain.of(n), m, w);
        LowRankStrategy s = Strategies.lowRank(workload, LowRankOptions.defaults(), OptimizationControl.none());
        assertThat(s.fallback()).isFalse();
        assertThat(s.workloadRank()).isEqualTo(3);
        assertThat(s.rank()).isEqualTo(4); // ⌈1.2·3⌉
        int r = s.rank();
        double[] l = s.l();
        double[] b = LinearFixtures.multiply(w, m, n, s.m(), r); // B = W·M
        double[] bl = LinearFixtures.multiply(b, m, r, l, n);
        double residual = 0;
        for (int i = 0; i < w.length; i++) {
            residual += (w[i] - bl[i]) * (w[i] - bl[i]);
        }
        residual = Math.sqrt(residual);
        assertThat(residual).isCloseTo(s.residualFrobenius(), within(1e-9));
        assertThat(residual).isLessThan(0.01);
        double trace = 0;
        for (double v : b) {
            trace += v * v;
        }
        assertThat(trace).isCloseTo(s.traceBtB(), within(1e-8 * trace));
        // Δ_L is the largest column L1 norm of the final L, not 1.
        double delta = 0;
        for (int j = 0; j < n; j++) {
            double c = 0;
            for (int i = 0; i < r; i++) {
                c += Math.abs(l[i * n + j]);
            }
            delta = Math.max(delta, c);
        }
        assertThat(s.maxColumnL1()).isEqualTo(delta);
        assertThat(delta).isBetween(0.9, 1.001);
        assertThat(s.info().objective()).isCloseTo(delta * delta * trace, within(1e-8 * trace));
        // Far better than Laplace noise on x for this rank-3 workload.
        assertThat(s.info().objective()).isLessThan(0.5 * workload.frobeniusSquared());
        // Deterministic.
        assertThat(StrategyCodec.encode(Strategies.lowRank(Workload.custom(Domain.of(n), m, w), LowRankOptions.defaults(),
                OptimizationControl.none()))).isEqualTo(StrategyCodec.encode(s));
    }

    @Test
    void aFailedFactorisationFallsBackToTheIdentity() {
        // One iteration cannot reach the residual tolerance on a full-rank workload: the check fails.
        Workload w = Workload.custom(Domain.of(16), 16, LinearFixtures.random01(16, 16, 2));
        LowRankStrategy s = Strategies.lowRank(w, LowRankOptions.defaults().withMaxIterations(1),
                OptimizationControl.none());
        assertThat(s.fallback()).isTrue();
        assertThat(s.maxColumnL1()).isEqualTo(1);
        assertThat(s.rows()).isEqualTo(16);
        double[] x = LinearFixtures.histogram(16, 3, 9);
        assertThat(s.measure(x)).containsExactly(x);
        assertThat(s.info().objective()).isEqualTo(w.frobeniusSquared());
        assertThat(s.info().method()).isEqualTo("LOW_RANK/FALLBACK_IDENTITY");
    }

    @Test
    void l1ProjectionIsDuchisWithTheFloor() {
        double[] t = {0.5, 0.1, -0.9, 0.2, 0.0, 0.05}; // 3 × 2: columns (0.5, −0.9, 0.0) and (0.1, 0.2, 0.05)
        LowRankSolver.projectColumns(t, 3, 2);
        // Column 0: ‖·‖₁ = 1.4 > 1, θ = 0.2 → (0.3, −0.7, 0); column 1 inside the ball, unchanged.
        assertThat(t[0]).isCloseTo(0.3, within(1e-12));
        assertThat(t[2]).isCloseTo(-0.7, within(1e-12));
        assertThat(t[4]).isEqualTo(0.0);
        assertThat(t[1]).isCloseTo(0.1, within(1e-12));
        assertThat(t[3]).isCloseTo(0.2, within(1e-12));
        assertThat(t[5]).isCloseTo(0.05, within(1e-12));
        double[] small = {0.9, 1e-9, -0.5};
        LowRankSolver.projectColumns(small, 3, 1);
        assertThat(Math.abs(small[1])).isEqualTo(1e-8); // the reference code's floor
    }

    @Test
    void refusesTooLargeWorkloads() {
        WorkloadTest.assertReason(() -> Strategies.lowRank(Workload.prefix(Domain.of(LinearLimits.MAX_DENSE_CELLS + 1)),
                LowRankOptions.defaults(), OptimizationControl.none()), LinearQueryException.Reason.TOO_LARGE, "workload");
    }
}
