package io.privmat.mechanism.catalog;

import static io.privmat.mechanism.catalog.IntervalCoverageTest.LEVEL;
import static io.privmat.mechanism.catalog.IntervalCoverageTest.RUNS;
import static io.privmat.mechanism.catalog.IntervalCoverageTest.matrix;
import static io.privmat.mechanism.catalog.IntervalCoverageTest.matrixFacts;
import static io.privmat.mechanism.catalog.IntervalCoverageTest.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.mechanism.sketch.Interval;
import io.privmat.mechanism.sketch.JlMatrixSketch;
import io.privmat.mechanism.sketch.QuadraticForms;
import io.privmat.privacy.AccountingMode;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Coverage of the intervals that stored releases give their free answers (directional variances of
 * Analyze Gauss, Wishart and JL matrix releases), of ADASSP's coefficient intervals and of a window
 * release's norm bound: {@value IntervalCoverageTest#RUNS} seeded releases per case, each answering a
 * fixed set of directions (one of them of tiny variance, where the raw estimate goes negative and
 * is clamped). Prints its lines of docs/accuracy/intervals.md.
 */
class ReleaseCoverageTest {

    static final int D = 6;

    /** Unit directions: the dominant axis, a diagonal, and a direction of tiny variance. */
    static double[][] directions(double[] gram) {
        double[] diag = new double[D];
        java.util.Arrays.fill(diag, 1 / Math.sqrt(D));
        double[] axis = new double[D];
        axis[0] = 1;
        // The eigenvector of the smallest eigenvalue: the data's least variance.
        var eig = LinearAlgebra.eigen(gram, D);
        double[] least = new double[D];
        for (int i = 0; i < D; i++) {
            least[i] = eig.vectors()[i * D + D - 1];
        }
        return new double[][] {axis, diag, least};
    }

    static double quadratic(double[] m, double[] x) {
        double s = 0;
        for (int i = 0; i < D; i++) {
            for (int j = 0; j < D; j++) {
                s += x[i] * m[i * D + j] * x[j];
            }
        }
        return s;
    }

    interface Answer {
        Interval of(Release release, double[] unit);
    }

    static IntervalCoverageTest.Coverage answers(Plan plan, InMemoryData data, ErrorBasis basis, long seed,
            Answer answer) {
        double[] gram = data.gram(false).gram();
        double[][] xs = directions(gram);
        int covered = 0;
        int trials = 0;
        int clamped = 0;
        for (int run = 0; run < RUNS; run++) {
            Release release = plan.release(data, TestNoiseSources.seeded(seed + run));
            for (double[] x : xs) {
                Interval i = answer.of(release, x);
                double truth = quadratic(gram, x);
                assertThat(i.lower()).isLessThanOrEqualTo(i.estimate());
                assertThat(i.estimate()).isLessThanOrEqualTo(i.upper()).isGreaterThanOrEqualTo(0);
                clamped += i.estimate() == 0 ? 1 : 0;
                covered += i.lower() <= truth && truth <= i.upper() ? 1 : 0;
                trials++;
            }
        }
        System.out.println("(" + plan.spec().mechanism() + ": " + clamped + " of " + trials + " estimates clamped at 0)");
        return new IntervalCoverageTest.Coverage(plan.spec().mechanism(), "directionalVariance (free answers)", basis,
                covered, trials, seed);
    }

    @Test
    void analyzeGaussDirectionalVariance() {
        InMemoryData data = InMemoryData.matrix(matrix(100, D, 11));
        Plan plan = plan("ANALYZE_GAUSS", "COVARIANCE", new QueryBudget(null, null, new BigDecimal("0.5")), Map.of(),
                matrixFacts(D, 100L, AccountingMode.ZCDP));
        double sigma = plan.noise().get(NoiseFacts.SIGMA);
        double g = plan.noise().get(NoiseFacts.GRANULARITY);
        // Independent noise per run; the three directions of a run share it, so the trials are
        // not independent: the tolerance of the binomial test is kept (conservative enough here).
        answers(plan, data, ErrorBasis.EXACT, 11_000, (r, x) -> QuadraticForms.analyzeGauss(
                ((Release.Covariance) r).storable(), D, sigma, g, 1 - LEVEL, x)).check();
    }

    @Test
    void wishartDirectionalVariance() {
        InMemoryData data = InMemoryData.matrix(matrix(100, D, 12));
        Plan plan = plan("WISHART", "SKETCH", new QueryBudget(BigDecimal.ONE, new BigDecimal("1e-6"), null), Map.of(),
                matrixFacts(D, 100L, AccountingMode.ZCDP));
        long k = plan.noise().get(NoiseFacts.DEGREES_OF_FREEDOM);
        answers(plan, data, ErrorBasis.BOUND, 12_000, (r, x) -> {
            Release.Sketch s = (Release.Sketch) r;
            return QuadraticForms.wishart(s.values(), D, k, 1.0, s.meta().get(ReleaseMeta.GRANULARITY),
                    1 - LEVEL, x);
        }).check();
    }

