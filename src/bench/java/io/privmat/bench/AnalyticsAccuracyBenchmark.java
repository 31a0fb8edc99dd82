package io.privmat.bench;

import io.privmat.mechanism.LaplaceVectorMechanism;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.analytics.Bounds;
import io.privmat.mechanism.analytics.LinearRegression;
import io.privmat.mechanism.analytics.PrincipalComponents;
import io.privmat.mechanism.analytics.RegressionResult;
import io.privmat.mechanism.analytics.Releases;
import io.privmat.mechanism.analytics.SecondMoment;
import io.privmat.mechanism.covariance.BinghamSampler;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.covariance.EigenSamplingMechanism;
import io.privmat.mechanism.covariance.GrassmannSampler;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.lowrank.OrbitCovarianceMechanism;
import io.privmat.mechanism.noise.ContinuousSamplers;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.mechanism.regression.AdaSspMechanism;
import io.privmat.support.FashionMnist;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRDecomposition;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Accuracy of the free analytics on releases, AdaSSP, and Mangoubi–Vishnoi with a private spectrum
 * (docs/accuracy/analytics.md). Prints Markdown tables and writes them under target/benchmarks/.
 * Run: {@code ./mvnw -o test -Pbenchmark -Dtest=AnalyticsAccuracyBenchmark}.
 */
@Tag("benchmark")
class AnalyticsAccuracyBenchmark {

    private static final double DELTA = 1e-6;

    // ---------------------------------------------------------------- regression coverage

    /**
     * Coverage of the stated regression intervals over 400 seeded releases per case, on two synthetic
     * datasets (rows (x, y) ∈ ℝ⁴, y = xᵀβ + noise, norm ≤ 1; n = 20 000 well conditioned, n = 1 000
     * where the ridge turns on), REPLACE_ONE.
     */
    @Test
    void regressionCoverage() throws Exception {
        int d = 4;
        int runs = 400;
        double[] beta = {1.0, -2.0, 0.5};
        int[] predictors = {0, 1, 2};
        StringBuilder out = new StringBuilder("### Regression intervals: coverage over " + runs + " seeded releases\n\n"
                + "| n | ε | source | ridge λ (median) | simultaneous bound: coverage | bound half-width (median, coef. 1) "
                + "| approximate: coverage (mean over coef.) | approx. half-width (median, coef. 1) | exact t: coverage |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        for (int n : new int[] {20_000, 1_000}) {
            double[][] rows = Releases.regressionRows(n, d, beta, 11);
            double[] gram = Releases.gram(rows);
            for (double eps : new double[] {0.5, 1, 2}) {
                for (String source : new String[] {"ANALYZE_GAUSS", "WISHART", "JL", "ADASSP"}) {
                    int simultaneous = 0;
                    int approx = 0;
                    double[] ridge = new double[runs];
                    double[] boundHalf = new double[runs];
                    double[] approxHalf = new double[runs];
                    for (int s = 0; s < runs; s++) {
                        RegressionResult r = regression(source, gram, d, n, eps, 50_000L + s, predictors);
                        double[] truth = Releases.ridgeTruth(gram, d, r.ridge());
                        boolean all = true;
                        for (int j = 0; j < 3; j++) {
                            all &= truth[j] >= r.lower()[j] && truth[j] <= r.upper()[j];
                            approx += truth[j] >= r.approximateLower()[j] && truth[j] <= r.approximateUpper()[j] ? 1 : 0;
                        }
                        simultaneous += all ? 1 : 0;
                        ridge[s] = r.ridge();
                        boundHalf[s] = (r.upper()[0] - r.lower()[0]) / 2;
                        approxHalf[s] = (r.approximateUpper()[0] - r.approximateLower()[0]) / 2;
                    }
                    boolean exact = source.equals("JL");
                    String coverage = String.format(Locale.ROOT, "%.3f", approx / (3.0 * runs));
                    out.append(String.format(Locale.ROOT, "| %d | %s | %s | %.4g | %s | %s | %s | %.3g | %s |%n", n,
                            eps, source, BenchStats.median(ridge), exact ? "—" : String.format(Locale.ROOT, "%.3f",
                                    simultaneous / (double) runs), exact ? "—" : fmt(BenchStats.median(boundHalf)),
                            exact ? "—" : coverage, BenchStats.median(approxHalf), exact ? coverage : "—"));
                }
            }
        }
        write("analytics-regression-coverage.md", out);
    }

