package io.privmat.mechanism.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.analytics.RegressionResult;
import io.privmat.mechanism.analytics.Releases;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.Conversions;
import io.privmat.privacy.GaussianLoss;
import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

/** AdaSSP: calibration of its three releases, its adaptive ridge, and its intervals. */
class AdaSspMechanismTest {

    static final int D = 4;
    static final double[] BETA = {1.0, -2.0, 0.5};
    static final int[] PREDICTORS = {0, 1, 2};

    @Test
    void threeReleasesComposeToTheRequestedRho() {
        for (NeighbouringRelation relation : NeighbouringRelation.values()) {
            AdaSspMechanism m = AdaSspMechanism.forRho(3, 1.0, relation, 0.3, 0.05);
            BigDecimal total = m.losses().stream().map(GaussianLoss::rho).reduce(BigDecimal.ZERO, BigDecimal::add);
            assertThat(total.doubleValue()).isLessThanOrEqualTo(0.3).isGreaterThan(0.3 * 0.998);
            // σᵢ ∝ Δᵢ: the Gram's noise over the cross moment's is Δ_F/Δ_xy (2 under ADD_REMOVE, √2 replacing).
            double ratio = Sensitivities.gramFrobenius(1.0, relation) / Sensitivities.crossMomentL2(1.0, relation);
            assertThat(m.gramSigma() / m.crossSigma()).isCloseTo(ratio, within(1e-3 * ratio));
        }
    }

    @Test
    void threeReleasesComposeToTheRequestedEpsilonDelta() {
        AdaSspMechanism m = AdaSspMechanism.forApproxDp(3, 1.0, NeighbouringRelation.REPLACE_ONE, 1.0, 1e-6, 0.05);
        double mu2 = m.losses().stream().mapToDouble(l -> l.mu() * l.mu()).sum();
        double mu = Math.sqrt(mu2);
        assertThat(Conversions.gdpDelta(mu, 1.0)).isLessThanOrEqualTo(1e-6);
        // Not wasteful: the composed μ is within 0.5% of the largest admissible one.
        assertThat(Conversions.gdpDelta(mu * 1.005, 1.0)).isGreaterThan(1e-6);
        // Equal split: each release's μ is a third of μ².
        for (GaussianLoss l : m.losses()) {
            assertThat(l.mu() * l.mu()).isCloseTo(mu2 / 3, within(mu2 * 1e-3));
        }
    }

    @Test
    void wellConditionedDataNeedsNoRidgeAndIsCovered() {
        double[] gram = Releases.gram(Releases.regressionRows(20_000, D, BETA, 11));
        double[] ols = Releases.ridgeTruth(gram, D, 0);
        int covered = 0;
        for (int seed = 0; seed < 40; seed++) {
            AdaSspMechanism.Released r = AdaSspMechanism.forApproxDp(3, 1.0, NeighbouringRelation.REPLACE_ONE, 1.0,
                    1e-6, 0.05).release(gram, D, 3, PREDICTORS, 20_000L, 0.95, TestNoiseSources.seeded(seed));
            RegressionResult res = r.regression();
            assertThat(res.ridge()).isZero();
            assertThat(r.minEigenvalueLowerBound()).isGreaterThan(r.eta());
            boolean all = true;
            for (int j = 0; j < 3; j++) {
                all &= ols[j] >= res.lower()[j] && ols[j] <= res.upper()[j];
                assertThat(res.estimate()[j]).isCloseTo(ols[j], within(5 * res.approximateStandardError()[j]));
                assertThat(res.approximateStandardError()[j]).isLessThan(0.25);
            }
            covered += all ? 1 : 0;
        }
        assertThat(covered).isGreaterThanOrEqualTo(39);
    }

    @Test
    void smallDataTurnsTheRidgeOnAndStaysReproducible() {
        double[] gram = Releases.gram(Releases.regressionRows(300, D, BETA, 12));
        AdaSspMechanism m = AdaSspMechanism.forRho(3, 1.0, NeighbouringRelation.ADD_REMOVE, 0.1, 0.05);
        AdaSspMechanism.Released a = m.release(gram, D, 3, PREDICTORS, null, 0.95, TestNoiseSources.seeded(7));
        AdaSspMechanism.Released b = m.release(gram, D, 3, PREDICTORS, null, 0.95, TestNoiseSources.seeded(7));
        assertThat(a.regression().ridge()).isPositive();
        assertThat(a.regression().estimate()).containsExactly(b.regression().estimate());
        double[] truth = Releases.ridgeTruth(gram, D, a.regression().ridge());
        for (int j = 0; j < 3; j++) {
            assertThat(truth[j]).isBetween(a.regression().approximateLower()[j] - 1, a.regression().approximateUpper()[j] + 1);
        }
        // n private (ADD_REMOVE): no prior bound on ‖β‖; the bound is finite only through the noise.
        assertThat(a.regression().intervals()).isEqualTo(RegressionResult.Intervals.SIMULTANEOUS_BOUND);
        assertThat(new BigDecimal(a.regression().ridge()).round(MathContext.DECIMAL64).signum()).isPositive();
    }
}
