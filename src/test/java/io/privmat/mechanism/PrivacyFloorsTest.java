package io.privmat.mechanism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.mechanism.covariance.AnalyzeGaussMechanism;
import io.privmat.mechanism.covariance.EigenSamplingMechanism;
import io.privmat.mechanism.covariance.WishartMechanism;
import io.privmat.mechanism.lowrank.OrbitSamplingMechanism;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.sketch.JlMatrixSketch;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.PrivacyArgumentException;
import io.privmat.privacy.PrivacyFloors;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * Tiny privacy parameters are refused (HTTP 400) rather than charged below the loss the noise
 * really gives, or failing with a 500 (docs/adr/0006-privacy-hardening.md, item 4).
 */
class PrivacyFloorsTest {

    @Test
    void laplaceBelowTheFloorIsRefusedInsteadOfSaturatingItsScale() {
        // Before: ε = 1e-16 gave a scale saturated at Long.MAX_VALUE grid steps, really ~4.4e-16-DP.
        assertThatThrownBy(() -> LaplaceVectorMechanism.of(1, 1e-16, 1)).isInstanceOf(PrivacyArgumentException.class);
        // ε = 1e-300 (shown as a zero charge before) and ε = 1e-400, which rounds to 0.
        assertThatThrownBy(() -> LaplaceVectorMechanism.of(1, 1e-300, 1)).isInstanceOf(PrivacyArgumentException.class);
        assertThatThrownBy(() -> LaplaceVectorMechanism.of(1, new BigDecimal("1e-400").doubleValue(), 1))
                .isInstanceOf(PrivacyArgumentException.class)
                .satisfies(e -> assertThat(((PrivacyArgumentException) e).parameter()).isEqualTo("epsilon"));
    }

    @Test
    void laplaceAtTheFloorAchievesAtMostItsEpsilon() {
        for (long p : new long[] {1, 10, 1000, 100_000}) {
            GridNoise.LaplacePlan plan = GridNoise.laplace(Math.sqrt(p), PrivacyFloors.MIN_EPSILON, p);
            assertThat(plan.epsilon()).isLessThanOrEqualTo(PrivacyFloors.MIN_EPSILON);
        }
    }

    @Test
    void tinyRhoIsRefusedNotAServerError() {
        // Before: ρ = 1e-40 overflowed the σ² encoding (ArithmeticException, HTTP 500).
        assertThatThrownBy(() -> GaussianVectorMechanism.forRho(1, 1e-40, 1))
                .isInstanceOf(PrivacyArgumentException.class);
        assertThatThrownBy(() -> GaussianCalibration.analyticSigma(1e-300, 1e-6, 1))
                .isInstanceOf(PrivacyArgumentException.class);
        assertThatThrownBy(() -> AnalyzeGaussMechanism.forRho(4, 1, NeighbouringRelation.ADD_REMOVE, 1e-30))
                .isInstanceOf(PrivacyArgumentException.class);
    }

    @Test
    void aGaussianPlanNeverSamplesLessNoiseThanItCharges() {
        // Before: σ_grid ≥ 2^52 wrapped a 64-bit shift and sampled σ_grid ≈ 2^20 while charging 2^52.
        for (double sigma : new double[] {1, 1e3, 1e6, 1e8, 1.4 * 0x1p40, 1e13, 1e15}) {
            GridNoise.GaussianPlan plan;
            try {
                plan = GridNoise.gaussian(1, sigma, 1);
            } catch (PrivacyArgumentException refused) {
                continue;
            }
            double sampled = Math.sqrt((double) plan.sigmaSquaredNum() / plan.sigmaSquaredDen()) * plan.granularity();
            assertThat(sampled).as("sigma %s", sigma).isGreaterThanOrEqualTo(sigma * (1 - 1e-12));
            assertThat(plan.sigma()).isGreaterThanOrEqualTo(sigma);
        }
    }

    @Test
    void everyEpsilonFactoryRefusesBelowTheFloorAtPlanning() {
        BigDecimal tiny = new BigDecimal("1e-9");
        assertThatThrownBy(() -> WishartMechanism.of(3, 1, tiny, new BigDecimal("1e-6")))
                .isInstanceOf(PrivacyArgumentException.class);
        assertThatThrownBy(() -> JlMatrixSketch.of(3, 1, tiny, new BigDecimal("1e-6"), 0.5, 0.1))
                .isInstanceOf(PrivacyArgumentException.class);
        assertThatThrownBy(() -> EigenSamplingMechanism.of(3, 2, 1, NeighbouringRelation.ADD_REMOVE, tiny))
                .isInstanceOf(PrivacyArgumentException.class);
        // Before: accepted at planning, failed only in the release, after the charge.
        assertThatThrownBy(() -> OrbitSamplingMechanism.of(3, 2, 1, NeighbouringRelation.ADD_REMOVE,
                new BigDecimal("3e-6"), OrbitSamplingMechanism.Spectrum.PROJECTION))
                .isInstanceOf(PrivacyArgumentException.class);
    }
}
