package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.AccountingMode;
import java.math.BigDecimal;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Coverage of the stated 95% intervals and bounds, per mechanism family, through the pure catalogue
 * values (no HTTP): {@value #RUNS} seeded releases of a small fixed dataset per case, counting how often
 * the stated interval (or norm ball) contains the truth. An EXACT interval must cover at a rate
 * consistent with 95% (two-sided binomial test, |z| ≤ {@value #Z}); a BOUND at least that
 * (one-sided: z ≥ −{@value #Z}). Each case prints its line of the table in docs/accuracy/intervals.md.
 */
public class IntervalCoverageTest {

    static final int RUNS = 400;
    static final double LEVEL = 0.95;
    /** Tolerance of the binomial test, in standard errors (two-sided p ≈ 0.001). */
    static final double Z = 3.3;

    /** Observed coverage and whether it is consistent with the basis. */
    public record Coverage(String mechanism, String quantity, ErrorBasis basis, int covered, int runs, long seed,
            double tightness, boolean capped) {

        Coverage(String mechanism, String quantity, ErrorBasis basis, int covered, int runs, long seed) {
            this(mechanism, quantity, basis, covered, runs, seed, Double.NaN, true);
        }

        Coverage named(String name) {
            return new Coverage(name, quantity, basis, covered, runs, seed, tightness, capped);
        }

        /** A worst-case bound whose tightness depends on the data: printed, not capped (the docs say why). */
        Coverage uncapped() {
            return new Coverage(mechanism, quantity, basis, covered, runs, seed, tightness, false);
        }

        double rate() {
            return (double) covered / runs;
        }

        double z() {
            return (rate() - LEVEL) / Math.sqrt(LEVEL * (1 - LEVEL) / runs);
        }

        public void check() {
            System.out.printf("| %s | %s | %s | %.2f | %.3f | %d | %d | %s |%n", mechanism, quantity, basis, LEVEL,
                    rate(), runs, seed, Double.isNaN(tightness) ? "—" : String.format("%.2f", tightness));
            if (!Double.isNaN(tightness) && capped) {
                // A bound that covers by being useless is caught: at most 10× the observed 95% quantile.
                assertThat(tightness).as(this + " bound / observed 95% quantile").isLessThanOrEqualTo(10);
            }
            if (basis == ErrorBasis.EXACT) {
                assertThat(Math.abs(z())).as(this + " rate " + rate()).isLessThanOrEqualTo(Z);
            } else {
                assertThat(z()).as(this + " rate " + rate()).isGreaterThanOrEqualTo(-Z);
            }
        }
    }

    public static double[][] matrix(int n, int d, long seed) {
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

    public static Plan plan(String mechanism, String kind, QueryBudget budget, Map<String, Object> params, PublicFacts facts) {
        return MechanismCatalog.standard().plan(kind, mechanism, budget, RequestParams.of(params), facts);
    }

    public static PublicFacts matrixFacts(int d, Long rows, AccountingMode mode) {
        return new PublicFacts(DataShape.MATRIX, d, rows, 1.0, rows == null ? NeighbouringRelation.ADD_REMOVE
                : NeighbouringRelation.REPLACE_ONE, mode);
    }

    /** Per-entry coverage: every entry of every run counts (runs × entries trials). */
    public static Coverage entries(Plan plan, DataAccess data, String quantity, double[] truth, long seed) {
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

    /**
     * Coverage of a whole-quantity statement: {@code error} is the run's actual error in the
     * statement's metric; the run is covered when it is at most the stated value. Also reports the
     * tightness: the median stated value over the observed 95% quantile of the error.
     */
    static Coverage statement(Plan plan, DataAccess data, String quantity, String metric,
            java.util.function.ToDoubleFunction<Release> error, long seed) {
        MechanismDefinition m = MechanismCatalog.standard().find(plan.spec().mechanism()).orElseThrow();
        int covered = 0;
        ErrorBasis basis = null;
        double[] errors = new double[RUNS];
        double[] stated = new double[RUNS];
        for (int run = 0; run < RUNS; run++) {
            Release release = plan.release(data, TestNoiseSources.seeded(seed + run));
            ErrorStatement s = m.accuracy(plan, release, LEVEL).bound(quantity, metric);
            basis = s.basis();
            errors[run] = error.applyAsDouble(release);
            stated[run] = s.value();
            covered += errors[run] <= s.value() ? 1 : 0;
        }
        java.util.Arrays.sort(errors);
        java.util.Arrays.sort(stated);
        double q95 = errors[(int) Math.ceil(LEVEL * RUNS) - 1];
        return new Coverage(plan.spec().mechanism(), quantity + " (" + metric + ")", basis, covered, RUNS, seed,
                stated[RUNS / 2] / q95, true);
    }

    @Test
    void columnSums() {
        InMemoryData data = InMemoryData.matrix(matrix(50, 5, 1));
        double[] truth = data.columnSums();
        entries(plan("GAUSSIAN", "COLUMN_SUMS", new QueryBudget(null, null, new BigDecimal("0.5")), Map.of(),
                matrixFacts(5, 50L, AccountingMode.ZCDP)), data, "columnSums", truth, 1000).check();
        entries(plan("LAPLACE", "COLUMN_SUMS", new QueryBudget(BigDecimal.ONE, null, null), Map.of(),
                matrixFacts(5, null, AccountingMode.PURE)), data, "columnSums", truth, 2000).check();
    }

    static double frobenius(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s);
    }

    /** Σᵢ≤k λᵢ(C) − tr(V̂ᵀCV̂) for the released d × k components V̂. */
    static double capturedGap(double[] c, int d, double[] v, int k) {
        double[] ev = LinearAlgebra.eigen(c, d).values();
        double best = 0;
        double got = 0;
        for (int j = 0; j < k; j++) {
            best += ev[j];
            for (int a = 0; a < d; a++) {
                for (int b = 0; b < d; b++) {
                    got += v[a * k + j] * c[a * d + b] * v[b * k + j];
                }
            }
        }
        return best - got;
    }

    /** All eigenvalue intervals of a run cover the truth's (a simultaneous statement, counted per run). */
    static java.util.function.ToDoubleFunction<Release> eigenvalueError(double[] c, int d) {
        double[] truth = LinearAlgebra.eigen(c, d).values();
        return release -> {
            double[] ev = ((Release.Covariance) release).result().eigenvalues();
            double worst = 0;
            for (int i = 0; i < ev.length; i++) {
                worst = Math.max(worst, Math.abs(ev[i] - truth[i]));
            }
            return worst;
        };
    }

    static void gramCases(String mechanism, QueryBudget budget, AccountingMode mode, long seed) {
        int d = 6;
        InMemoryData data = InMemoryData.matrix(matrix(40, d, 3));
        double[] c = data.gram(false).gram();
        PublicFacts facts = matrixFacts(d, 40L, mode);
        Plan cov = plan(mechanism, "COVARIANCE", budget, Map.of(), facts);
        statement(cov, data, "covariance", "frobeniusNorm",
                r -> frobenius(((Release.Covariance) r).result().covariance(), c), seed).check();
        statement(cov, data, "covariance", "spectralNorm", r -> {
            double[] diff = ((Release.Covariance) r).result().covariance().clone();
            for (int i = 0; i < diff.length; i++) {
                diff[i] -= c[i];
            }
            double[] ev = LinearAlgebra.eigen(diff, d).values();
            return Math.max(Math.abs(ev[0]), Math.abs(ev[d - 1]));
        }, seed).check();
        statement(cov, data, "eigenvalues", "absPerEigenvalue", eigenvalueError(c, d), seed).check();
        Plan pca = plan(mechanism, "PCA", budget, Map.of("k", 2), facts);
        statement(pca, data, "components", "capturedVarianceGap", r -> capturedGap(c, d,
                ((Release.Covariance) r).result().components(), 2), seed).uncapped().check(); // 2k·‖E‖₂: no eigengap assumed
    }

    @Test
    void analyzeGauss() {
        gramCases("ANALYZE_GAUSS", new QueryBudget(null, null, new BigDecimal("0.5")), AccountingMode.ZCDP, 3000);
    }

    @Test
    void analyzeGaussCentred() {
        int d = 5;
        double[][] rows = matrix(40, d, 4);
        InMemoryData data = InMemoryData.matrix(rows);
        double[] c = data.gram(true).gram();
        double[] s = data.columnSums();
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                c[i * d + j] -= s[i] * s[j] / 40;
            }
        }
        Plan cov = plan("ANALYZE_GAUSS", "COVARIANCE", new QueryBudget(null, null, new BigDecimal("0.5")),
                Map.of("center", true), matrixFacts(d, 40L, AccountingMode.ZCDP));
        statement(cov, data, "covariance", "frobeniusNorm",
                r -> frobenius(((Release.Covariance) r).result().covariance(), c), 3500).uncapped().check(); // ‖s‖ ≤ n·B
        statement(cov, data, "eigenvalues", "absPerEigenvalue", eigenvalueError(c, d), 3500).uncapped().check();
    }

    @Test
    void wishart() {
        gramCases("WISHART", new QueryBudget(BigDecimal.ONE, new BigDecimal("1e-6"), null), AccountingMode.ZCDP, 4000);
    }

    /** The largest |released − true| over released eigenvalues (or squared singular values). */
    static java.util.function.ToDoubleFunction<Release> topEigenvalueError(double[] c, int d, boolean roots) {
        double[] truth = LinearAlgebra.eigen(c, d).values();
        return release -> {
            double[] v = release instanceof Release.Factors f ? f.factorization().s()
                    : ((Release.Covariance) release).result().eigenvalues();
            double worst = 0;
            for (int i = 0; i < v.length; i++) {
                worst = Math.max(worst, Math.abs((roots ? v[i] * v[i] : v[i]) - truth[i]));
            }
            return worst;
        };
    }

    static double[] components(Release r) {
        return r instanceof Release.Factors f ? f.factorization().v() : ((Release.Covariance) r).result().components();
    }

    static void samplingCases(double[][] rows, String regime, long seed) {
        int d = rows[0].length;
        InMemoryData data = InMemoryData.matrix(rows);
        double[] c = data.gram(false).gram();
        PublicFacts facts = matrixFacts(d, (long) rows.length, AccountingMode.PURE);
        QueryBudget budget = new QueryBudget(BigDecimal.ONE, null, null);
        Plan eig = plan("EIGEN_SAMPLING", "PCA", budget, Map.of("k", 2), facts);
        statement(eig, data, "eigenvalues", "absPerEigenvalue", topEigenvalueError(c, d, false), seed)
                .named("EIGEN_SAMPLING k=2 (" + regime + ")").check();
        statement(eig, data, "components", "capturedVarianceGap", r -> capturedGap(c, d, components(r), 2), seed)
                .named("EIGEN_SAMPLING k=2 (" + regime + ")").check();
        for (String spectrum : new String[] {"PROJECTION", "PEELING"}) {
            int k = spectrum.equals("PROJECTION") ? 1 : 2;
            Plan orbit = plan("ORBIT_SAMPLING", "TOP_SINGULAR_VECTORS", budget, Map.of("k", k, "spectrum", spectrum),
                    facts);
            statement(orbit, data, "components", "capturedVarianceGap", r -> capturedGap(c, d, components(r), k),
                    seed + 1).named("ORBIT_SAMPLING " + spectrum + " k=" + k + " (" + regime + ")").check();
        }
    }

    @Test
    void samplingWithAGap() {
        samplingCases(matrix(200, 6, 5), "one dominant direction", 5000);
        InMemoryData data = InMemoryData.matrix(matrix(200, 6, 5));
        double[] c = data.gram(false).gram();
        Plan orbit = plan("ORBIT_SAMPLING", "TOP_SINGULAR_VECTORS", new QueryBudget(BigDecimal.ONE, null, null),
                Map.of("k", 1, "spectrum", "PROJECTION"), matrixFacts(6, 200L, AccountingMode.PURE));
        entriesOfFactors(orbit, data, c, 5100);
    }

    /** Orbit sampling's singular values: the released s² within the eigenvalue bound (all k at once). */
    static void entriesOfFactors(Plan plan, InMemoryData data, double[] c, long seed) {
        MechanismDefinition m = MechanismCatalog.standard().find(plan.spec().mechanism()).orElseThrow();
        double[] truth = LinearAlgebra.eigen(c, data.d()).values();
        int covered = 0;
        for (int run = 0; run < RUNS; run++) {
            Release release = plan.release(data, TestNoiseSources.seeded(seed + run));
            IntervalSet set = m.accuracy(plan, release, LEVEL).interval("singularValues");
            boolean all = true;
            for (int i = 0; i < set.estimate().length; i++) {
                all &= set.covers(i, Math.sqrt(truth[i]));
            }
            covered += all ? 1 : 0;
        }
        new Coverage("ORBIT_SAMPLING", "singularValues (simultaneous)", ErrorBasis.BOUND, covered, RUNS, seed).check();
    }

    /** A flat spectrum: isotropic rows (every eigenvalue about n/d). */
    @Test
    void samplingOnAFlatSpectrum() {
        SplittableRandom r = new SplittableRandom(6);
        double[][] rows = new double[200][6];
        for (double[] row : rows) {
            double norm = 0;
            for (int j = 0; j < 6; j++) {
                row[j] = r.nextGaussian();
                norm += row[j] * row[j];
            }
            for (int j = 0; j < 6; j++) {
                row[j] /= Math.sqrt(norm);
            }
        }
        samplingCases(rows, "flat", 6000);
    }
}