    @Test
    void jlMatrixDirectionalVariance() {
        InMemoryData data = InMemoryData.matrix(matrix(100, D, 13));
        QueryBudget budget = new QueryBudget(BigDecimal.ONE, new BigDecimal("1e-6"), null);
        Plan plan = plan("JL", "SKETCH", budget, Map.of(), matrixFacts(D, 100L, AccountingMode.ZCDP));
        var p = JlMatrixSketch.of(D, 1.0, budget.epsilon(), budget.delta(), 0.2, 1 - LEVEL).parameters();
        answers(plan, data, ErrorBasis.BOUND, 13_000, (r, x) -> JlMatrixSketch.directionalVariance(
                ((Release.Sketch) r).values(), D, p, x)).check();
    }

    /** ADASSP's simultaneous coefficient bounds against the data's ridge solution at the released ridge. */
    @Test
    void adaSspCoefficients() {
        double[][] rows = matrix(400, D, 14);
        InMemoryData data = InMemoryData.matrix(rows);
        Plan plan = plan("ADASSP", "REGRESSION", new QueryBudget(null, null, new BigDecimal("0.5")), Map.of(),
                matrixFacts(D, 400L, AccountingMode.ZCDP));
        double[] gram = data.gram(false).gram();
        int p = D - 1;
        int covered = 0;
        int approxCovered = 0;
        int stated = 0;
        for (int run = 0; run < RUNS; run++) {
            Release release = plan.release(data, TestNoiseSources.seeded(14_000 + run));
            ResultAccuracy acc = MechanismCatalog.standard().accuracy(plan, release, LEVEL);
            var result = ((Release.Regression) release).result();
            double[] truth = ridge(gram, p, result.ridge());
            if (acc.intervals().stream().anyMatch(i -> i.quantity().equals("coefficients"))) {
                IntervalSet set = acc.interval("coefficients");
                boolean all = true;
                for (int j = 0; j < p; j++) {
                    all &= set.covers(j, truth[j]);
                }
                covered += all ? 1 : 0;
                stated++;
            }
            IntervalSet approx = acc.interval("coefficients (approximate)");
            for (int j = 0; j < p; j++) {
                approxCovered += approx.covers(j, truth[j]) ? 1 : 0;
            }
        }
        assertThat(stated).as("runs with finite bounds").isGreaterThanOrEqualTo(RUNS / 2);
        new IntervalCoverageTest.Coverage("ADASSP", "coefficients (simultaneous)", ErrorBasis.BOUND, covered, stated,
                14_000).check();
        // The first-order intervals carry no guarantee: printed for the table, not tested.
        System.out.printf("| ADASSP | coefficients (approximate, per coefficient) | ASYMPTOTIC | %.2f | %.3f | %d | %d | — |%n",
                LEVEL, (double) approxCovered / (RUNS * p), RUNS * p, 14_000);
    }

    /** (X_SᵀX_S + λI)⁻¹X_Sᵀy for the last column on the others, from the Gram matrix. */
    static double[] ridge(double[] gram, int p, double lambda) {
        double[][] a = new double[p][p + 1];
        for (int i = 0; i < p; i++) {
            for (int j = 0; j < p; j++) {
                a[i][j] = gram[i * D + j] + (i == j ? lambda : 0);
            }
            a[i][p] = gram[i * D + D - 1];
        }
        for (int c = 0; c < p; c++) {
            int pivot = c;
            for (int r = c + 1; r < p; r++) {
                if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) {
                    pivot = r;
                }
            }
            double[] tmp = a[c];
            a[c] = a[pivot];
            a[pivot] = tmp;
            for (int r = 0; r < p; r++) {
                if (r != c) {
                    double f = a[r][c] / a[c][c];
                    for (int k = c; k <= p; k++) {
                        a[r][k] -= f * a[c][k];
                    }
                }
            }
        }
        double[] x = new double[p];
        for (int i = 0; i < p; i++) {
            x[i] = a[i][p] / a[i][i];
        }
        return x;
    }

    /** A window release (BLOCKS, the first full block as the window): its Frobenius and eigenvalue bounds. */
    @Test
    void windowBlocksCovariance() {
        int n = 8;
        InMemoryData data = InMemoryData.matrix(matrix(n, D, 15));
        double[] gram = data.gram(false).gram();
        PublicFacts facts = PublicFacts.stream(D, 1.0, NeighbouringRelation.REPLACE_ONE, AccountingMode.ZCDP,
                new StreamLayout(BlockRule.ROW_COUNT, n, 4, 100, false));
        Plan plan = plan("BLOCKS", "COVARIANCE", new QueryBudget(null, null, new BigDecimal("0.5")), Map.of(), facts);
        IntervalCoverageTest.statement(plan, data, "covariance", "frobeniusNorm",
                r -> IntervalCoverageTest.frobenius(((Release.Covariance) r).result().covariance(), gram), 15_000).check();
        IntervalCoverageTest.statement(plan, data, "eigenvalues", "absPerEigenvalue",
                IntervalCoverageTest.eigenvalueError(gram, D), 15_000).check();
    }
}