    private static RegressionResult regression(String source, double[] gram, int d, long n, double eps, long seed,
            int[] predictors) {
        if (source.equals("ADASSP")) {
            return AdaSspMechanism.forApproxDp(predictors.length, 1.0, NeighbouringRelation.REPLACE_ONE, eps, DELTA,
                    AdaSspMechanism.DEFAULT_NU).release(gram, d, d - 1, predictors, n, 0.95,
                    TestNoiseSources.seeded(seed)).regression();
        }
        SecondMoment m = Releases.release(Releases.Kind.valueOf(source), gram, d, eps, seed);
        return LinearRegression.fit(m, d - 1, predictors, null, 0.95);
    }

    // ---------------------------------------------------------------- Fashion-MNIST regression

    /**
     * Predict the centre block of a Fashion-MNIST image from the 48 other blocks (7 × 7 block means of
     * 4 × 4 pixels, ÷ 255) plus a constant: rows (x₁…x₄₈, 1, y) scaled by 1/√50, so every row has
     * norm ≤ 1 and nothing is clipped (a common scale changes no coefficient). Fit on the first 50 000
     * training images, test on the last 10 000. REPLACE_ONE, δ = 1e-6, 10 seeds per cell.
     */
    @Test
    void fashionMnistRegression() throws Exception {
        Assumptions.assumeTrue(FashionMnist.available(), "dataset-fashion-mnist is not installed");
        int blocks = 49;
        int centre = 24;
        int d = blocks + 1;
        int total = 60_000;
        int train = 50_000;
        double scale = 1 / Math.sqrt(d);
        double[][] rows = new double[total][d];
        FashionMnist.forEachImage(total, (index, pixels) -> {
            double[] means = new double[blocks];
            for (int r = 0; r < 28; r++) {
                for (int c = 0; c < 28; c++) {
                    means[(r / 4) * 7 + c / 4] += (pixels[r * 28 + c] & 0xff) / 255.0 / 16;
                }
            }
            int col = 0;
            for (int b = 0; b < blocks; b++) {
                if (b != centre) {
                    rows[index][col++] = means[b] * scale;
                }
            }
            rows[index][col++] = scale;
            rows[index][col] = means[centre] * scale;
        });
        GramAccumulator acc = new GramAccumulator(d);
        for (int i = 0; i < train; i++) {
            acc.addRows(rows[i], 0, 1);
        }
        double[] gram = acc.result();
        int[] predictors = new int[d - 1];
        for (int j = 0; j < d - 1; j++) {
            predictors[j] = j;
        }
        double[] ols = Releases.ridgeTruth(gram, d, 0);
        double olsMse = testMse(rows, train, total, ols, scale);
        double meanY = 0;
        for (int i = 0; i < train; i++) {
            meanY += rows[i][d - 1] / scale / train;
        }
        double constMse = 0;
        for (int i = train; i < total; i++) {
            double e = rows[i][d - 1] / scale - meanY;
            constMse += e * e / (total - train);
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "### Fashion-MNIST: centre block from the "
                + "other 48 blocks + constant (n = %d, p = 49)%n%n"
                + "Non-private OLS: test MSE %.5f; predicting the training mean: %.5f.%n%n"
                + "| ε | source | test MSE (median) | R² (median) | ridge λ (median) "
                + "| simultaneous bound covers β_λ (runs) | approx. (JL: exact t) coverage per coefficient |%n"
                + "|---|---|---|---|---|---|---|%n", train, olsMse, constMse));
        int seeds = 10;
        for (double eps : new double[] {0.1, 0.3, 1, 2}) {
            for (String source : new String[] {"ANALYZE_GAUSS", "WISHART", "JL", "ADASSP"}) {
                double[] mse = new double[seeds];
                double[] r2 = new double[seeds];
                double[] ridge = new double[seeds];
                int bound = 0;
                int approx = 0;
                for (int s = 0; s < seeds; s++) {
                    RegressionResult r = regression(source, gram, d, train, eps, 70_000L + s, predictors);
                    mse[s] = testMse(rows, train, total, r.estimate(), scale);
                    r2[s] = 1 - mse[s] / constMse;
                    ridge[s] = r.ridge();
                    double[] truth = Releases.ridgeTruth(gram, d, r.ridge());
                    boolean all = true;
                    for (int j = 0; j < truth.length; j++) {
                        all &= truth[j] >= r.lower()[j] && truth[j] <= r.upper()[j];
                        approx += truth[j] >= r.approximateLower()[j] && truth[j] <= r.approximateUpper()[j] ? 1 : 0;
                    }
                    bound += all ? 1 : 0;
                }
                out.append(String.format(Locale.ROOT, "| %s | %s | %.5f | %.3f | %.4g | %s | %.3f |%n", eps, source,
                        BenchStats.median(mse), BenchStats.median(r2), BenchStats.median(ridge), source.equals("JL") ? "—" : bound + "/" + seeds,
                        approx / (double) (seeds * (d - 1))));
            }
        }
        write("analytics-fashion-mnist-regression.md", out);
    }

    private static double testMse(double[][] rows, int from, int to, double[] beta, double scale) {
        int d = rows[0].length;
        double sum = 0;
        for (int i = from; i < to; i++) {
            double pred = 0;
            for (int j = 0; j < d - 1; j++) {
                pred += rows[i][j] * beta[j];
            }
            double e = (rows[i][d - 1] - pred) / scale;
            sum += e * e;
        }
        return sum / (to - from);
    }

    // ---------------------------------------------------------------- sparse PCA

    /**
     * A planted sparse spike: d = 200, rows a·g·v + 0.05·h clipped to norm ≤ 1, v with s = 5 entries
     * ±1/√5 at seeded positions, a = 0.5; released by Analyze Gauss (REPLACE_ONE, δ = 1e-6). Support
     * recovery |F ∩ F*|/5 of the truncated power method (s = 5) against the 5 largest entries of the
     * plain top eigenvector of the same release; 20 seeds per cell.
     */
    @Test
    void sparsePcaSupportRecovery() throws Exception {
        int d = 200;
        int s = 5;
        int seeds = 20;
        StringBuilder out = new StringBuilder("### Sparse PCA on a planted 5-sparse spike (d = 200), Analyze Gauss release\n\n"
                + "| n | ε | truncated power: support recovered | plain PCA top-5: support recovered "
                + "| truncated power: ‖Xx‖²/‖Xv‖² | plain PCA: ‖Xx‖²/‖Xv‖² | interval covers ‖Xx‖² |\n"
                + "|---|---|---|---|---|---|---|\n");
        for (int n : new int[] {2_000, 20_000}) {
            for (double eps : new double[] {0.1, 0.3, 1, 3}) {
                double sparseHits = 0;
                double plainHits = 0;
                int covered = 0;
                double ratio = 0;
                double plainRatio = 0;
                for (int seed = 0; seed < seeds; seed++) {
                    SplittableRandom random = new SplittableRandom(900 + seed);
                    int[] support = new int[s];
                    double[] v = new double[d];
                    List<Integer> idx = new ArrayList<>();
                    for (int j = 0; j < d; j++) {
                        idx.add(j);
                    }
                    for (int j = 0; j < s; j++) {
                        int pick = j + random.nextInt(d - j);
                        java.util.Collections.swap(idx, j, pick);
                        support[j] = idx.get(j);
                        v[support[j]] = (random.nextBoolean() ? 1 : -1) / Math.sqrt(s);
                    }
                    GramAccumulator acc = new GramAccumulator(d);
                    double[] row = new double[d];
                    for (int i = 0; i < n; i++) {
                        double g = random.nextGaussian();
                        for (int j = 0; j < d; j++) {
                            row[j] = 0.5 * g * v[j] + 0.05 * random.nextGaussian();
                        }
                        clip(row);
                        acc.addRows(row, 0, 1);
                    }
                    double[] gram = acc.result();
                    SecondMoment m = Releases.release(Releases.Kind.ANALYZE_GAUSS, gram, d, eps, 3_000L + seed);
                    PrincipalComponents.Result r = PrincipalComponents.sparse(m, 1, s, 100, 0.95);
                    sparseHits += overlap(r.supports()[0], support) / (double) s;
                    double[] top = LinearAlgebra.eigen(m.debiased(), d).topVectors(1);
                    double[] abs = Arrays.stream(top).map(Math::abs).toArray();
                    plainHits += overlap(topIndices(abs, s), support) / (double) s;
                    double[] x = column(r.components(), d, 1, 0);
                    double truth = quadratic(gram, d, x);
                    Bounds b = r.explainedVariance().get(0);
                    covered += truth >= b.lower() && truth <= b.upper() ? 1 : 0;
                    ratio += truth / quadratic(gram, d, v);
                    plainRatio += quadratic(gram, d, top) / quadratic(gram, d, v);
                }
                out.append(String.format(Locale.ROOT, "| %d | %s | %.3f | %.3f | %.3f | %.3f | %d/%d |%n", n, eps,
                        sparseHits / seeds, plainHits / seeds, ratio / seeds, plainRatio / seeds, covered, seeds));
            }
        }
        write("analytics-sparse-pca.md", out);
    }

    // ---------------------------------------------------------------- orbit vs eigenvector sampling

    /**
     * A flat-top spectrum: d = 10, rows Σ_{j≤3} 0.45·gⱼ·qⱼ + 0.02·h (q orthonormal, seeded) clipped to
     * norm ≤ 1, so λ₁ ≈ λ₂ ≈ λ₃ ≫ λ₄. Rank-3 covariance by EIGEN_SAMPLING (Amin et al., ε/(k+1) per step,
     * exponent ε/4), by {@link OrbitCovarianceMechanism} (MV Algorithm 2's Laplace spectrum, then peeling
     * with the spectrum-weighted split), and — research only, not offered — MV with one joint draw of the
     * subspace from exp(ε₂·tr(UᵀMU)/(2B²)) by the Grassmann rejection sampler (whose failure probability
     * has no data-independent bound), with Λ̂ on a uniformly random frame. Pure ε, REPLACE_ONE, 20 seeds.
     */
    @Test
    void orbitVersusEigenvectorSampling() throws Exception {
        int d = 10;
        int k = 3;
        int seeds = 20;
        StringBuilder out = new StringBuilder("### Rank-3 covariance on a flat-top spectrum (d = 10): "
                + "‖C − Ĉ‖_F/‖C‖_F and captured variance tr(P̂C)/tr(P₃C) (means over " + seeds + " seeds)\n\n"
                + "| n | ε | EIGEN_SAMPLING: error | captured | MV private spectrum, peeling: error | captured "
                + "| MV joint Grassmann draw (research): error | captured | sampler failures |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        for (int n : new int[] {200, 2_000}) {
            for (double eps : new double[] {0.1, 0.3, 1, 3}) {
                double[] sums = new double[6];
                int failures = 0;
                int joint = 0;
                for (int seed = 0; seed < seeds; seed++) {
                    double[] gram = flatTop(n, d, k, 500 + seed);
                    BigDecimal epsilon = BigDecimal.valueOf(eps);
                    NoiseSource random = TestNoiseSources.seeded(8_000L + seed);
                    CovarianceRelease amin = EigenSamplingMechanism.of(d, k, 1.0, NeighbouringRelation.REPLACE_ONE,
                            epsilon).release(gram, n, true, random);
                    CovarianceRelease mv = OrbitCovarianceMechanism.of(d, k, 1.0, NeighbouringRelation.REPLACE_ONE,
                            epsilon).release(gram, n, random);
                    sums[0] += relativeError(gram, amin.covariance(), d);
                    sums[1] += captured(gram, amin.components(), d, k);
                    sums[2] += relativeError(gram, mv.covariance(), d);
                    sums[3] += captured(gram, mv.components(), d, k);
                    try {
                        double[][] research = jointOrbit(gram, d, k, eps, n, random);
                        sums[4] += relativeError(gram, research[0], d);
                        sums[5] += captured(gram, research[1], d, k);
                        joint++;
                    } catch (BinghamSampler.SamplerFailureException e) {
                        failures++;
                    }
                }
                out.append(String.format(Locale.ROOT, "| %d | %s | %.3f | %.3f | %.3f | %.3f | %s | %s | %d/%d |%n", n,
                        eps, sums[0] / seeds, sums[1] / seeds, sums[2] / seeds, sums[3] / seeds,
                        joint == 0 ? "—" : String.format(Locale.ROOT, "%.3f", sums[4] / joint),
                        joint == 0 ? "—" : String.format(Locale.ROOT, "%.3f", sums[5] / joint), failures, seeds));
            }
        }
        write("analytics-orbit.md", out);
    }

    static double[] flatTop(int n, int d, int k, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] g = new double[d * k];
        for (int i = 0; i < g.length; i++) {
            g[i] = random.nextGaussian();
        }
        double[] q = thinQ(g, d, k);
        GramAccumulator acc = new GramAccumulator(d);
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                row[j] = 0.02 * random.nextGaussian();
            }
            for (int c = 0; c < k; c++) {
                double a = 0.45 * random.nextGaussian();
                for (int j = 0; j < d; j++) {
                    row[j] += a * q[j * k + c];
                }
            }
            clip(row);
            acc.addRows(row, 0, 1);
        }
        return acc.result();
    }

    /**
     * Research only: MV Algorithm 2 with the subspace drawn jointly (ε/4 Laplace spectrum as in
     * {@link OrbitCovarianceMechanism}; 3ε/4 on the Grassmann exponential mechanism), λ̂ put on a
     * uniformly random frame of the drawn subspace. Returns {Ĉ, U}.
     */
    static double[][] jointOrbit(double[] gram, int d, int k, double eps, int n, NoiseSource random) {
        double eps1 = eps / 4;
        double eps2 = eps - eps1;
        SymmetricEigen e = LinearAlgebra.eigen(gram, d);
        double[] lambda = LaplaceVectorMechanism.of(Sensitivities.eigenvaluesL1(1.0, NeighbouringRelation.REPLACE_ONE),
                eps1, d).release(e.values(), random);
        for (int j = 0; j < d; j++) {
            lambda[j] = Math.min(Math.max(lambda[j], 0), n);
        }
        Arrays.sort(lambda);
        double[] a = new double[d];
        for (int j = 0; j < d; j++) {
            a[j] = eps2 / 2 * (e.values()[0] - e.values()[j]);
        }
        double[] x = GrassmannSampler.sample(a, k, random);
        double[] g = new double[k * k];
        for (int i = 0; i < g.length; i++) {
            g[i] = ContinuousSamplers.standardNormal(random);
        }
        double[] frame = thinQ(g, k, k);
        double[] u = new double[d * k];
        for (int i = 0; i < d; i++) {
            for (int c = 0; c < k; c++) {
                double sum = 0;
                for (int j = 0; j < d; j++) {
                    for (int f = 0; f < k; f++) {
                        sum += e.vectors()[i * d + j] * x[j * k + f] * frame[f * k + c];
                    }
                }
                u[i * k + c] = sum;
            }
        }
        double[] c = new double[d * d];
        for (int j = 0; j < k; j++) {
            double l = lambda[d - 1 - j];
            for (int r = 0; r < d; r++) {
                for (int s = 0; s < d; s++) {
                    c[r * d + s] += l * u[r * k + j] * u[s * k + j];
                }
            }
        }
        return new double[][] {c, u};
    }

    // ---------------------------------------------------------------- helpers

    static double relativeError(double[] c, double[] estimate, int d) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < d * d; i++) {
            num += (c[i] - estimate[i]) * (c[i] - estimate[i]);
            den += c[i] * c[i];
        }
        return Math.sqrt(num / den);
    }

    /** tr(UᵀCU)/(λ₁ + … + λ_k) for orthonormal U (d × k). */
    static double captured(double[] c, double[] u, int d, int k) {
        double total = 0;
        for (int j = 0; j < k; j++) {
            total += quadratic(c, d, column(u, d, k, j));
        }
        double[] values = LinearAlgebra.eigen(c, d).values();
        double best = 0;
        for (int j = 0; j < k; j++) {
            best += values[j];
        }
        return total / best;
    }

    static double[] column(double[] m, int rows, int cols, int c) {
        double[] out = new double[rows];
        for (int i = 0; i < rows; i++) {
            out[i] = m[i * cols + c];
        }
        return out;
    }

    static double quadratic(double[] m, int d, double[] x) {
        double total = 0;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                total += x[i] * m[i * d + j] * x[j];
            }
        }
        return total;
    }

    static double[] thinQ(double[] a, int rows, int cols) {
        DMatrixRMaj m = DMatrixRMaj.wrap(rows, cols, a.clone());
        QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(rows, cols);
        qr.decompose(m);
        return qr.getQ(null, true).getData();
    }

    static void clip(double[] row) {
        double n = norm(row);
        if (n > 1) {
            for (int j = 0; j < row.length; j++) {
                row[j] /= n;
            }
        }
    }

    static int overlap(int[] found, int[] truth) {
        int hits = 0;
        for (int f : found) {
            for (int t : truth) {
                hits += f == t ? 1 : 0;
            }
        }
        return hits;
    }

    static int[] topIndices(double[] values, int s) {
        Integer[] order = new Integer[values.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(values[b], values[a]));
        int[] out = new int[s];
        for (int i = 0; i < s; i++) {
            out[i] = order[i];
        }
        return out;
    }

    static double norm(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return Math.sqrt(s);
    }


    static String fmt(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.3g", v) : "∞";
    }

    static void write(String name, StringBuilder table) throws Exception {
        System.out.println(table);
        Path dir = Path.of("target", "benchmarks");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name), table.toString());
    }
}
