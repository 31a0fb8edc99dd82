package io.privmat.mechanism.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.GaussianVectorMechanism;
import io.privmat.mechanism.LaplaceVectorMechanism;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.PrivacyArgumentException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GridNoiseTest {

    private static boolean isMultiple(double v, double g) {
        double steps = v / g;
        return steps == Math.rint(steps);
    }

    @ParameterizedTest(name = "Δ={0}, σ={1}, p={2}")
    @CsvSource({"1, 3.73, 1", "1, 5, 614656", "0.001, 40, 10", "250, 0.5, 3", "1, 10000, 100"})
    void gaussianPlanIsConservativeAndOnAPowerOfTwoGrid(double delta, double sigma, long p) {
        GridNoise.GaussianPlan plan = GridNoise.gaussian(delta, sigma, p);
        double g = plan.granularity();
        assertThat(Math.getExponent(g)).isEqualTo((int) Math.round(Math.log(g) / Math.log(2)));
        assertThat(g * Math.sqrt(p)).isLessThanOrEqualTo(delta * 0x1p-12);
        assertThat(plan.sigma()).isGreaterThanOrEqualTo(sigma).isLessThanOrEqualTo(sigma * (1 + 0x1p-12));
        assertThat(plan.loss().l2Sensitivity()).isGreaterThanOrEqualTo(delta + g * Math.sqrt(p));
        assertThat((double) plan.sigmaSquaredNum() / plan.sigmaSquaredDen() * g * g)
                .isCloseTo(plan.sigma() * plan.sigma(), within(1e-9 * plan.sigma() * plan.sigma()));
    }

    /**
     * Rounding to the grid is total (docs/adr/0011-a-failure-is-an-output.md): it saturates at ±2⁵⁰
     * steps instead of throwing, maps NaN to 0, and stays 1-Lipschitz up to the rounding step, so
     * neighbours' rounded values differ by at most |a − b|/g + 1 steps — the inflation every plan charges.
     */
    @Test
    void roundingToTheGridSaturatesInsteadOfThrowing() {
        double g = 0x1p-28;
        assertThat(GridNoise.roundToGrid(0x1p40, g)).isEqualTo(0x1p50);
        assertThat(GridNoise.roundToGrid(-0x1p40, g)).isEqualTo(-0x1p50);
        assertThat(GridNoise.roundToGrid(Double.POSITIVE_INFINITY, g)).isEqualTo(0x1p50);
        assertThat(GridNoise.roundToGrid(Double.NEGATIVE_INFINITY, g)).isEqualTo(-0x1p50);
        assertThat(GridNoise.roundToGrid(Double.NaN, g)).isEqualTo(0);
        assertThat(GridNoise.roundToGrid(Double.MAX_VALUE, 1)).isEqualTo(0x1p50);
        // Below the limit nothing changes.
        assertThat(GridNoise.roundToGrid(12345.6 * g, g)).isEqualTo(12346);
        assertThat(GridNoise.roundToGrid((0x1p50 - 1) * g, g)).isEqualTo(0x1p50 - 1);
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 10_000; i++) {
            double a = (0x1p50 + random.nextDouble(-0x1p20, 0x1p20)) * g * (random.nextBoolean() ? 1 : -1);
            double b = a + random.nextDouble(-4, 4) * g;
            double moved = Math.abs(GridNoise.roundToGrid(a, g) - GridNoise.roundToGrid(b, g));
            assertThat(moved).isLessThanOrEqualTo(Math.abs(a - b) / g + 1);
        }
        // A release on a saturated statistic is the saturated value plus noise, exact on the grid.
        GridNoise.GaussianPlan plan = GridNoise.gaussian(1, 3, 4);
        double[] out = new double[4];
        GridNoise.addGaussian(plan, new double[] {1e300, -1e300, Double.NaN, 1}, out, TestNoiseSources.seeded(2));
        double limit = 0x1p50 * plan.granularity();
        assertThat(out[0]).isCloseTo(limit, within(40 * 3.0));
        assertThat(out[1]).isCloseTo(-limit, within(40 * 3.0));
        assertThat(out[2]).isCloseTo(0, within(40 * 3.0));
        for (double v : out) {
            assertThat(isMultiple(v, plan.granularity())).isTrue();
        }
    }

    @Test
    void releasedValuesAreExactMultiplesOfTheGranularity() {
        NoiseSource random = TestNoiseSources.seeded(3);
        SplittableRandom data = new SplittableRandom(4);
        GaussianVectorMechanism gaussian = GaussianVectorMechanism.withSigma(1, 3.7, 500);
        LaplaceVectorMechanism laplace = LaplaceVectorMechanism.of(2, 0.5, 500);
        double[] f = new double[500];
        for (int i = 0; i < f.length; i++) {
            f[i] = (data.nextDouble() - 0.5) * Math.pow(10, data.nextInt(-8, 8));
        }
        for (double v : gaussian.release(f, random)) {
            assertThat(isMultiple(v, gaussian.granularity())).isTrue();
        }
        for (double v : laplace.release(f, random)) {
            assertThat(isMultiple(v, laplace.granularity())).isTrue();
        }
    }

    @Test
    void gaussianReleaseHasTheRightSpread() {
        NoiseSource random = TestNoiseSources.seeded(8);
        GaussianVectorMechanism m = GaussianVectorMechanism.withSigma(1, 2.5, 100_000);
        double[] f = new double[100_000];
        java.util.Arrays.fill(f, 0.123456789);
        double[] out = m.release(f, random);
        double s = 0;
        double s2 = 0;
        for (double v : out) {
            s += v - 0.123456789;
            s2 += (v - 0.123456789) * (v - 0.123456789);
        }
        double mean = s / out.length;
        assertThat(mean).isCloseTo(0, within(5 * 2.5 / Math.sqrt(out.length)));
        assertThat(Math.sqrt(s2 / out.length)).isCloseTo(m.sigma(), within(0.03));
    }

    @Test
    void calibratedMechanismsNeverChargeMoreThanAsked() {
        GaussianVectorMechanism byRho = GaussianVectorMechanism.forRho(1, 0.02, 784 * 784);
        assertThat(byRho.privacyLoss().rho()).isLessThanOrEqualTo(new java.math.BigDecimal("0.02"));
        assertThat(byRho.privacyLoss().rho().doubleValue()).isGreaterThan(0.0199);
        GaussianVectorMechanism byDp = GaussianVectorMechanism.forApproxDp(1, 1, 1e-5, 10);
        assertThat(byDp.privacyLoss().delta(1.0)).isLessThanOrEqualTo(1e-5);
        assertThat(byDp.sigma()).isCloseTo(GaussianCalibration.analyticSigma(1, 1e-5, 1), within(0.002));
        LaplaceVectorMechanism laplace = LaplaceVectorMechanism.of(1, 0.3, 7);
        assertThat(laplace.scale()).isGreaterThanOrEqualTo(1 / 0.3).isLessThan(1 / 0.3 * 1.001);
    }

    @Test
    void symmetricNoiseIsSymmetricOnTheHalfGrid() {
        NoiseSource random = TestNoiseSources.seeded(11);
        int d = 30;
        double[] c = new double[d * d];
        SplittableRandom data = new SplittableRandom(12);
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                c[i * d + j] = c[j * d + i] = data.nextDouble();
            }
        }
        GridNoise.GaussianPlan plan = GridNoise.gaussian(1, 4, (long) d * d);
        double[] sym = GridNoise.symmetricGaussian(plan, c, d, random);
        double[] upper = GridNoise.upperTriangleGaussian(GridNoise.gaussian(1, 4, d * (d + 1L) / 2), c, d, random);
        double offDiagonal = 0;
        double diagonal = 0;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                assertThat(sym[i * d + j]).isEqualTo(sym[j * d + i]);
                assertThat(upper[i * d + j]).isEqualTo(upper[j * d + i]);
                assertThat(isMultiple(sym[i * d + j], plan.granularity() / 2)).isTrue();
                double e = sym[i * d + j] - c[i * d + j];
                if (i == j) {
                    diagonal += e * e;
                } else {
                    offDiagonal += e * e;
                }
            }
        }
        // (G + Gᵀ)/2: off-diagonal variance σ²/2, diagonal σ².
        assertThat(offDiagonal / (d * (d - 1))).isCloseTo(8, within(1.0));
        assertThat(diagonal / d).isCloseTo(16, within(8.0));
    }

    @Test
    void standardNormalMatricesHaveUnitVariance() {
        double[] g = new double[400_000];
        GaussianMatrices.fillStandardNormal(g, TestNoiseSources.seeded(21));
        double s = 0;
        double s2 = 0;
        double s4 = 0;
        for (double v : g) {
            s += v;
            s2 += v * v;
            s4 += v * v * v * v;
        }
        assertThat(s / g.length).isCloseTo(0, within(0.01));
        assertThat(s2 / g.length).isCloseTo(1, within(0.01));
        assertThat(s4 / g.length).isCloseTo(3, within(0.05));
    }

    /**
     * A grid step 2⁻¹²·min(σ, Δ/√p) below 2⁻¹⁰²² (a tiny public bound: Δ = √2·B² is subnormal for a row
     * bound B = 10⁻¹⁵⁶) was clamped to 2⁻¹⁰²²: the plan then had σ_grid = 1 and an inflated sensitivity
     * Δ + g·√p ≈ 4g, a loss μ ≈ 4 against the Δ/σ ≈ 0.24 it was calibrated for. A step that underflowed
     * to 0 (Δ = MIN_VALUE) threw an IllegalArgumentException that is not a privacy error (500). Both
     * are refused now, as a privacy-parameter error (400 before any charge).
     */
    @ParameterizedTest(name = "Δ={0}, σ={1}, p={2}")
    @CsvSource({"1.4142e-312, 5.9e-312, 16", "4.9e-324, 2.1e-323, 16", "1e-300, 1e-305, 1", "1e-300, 4e-300, 10000000000000"})
    void gaussianPlanWhoseGridWouldBeSubnormalIsRefused(double delta, double sigma, long p) {
        assertThatThrownBy(() -> GridNoise.gaussian(delta, sigma, p)).isInstanceOf(PrivacyArgumentException.class)
                .hasMessageContaining("too small to represent");
    }

    /** Just above the floor the plan keeps its invariants (inflation ≤ 2⁻¹² of Δ, σ within 2⁻¹²). */
    @Test
    void gaussianPlanAtTheSmallestNormalGridKeepsItsInvariants() {
        double delta = 0x1p-1009;
        double sigma = 0x1p-1007;
        long p = 4;
        GridNoise.GaussianPlan plan = GridNoise.gaussian(delta, sigma, p);
        assertThat(plan.granularity()).isEqualTo(Double.MIN_NORMAL);
        assertThat(plan.granularity() * Math.sqrt(p)).isLessThanOrEqualTo(delta * 0x1p-12);
        assertThat(plan.sigma()).isGreaterThanOrEqualTo(sigma).isLessThanOrEqualTo(sigma * (1 + 0x1p-12));
        assertThat(plan.loss().mu()).isLessThanOrEqualTo(delta / sigma * (1 + 0x1p-11));
    }
}
