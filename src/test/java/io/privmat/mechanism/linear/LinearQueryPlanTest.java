package io.privmat.mechanism.linear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.OptimizationControl;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.GaussianLoss;
import io.privmat.privacy.PureDp;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LinearQueryPlanTest {

    static final Domain LINE = Domain.of(16);
    static final int RUNS = 1000;

    record Case(String name, LinearQueryPlan plan) {}

    static List<Case> cases() {
        Workload ranges = Workload.allRange(LINE);
        Workload related = Workload.custom(Domain.of(20), 30, LinearFixtures.related(30, 20, 3, 7));
        Workload marginals = Workload.marginals(Domain.of(3, 4, 2), 2);
        NeighbouringRelation ar = NeighbouringRelation.ADD_REMOVE;
        NeighbouringRelation ro = NeighbouringRelation.REPLACE_ONE;
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("laplace identity", LinearQueryPlan.of(ranges, LinearMechanism.LAPLACE_IDENTITY,
                new LinearBudget.Pure(1), ar, null)));
        cases.add(new Case("gaussian identity", LinearQueryPlan.of(ranges, LinearMechanism.GAUSSIAN_IDENTITY,
                new LinearBudget.Rho(0.5), ro, null)));
        cases.add(new Case("laplace workload", LinearQueryPlan.of(ranges, LinearMechanism.LAPLACE_WORKLOAD,
                new LinearBudget.Pure(2), ar, null)));
        cases.add(new Case("hierarchical laplace", LinearQueryPlan.of(ranges, LinearMechanism.HIERARCHICAL,
                new LinearBudget.Pure(1), ar, null)));
        cases.add(new Case("hierarchical gaussian", LinearQueryPlan.of(marginals, LinearMechanism.HIERARCHICAL,
                new LinearBudget.EpsilonDelta(1, 1e-6), ro, null)));
        cases.add(new Case("optimized ranges", LinearQueryPlan.of(ranges, LinearMechanism.OPTIMIZED,
                new LinearBudget.Rho(0.5), ar,
                Strategies.optimized(ranges, OptimizerOptions.convex(), OptimizationControl.none()))));
        cases.add(new Case("optimized marginals", LinearQueryPlan.of(marginals, LinearMechanism.OPTIMIZED,
                new LinearBudget.Rho(1), ro,
                Strategies.optimized(marginals, OptimizerOptions.convex(), OptimizationControl.none()))));
        cases.add(new Case("low rank", LinearQueryPlan.of(related, LinearMechanism.LOW_RANK_MECHANISM,
                new LinearBudget.Pure(1), ar,
                Strategies.lowRank(related, LowRankOptions.defaults(), OptimizationControl.none()))));
        return cases;
    }

    /**
     * For every mechanism: over 1000 seeded releases, the mean of Σ_q (answer_q − (Wx)_q)² agrees with
     * the expected total squared error (plus, for the Low-Rank Mechanism, its exact deterministic bias
     * ‖(BL − W)x‖²) within 4 standard errors, and the standard error is below 5% of the expectation,
     * so the check is sharp. Per query, the mean squared error of the first queries agrees with the
     * reported variance within 5 standard errors.
     */
    @Test
    void expectedErrorAgreesWithSeededMonteCarlo() {
        int seed = 0;
        for (Case c : cases()) {
            LinearQueryPlan plan = c.plan();
            Workload w = plan.workload();
            double[] x = LinearFixtures.histogram(w.cells(), 17, 30);
            double[] truth = w.answer(x);
            double bias2 = 0;
            double[] mean = truth;
            if (plan.strategy() instanceof LowRankStrategy l) {
                // Noise-free B(Lx) = W·M·L·x.
                mean = w.answer(l.estimate(l.measure(x)));
                for (int q = 0; q < truth.length; q++) {
                    bias2 += (mean[q] - truth[q]) * (mean[q] - truth[q]);
                }
                assertThat(bias2).isLessThan(1e-2 * plan.expectedError().totalSquaredError());
            }
            double expected = plan.expectedError().totalSquaredError() + bias2;
            double[] variances = plan.variances();
            int tracked = Math.min(5, truth.length);
            double[] perQuery = new double[tracked];
            double[] perQuery2 = new double[tracked];
            double sum = 0;
            double sum2 = 0;
            for (int r = 0; r < RUNS; r++) {
                LinearQueryRelease release = plan.release(x, TestNoiseSources.seeded(1_000_000L * ++seed + r));
                double total = 0;
                for (int q = 0; q < truth.length; q++) {
                    double e = release.answers()[q] - truth[q];
                    total += e * e;
                    if (q < tracked) {
                        double e2 = (release.answers()[q] - mean[q]) * (release.answers()[q] - mean[q]);
                        perQuery[q] += e2;
                        perQuery2[q] += e2 * e2;
                    }
                }
                sum += total;
                sum2 += total * total;
            }
            double m = sum / RUNS;
            double se = Math.sqrt((sum2 / RUNS - m * m) / RUNS);
            assertThat(se).as(c.name() + " standard error").isLessThan(0.05 * expected);
            assertThat(m).as(c.name() + " mean total squared error").isCloseTo(expected, within(4 * se));
            for (int q = 0; q < tracked; q++) {
                double pm = perQuery[q] / RUNS;
                double pse = Math.sqrt((perQuery2[q] / RUNS - pm * pm) / RUNS);
                assertThat(pm).as(c.name() + " query " + q).isCloseTo(variances[q], within(5 * pse));
            }
            assertThat(plan.expectedError().perQueryRmse()).isCloseTo(
                    Math.sqrt(plan.expectedError().totalSquaredError() / w.queries()), within(1e-12));
        }
    }

    @Test
    void furtherQueriesHaveTheReportedStandardDeviation() {
        Workload ranges = Workload.allRange(LINE);
        LinearQueryPlan plan = LinearQueryPlan.of(ranges, LinearMechanism.OPTIMIZED, new LinearBudget.Rho(0.5),
                NeighbouringRelation.ADD_REMOVE,
                Strategies.optimized(ranges, OptimizerOptions.convex(), OptimizationControl.none()));
        double[] x = LinearFixtures.histogram(16, 3, 20);
        SplittableRandom r = new SplittableRandom(1);
        double[] q = new double[16];
        for (int i = 0; i < 16; i++) {
            q[i] = r.nextGaussian();
        }
        double truth = StrategyTest.dot(q, x);
        Box box = Box.of(LINE, new int[] {3}, new int[] {11});
        double boxTruth = 0;
        for (int i = 3; i <= 11; i++) {
            boxTruth += x[i];
        }
        double s = 0;
        double s2 = 0;
        double b = 0;
        double b2 = 0;
        double reported = Double.NaN;
        double boxReported = Double.NaN;
        for (int run = 0; run < 2000; run++) {
            Estimate e = plan.release(x, TestNoiseSources.seeded(77_000 + run)).estimate();
            FurtherAnswer a = e.answer(q);
            reported = a.standardDeviation();
            assertThat(a.biasFactor()).isZero();
            double d = a.value() - truth;
            s += d * d;
            s2 += d * d * d * d;
            FurtherAnswer ab = e.answer(box);
            boxReported = ab.standardDeviation();
            double db = ab.value() - boxTruth;
            b += db * db;
            b2 += db * db * db * db;
        }
        double mean = s / 2000;
        assertThat(mean).isCloseTo(reported * reported, within(4 * Math.sqrt((s2 / 2000 - mean * mean) / 2000)));
        double boxMean = b / 2000;
        assertThat(boxMean).isCloseTo(boxReported * boxReported,
                within(4 * Math.sqrt((b2 / 2000 - boxMean * boxMean) / 2000)));
        // The box [3, 11] is query (3, 11) of the all-range workload: the same standard deviation.
        int index = 0;
        for (int lo = 0; lo < 3; lo++) {
            index += 16 - lo;
        }
        index += 11 - 3;
        assertThat(plan.standardDeviations()[index]).isCloseTo(boxReported, within(1e-9));
    }

    @Test
    void lowRankFurtherQueriesReportTheirBiasFactor() {
        Workload related = Workload.custom(Domain.of(20), 30, LinearFixtures.related(30, 20, 3, 7));
        LinearQueryPlan plan = LinearQueryPlan.of(related, LinearMechanism.LOW_RANK_MECHANISM,
                new LinearBudget.Pure(1), NeighbouringRelation.ADD_REMOVE,
                Strategies.lowRank(related, LowRankOptions.defaults(), OptimizationControl.none()));
        Estimate e = plan.release(LinearFixtures.histogram(20, 1, 9), TestNoiseSources.seeded(5)).estimate();
        // A workload row is reproduced (up to the residual); a cell indicator is not (rank 3).
        assertThat(e.answer(related.row(4)).biasFactor()).isLessThan(0.01);
        double[] cell = new double[20];
        cell[0] = 1;
        assertThat(e.answer(cell).biasFactor()).isGreaterThan(0.1);
    }

    @Test
    void sensitivitiesFollowTheRelation() {
        Workload ranges = Workload.allRange(LINE);
        double eps = 1;
        LinearQueryPlan ar = LinearQueryPlan.of(ranges, LinearMechanism.LAPLACE_IDENTITY, new LinearBudget.Pure(eps),
                NeighbouringRelation.ADD_REMOVE, null);
        LinearQueryPlan ro = LinearQueryPlan.of(ranges, LinearMechanism.LAPLACE_IDENTITY, new LinearBudget.Pure(eps),
                NeighbouringRelation.REPLACE_ONE, null);
        assertThat(ar.expectedError().sensitivity()).isCloseTo(1, within(1e-8));
        assertThat(ro.expectedError().sensitivity()).isCloseTo(2, within(1e-8));
        assertThat(ro.laplaceScale() / ar.laplaceScale()).isCloseTo(2, within(1e-3));
        // Laplace on x: Var(answer_q) = 2b²·|q| (discrete Laplace on the grid: 2b² to 1e-6).
        double b = ar.laplaceScale();
        double[] v = ar.variances();
        assertThat(v[5]).isCloseTo(2 * b * b * 6, within(1e-6 * v[5])); // query [0, 5]
        LinearQueryPlan gar = LinearQueryPlan.of(ranges, LinearMechanism.GAUSSIAN_IDENTITY, new LinearBudget.Rho(0.5),
                NeighbouringRelation.ADD_REMOVE, null);
        LinearQueryPlan gro = LinearQueryPlan.of(ranges, LinearMechanism.GAUSSIAN_IDENTITY, new LinearBudget.Rho(0.5),
                NeighbouringRelation.REPLACE_ONE, null);
        assertThat(gro.gaussianSigma() / gar.gaussianSigma()).isCloseTo(Math.sqrt(2), within(1e-3));
        // LAPLACE_WORKLOAD: the largest column L1 norm of W, (j + 1)(n − j) at the middle = 72.
        LinearQueryPlan wl = LinearQueryPlan.of(ranges, LinearMechanism.LAPLACE_WORKLOAD, new LinearBudget.Pure(eps),
                NeighbouringRelation.ADD_REMOVE, null);
        assertThat(wl.expectedError().sensitivity()).isCloseTo(72, within(1e-6));
        // HIERARCHICAL: L + 1 = 5 levels on 16 cells; Gaussian √5.
        LinearQueryPlan h = LinearQueryPlan.of(ranges, LinearMechanism.HIERARCHICAL, new LinearBudget.Pure(eps),
                NeighbouringRelation.ADD_REMOVE, null);
        assertThat(h.expectedError().sensitivity()).isCloseTo(5, within(1e-6));
        LinearQueryPlan hg = LinearQueryPlan.of(ranges, LinearMechanism.HIERARCHICAL, new LinearBudget.Rho(1),
                NeighbouringRelation.REPLACE_ONE, null);
        assertThat(hg.expectedError().sensitivity()).isCloseTo(Math.sqrt(10), within(1e-6));
    }

    @Test
    void privacyLossesAreWhatWasAskedFor() {
        Workload ranges = Workload.allRange(LINE);
        LinearQueryPlan lap = LinearQueryPlan.of(ranges, LinearMechanism.LAPLACE_IDENTITY, new LinearBudget.Pure(0.7),
                NeighbouringRelation.ADD_REMOVE, null);
        assertThat(lap.privacyLoss()).isEqualTo(PureDp.of(0.7));
        LinearQueryPlan rho = LinearQueryPlan.of(ranges, LinearMechanism.OPTIMIZED, new LinearBudget.Rho(0.25),
                NeighbouringRelation.ADD_REMOVE,
                Strategies.optimized(ranges, OptimizerOptions.convex(), OptimizationControl.none()));
        GaussianLoss loss = (GaussianLoss) rho.privacyLoss();
        assertThat(loss.rho()).isLessThanOrEqualTo(new BigDecimal("0.25")).isGreaterThan(new BigDecimal("0.2497"));
        LinearQueryPlan approx = LinearQueryPlan.of(ranges, LinearMechanism.GAUSSIAN_IDENTITY,
                new LinearBudget.EpsilonDelta(1, 1e-6), NeighbouringRelation.REPLACE_ONE, null);
        assertThat(((GaussianLoss) approx.privacyLoss()).delta(1)).isLessThanOrEqualTo(1e-6);
        assertThat(approx.calibratedApproxDp()).isNotNull();
    }

    @Test
    void budgetsAndStrategiesMustFitTheMechanism() {
        Workload ranges = Workload.allRange(LINE);
        NeighbouringRelation ar = NeighbouringRelation.ADD_REMOVE;
        WorkloadTest.assertReason(() -> LinearQueryPlan.of(ranges, LinearMechanism.LAPLACE_IDENTITY,
                new LinearBudget.Rho(1), ar, null), LinearQueryException.Reason.UNSUPPORTED, "budget");
        WorkloadTest.assertReason(() -> LinearQueryPlan.of(ranges, LinearMechanism.OPTIMIZED,
                new LinearBudget.Pure(1), ar, null), LinearQueryException.Reason.UNSUPPORTED, "budget");
        WorkloadTest.assertReason(() -> LinearQueryPlan.of(ranges, LinearMechanism.OPTIMIZED,
                new LinearBudget.Rho(1), ar, null), LinearQueryException.Reason.UNSUPPORTED, "strategy");
        ProductStrategy forPrefix = Strategies.optimized(Workload.prefix(LINE), OptimizerOptions.convex(),
                OptimizationControl.none());
        WorkloadTest.assertReason(() -> LinearQueryPlan.of(ranges, LinearMechanism.OPTIMIZED,
                new LinearBudget.Rho(1), ar, forPrefix), LinearQueryException.Reason.UNSUPPORTED, "strategy");
        WorkloadTest.assertReason(() -> LinearQueryPlan.of(ranges, LinearMechanism.LOW_RANK_MECHANISM,
                new LinearBudget.Pure(1), ar, forPrefix), LinearQueryException.Reason.UNSUPPORTED, "strategy");
        LinearQueryPlan plan = LinearQueryPlan.of(ranges, LinearMechanism.LAPLACE_IDENTITY, new LinearBudget.Pure(1), ar,
                null);
        WorkloadTest.assertReason(() -> plan.release(new double[15], TestNoiseSources.seeded(1)),
                LinearQueryException.Reason.SHAPE_MISMATCH, "x");
    }

    @Test
    void releasesAreReproducibleAndTheirErrorIsDataIndependent() {
        Workload ranges = Workload.allRange(Domain.of(4, 8), 1);
        LinearQueryPlan plan = LinearQueryPlan.of(ranges, LinearMechanism.HIERARCHICAL, new LinearBudget.Rho(1),
                NeighbouringRelation.ADD_REMOVE, null);
        double[] x = LinearFixtures.histogram(32, 8, 50);
        double[] y = LinearFixtures.histogram(32, 9, 5000);
        LinearQueryRelease a = plan.release(x, TestNoiseSources.seeded(42));
        LinearQueryRelease b = plan.release(x, TestNoiseSources.seeded(42));
        assertThat(b.answers()).containsExactly(a.answers());
        LinearQueryRelease c = plan.release(y, TestNoiseSources.seeded(42));
        assertThat(c.standardDeviations()).containsExactly(a.standardDeviations());
        assertThat(c.expectedError()).isEqualTo(a.expectedError());
        assertThat(a.answers()).containsExactly(ranges.answer(a.estimate().values()), within(1e-9));
        LinearQueryRelease workload = LinearQueryPlan.of(ranges, LinearMechanism.LAPLACE_WORKLOAD,
                new LinearBudget.Pure(1), NeighbouringRelation.ADD_REMOVE, null).release(x, TestNoiseSources.seeded(1));
        assertThat(workload.estimate()).isNull();
        assertThat(workload.answers()).hasSize(ranges.queries());
    }
}
