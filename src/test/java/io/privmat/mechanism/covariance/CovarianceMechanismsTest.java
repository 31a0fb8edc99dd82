package io.privmat.mechanism.covariance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.PrivacyArgumentException;
import io.privmat.support.MatrixAssertions;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CovarianceMechanismsTest {

    private static final int D = 12;

    /** n rows of a rank-3 signal plus noise, clipped to norm ≤ 1; returns XᵀX. */
    private static double[] gram(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        GramAccumulator acc = new GramAccumulator(D);
        double[] row = new double[D];
        for (int i = 0; i < n; i++) {
            double norm = 0;
            for (int j = 0; j < D; j++) {
                double signal = j < 3 ? (3 - j) * random.nextGaussian() : 0;
                row[j] = signal + 0.1 * random.nextGaussian();
                norm += row[j] * row[j];
            }
            norm = Math.sqrt(norm);
            for (int j = 0; j < D; j++) {
                row[j] /= Math.max(1, norm);
            }
            acc.addRows(row, 0, 1);
        }
        return acc.result();
    }

    @Test
    void gramAccumulatorMatchesTheNaiveProduct() {
        SplittableRandom random = new SplittableRandom(1);
        int n = 37;
        double[] x = new double[n * D];
        for (int i = 0; i < x.length; i++) {
            x[i] = random.nextGaussian();
        }
        GramAccumulator acc = new GramAccumulator(D);
        acc.addRows(x, 0, 20);
        acc.addRows(x, 20 * D, 17);
        double[] c = acc.result();
        for (int a = 0; a < D; a++) {
            for (int b = 0; b < D; b++) {
                double expected = 0;
                for (int i = 0; i < n; i++) {
                    expected += x[i * D + a] * x[i * D + b];
                }
                assertThat(c[a * D + b]).isCloseTo(expected, within(1e-10));
            }
        }
        assertThat(acc.rows()).isEqualTo(37);
    }

    @Test
    void eigenDecompositionIsSortedAndReconstructs() {
        double[] c = gram(500, 2);
        SymmetricEigen e = LinearAlgebra.eigen(c, D);
        for (int j = 1; j < D; j++) {
            assertThat(e.values()[j]).isLessThanOrEqualTo(e.values()[j - 1]);
        }
        double[] back = e.reconstruct(e.values());
        for (int i = 0; i < D * D; i++) {
            assertThat(back[i]).isCloseTo(c[i], within(1e-9));
        }
    }

    @Test
    void analyzeGaussChargesTheFormulaAndReleasesASymmetricMatrix() {
        AnalyzeGaussMechanism ar = AnalyzeGaussMechanism.forApproxDp(D, 1, NeighbouringRelation.ADD_REMOVE, 1, 1e-6);
        AnalyzeGaussMechanism ro = AnalyzeGaussMechanism.forApproxDp(D, 1, NeighbouringRelation.REPLACE_ONE, 1, 1e-6);
        // Δ_F = B² (add/remove) or √2·B² (replace-one); σ from the analytic Gaussian.
        assertThat(ar.privacyLoss().l2Sensitivity()).isCloseTo(1.0, within(1e-3)).isGreaterThanOrEqualTo(1.0);
        assertThat(ro.privacyLoss().l2Sensitivity()).isCloseTo(Math.sqrt(2), within(1e-3));
        assertThat(ar.sigma()).isCloseTo(GaussianCalibration.analyticSigma(1, 1e-6, 1), within(0.01));
        assertThat(ro.sigma() / ar.sigma()).isCloseTo(Math.sqrt(2), within(0.01));
        AnalyzeGaussMechanism byRho = AnalyzeGaussMechanism.forRho(D, 2, NeighbouringRelation.ADD_REMOVE, 0.05);
        assertThat(byRho.privacyLoss().rho()).isLessThanOrEqualTo(new BigDecimal("0.05"));
        assertThat(byRho.privacyLoss().rho().doubleValue()).isGreaterThan(0.0499);

        double[] c = gram(2000, 3);
        double[] noisy = ar.release(c, TestNoiseSources.seeded(4));
        for (int i = 0; i < D; i++) {
            for (int j = 0; j < D; j++) {
                assertThat(noisy[i * D + j]).isEqualTo(noisy[j * D + i]);
            }
        }
        CovarianceRelease post = PostProcessing.psdAndTopK(noisy, D, 3, 2000, true);
        SymmetricEigen check = LinearAlgebra.eigen(post.covariance(), D);
        assertThat(check.values()[D - 1]).isGreaterThanOrEqualTo(-1e-9); // PSD
        assertThat(check.values()[0]).isLessThanOrEqualTo(2000 + 1e-6);  // clamped to n·B²
        assertOrthonormal(post.components(), D, 3);
        // The private subspace captures almost all of the signal's variance.
        assertThat(captured(c, post.components(), 3) / captured(c, LinearAlgebra.eigen(c, D).topVectors(3), 3))
                .isGreaterThan(0.99);
    }

    @Test
    void wishartUsesSheffetsDegreesAndIsPsd() {
        WishartMechanism w = WishartMechanism.of(D, 1, new BigDecimal("1"), new BigDecimal("1e-6"));
        assertThat(w.degrees()).isEqualTo(D + (long) Math.floor(14 * Math.log(4e6)));
        assertThat(w.privacyLoss().epsilon()).isEqualByComparingTo("1");
        double[] c = gram(1000, 5);
        double[] out = w.release(c, TestNoiseSources.seeded(6));
        SymmetricEigen e = LinearAlgebra.eigen(out, D);
        assertThat(e.values()[D - 1]).isGreaterThan(0);
        double g = w.granularity();
        for (double v : out) {
            assertThat(v / g).isEqualTo(Math.rint(v / g));
        }
        // E[W] = k·B²·I: the diagonal is shifted by about k.
        double shift = 0;
        for (int i = 0; i < D; i++) {
            shift += out[i * D + i] - c[i * D + i];
        }
        assertThat(shift / D).isCloseTo(w.degrees(), within(0.15 * w.degrees()));
        assertThatThrownBy(() -> WishartMechanism.of(D, 1, new BigDecimal("3"), new BigDecimal("1e-6")))
                .hasMessageContaining("(0, 2]");
    }

    @Test
    void eigenSamplingReturnsOrthonormalVectorsAndChargesPureEpsilon() {
        double[] c = gram(3000, 7);
        EigenSamplingMechanism m = EigenSamplingMechanism.of(D, 3, 1, NeighbouringRelation.REPLACE_ONE, new BigDecimal("2"));
        assertThat(m.privacyLoss().epsilon()).isEqualByComparingTo("2");
        assertThat(m.epsilonPerStep() * 4).isLessThanOrEqualTo(2);
        NoiseSource random = TestNoiseSources.seeded(8);
        CovarianceRelease r = m.release(c, 3000, true, random);
        assertOrthonormal(r.components(), D, 3);
        assertThat(r.eigenvalues()).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        // With 3000 rows and ε = 2, the top-3 signal subspace is found well.
        double ratio = captured(c, r.components(), 3) / captured(c, LinearAlgebra.eigen(c, D).topVectors(3), 3);
        assertThat(ratio).isGreaterThan(0.9);
        SymmetricEigen e = LinearAlgebra.eigen(r.covariance(), D);
        assertThat(e.values()[3]).isCloseTo(0, within(1e-6)); // rank k
    }

    static void assertOrthonormal(double[] v, int d, int k) {
        MatrixAssertions.assertOrthonormal(v, d, k, 1e-9);
    }

    /** tr(VᵀCV). */
    static double captured(double[] c, double[] v, int k) {
        int d = (int) Math.round(Math.sqrt(c.length));
        double total = 0;
        for (int a = 0; a < k; a++) {
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    total += v[i * k + a] * c[i * d + j] * v[j * k + a];
                }
            }
        }
        return total;
    }

    /**
     * A dataset's rowNormBound may be any B in (0, 10¹²]. At B = 10⁻¹⁵⁶ the sensitivity √2·B² is
     * subnormal and Analyze Gauss's grid was clamped to 2⁻¹⁰²², ~2¹⁶ times Δ/√p: its loss as run was
     * μ ≈ d = 12 (ρ ≈ 72) for a request of (ε = 1, δ = 10⁻⁶), which is what a BASIC dataset was charged.
     * At B = 10⁻³⁰⁰ (B² = 0) the grid step was 0 and planning threw a non-privacy exception (500).
     * Both are now refused as privacy-parameter errors, before any charge; B = 10⁻¹⁴⁰ still plans.
     */
    @ParameterizedTest(name = "B = {0}")
    @ValueSource(doubles = {1e-156, 1e-300, Double.MIN_VALUE})
    void aRowBoundTooSmallForAnyGridIsRefused(double bound) {
        assertThatThrownBy(() -> AnalyzeGaussMechanism.forApproxDp(D, bound, NeighbouringRelation.REPLACE_ONE, 1, 1e-6))
                .isInstanceOf(PrivacyArgumentException.class);
        assertThatThrownBy(() -> AnalyzeGaussMechanism.forRho(D, bound, NeighbouringRelation.ADD_REMOVE, 0.5))
                .isInstanceOf(PrivacyArgumentException.class);
    }

    @Test
    void aSmallRowBoundWithANormalGridKeepsTheCalibratedLoss() {
        AnalyzeGaussMechanism m = AnalyzeGaussMechanism.forRho(D, 1e-140, NeighbouringRelation.REPLACE_ONE, 0.5);
        assertThat(m.privacyLoss().rho().doubleValue()).isLessThanOrEqualTo(0.5);
        assertThat(m.granularity()).isGreaterThanOrEqualTo(Double.MIN_NORMAL);
    }
}
