package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.AccountingMode;
import java.math.BigDecimal;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;

/**
 * Coverage of the stated 95% intervals and bounds, per mechanism family, through the pure catalogue
 * values (no HTTP): {@value #RUNS} seeded releases of a small fixed dataset per case, counting how often
 * the stated interval (or norm ball) contains the truth. An EXACT interval must cover at a rate
 * consistent with 95% (two-sided binomial test, |z| ≤ {@value #Z}); a BOUND at least that
 * (one-sided: z ≥ −{@value #Z}). Each case prints its line of the table in docs/accuracy/intervals.md.
 */
class IntervalCoverageTest {

    static final int RUNS = 400;
    static final double LEVEL = 0.95;
    /** Tolerance of the binomial test, in standard errors (two-sided p ≈ 0.001). */
    static final double Z = 3.3;

    /** Observed coverage and whether it is consistent with the basis. */
    record Coverage(String mechanism, String quantity, ErrorBasis basis, int covered, int runs, long seed) {
        double rate() {
            return (double) covered / runs;
        }

        double z() {
            return (rate() - LEVEL) / Math.sqrt(LEVEL * (1 - LEVEL) / runs);
        }

        void check() {
            System.out.printf("| %s | %s | %s | %.2f | %.3f | %d | %d |%n", mechanism, quantity, basis, LEVEL, rate(),
                    runs, seed);
            if (basis == ErrorBasis.EXACT) {
                assertThat(Math.abs(z())).as(this + " rate " + rate()).isLessThanOrEqualTo(Z);
            } else {
                assertThat(z()).as(this + " rate " + rate()).isGreaterThanOrEqualTo(-Z);
            }
        }
    }

    static double[][] matrix(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] rows = new double[n][d];
        for (double[] row : rows) {
            double norm = 0;
            for (int j = 0; j < d; j++) {
                row[j] = r.nextGaussian() + (j == 0 ? 2 : 0);
                norm += row[j] * row[j];
            }
            double scale = r.nextDouble() / Math.sqrt(norm); // norms ≤ 1 = B
            for (int j = 0; j < d; j++) {
                row[j] *= scale;
            }
        }
        return rows;
    }

    static Plan plan(String mechanism, String kind, Budget budget, Map<String, Object> params, PublicFacts facts) {
        return MechanismCatalog.standard().plan(kind, mechanism, budget, params, facts);
    }

    static PublicFacts matrixFacts(int d, Long rows, AccountingMode mode) {
        return new PublicFacts(DataShape.MATRIX, d, rows, 1.0, rows == null ? NeighbouringRelation.ADD_REMOVE
                : NeighbouringRelation.REPLACE_ONE, mode);
    }

    /** Per-entry coverage: every entry of every run counts (runs × entries trials). */
    static Coverage entries(Plan plan, DataAccess data, String quantity, double[] truth, long seed) {
        MechanismDefinition m = MechanismCatalog.standard().find(plan.spec().mechanism()).orElseThrow();
        int covered = 0;
        int trials = 0;
        ErrorBasis basis = null;
        for (int run = 0; run < RUNS; run++) {
            Release release = plan.release(data, TestNoiseSources.seeded(seed + run));
            IntervalSet set = m.accuracy(plan, release, LEVEL).interval(quantity);
            basis = set.basis();
            for (int i = 0; i < truth.length; i++) {
                covered += set.covers(i, truth[i]) ? 1 : 0;
                trials++;
            }
        }
        return new Coverage(plan.spec().mechanism(), quantity, basis, covered, trials, seed);
    }

    /** Coverage of a whole-quantity statement: {@code holds} decides per run. */
    static Coverage statement(Plan plan, DataAccess data, String quantity, String metric,
            BiPredicate<Release, ErrorStatement> holds, long seed) {
        MechanismDefinition m = MechanismCatalog.standard().find(plan.spec().mechanism()).orElseThrow();
        int covered = 0;
        ErrorBasis basis = null;
        for (int run = 0; run < RUNS; run++) {
            Release release = plan.release(data, TestNoiseSources.seeded(seed + run));
            ErrorStatement s = m.accuracy(plan, release, LEVEL).bound(quantity, metric);
            basis = s.basis();
            covered += holds.test(release, s) ? 1 : 0;
        }
        return new Coverage(plan.spec().mechanism(), quantity + " (" + metric + ")", basis, covered, RUNS, seed);
    }

    @Test
    void columnSums() {
        InMemoryData data = InMemoryData.matrix(matrix(50, 5, 1));
        double[] truth = data.columnSums();
        entries(plan("GAUSSIAN", "COLUMN_SUMS", new Budget(null, null, new BigDecimal("0.5")), Map.of(),
                matrixFacts(5, 50L, AccountingMode.ZCDP)), data, "columnSums", truth, 1000).check();
        entries(plan("LAPLACE", "COLUMN_SUMS", new Budget(BigDecimal.ONE, null, null), Map.of(),
                matrixFacts(5, null, AccountingMode.PURE)), data, "columnSums", truth, 2000).check();
    }
}
