package io.privmat.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The reference numbers of docs/accounting.md §6, asserted to the
 * precision they are stated with (six decimals: ±1.5e-6 allows for the last digit's rounding).
 */
class ReferenceNumbersTest {

    private static final double SIX_PLACES = 1.5e-6;

    @Test
    void pureEpsilonOneIsHalfRho() {
        assertThat(Conversions.pureToZcdp(1.0)).isCloseTo(0.5, within(1e-15)).isGreaterThanOrEqualTo(0.5);
        assertThat(Conversions.boundedRangeToZcdp(1.0)).isCloseTo(0.125, within(1e-15)).isGreaterThanOrEqualTo(0.125);
    }

    @ParameterizedTest(name = "rho={0}, delta={1} -> BS16 {2}, CKS20 {3}")
    @CsvSource({
        "0.5,  1e-5, 5.298526, 4.728387",
        "1.0,  1e-5, 7.786140, 7.077197",
        "0.1,  1e-6, 2.450788, 2.141939",
        "0.01, 1e-5, 0.688614, 0.545726"
    })
    void zcdpToApproxDp(double rho, double delta, double bunSteinke, double cks) {
        assertThat(Conversions.zcdpToEpsilonBunSteinke(rho, delta)).isCloseTo(bunSteinke, within(SIX_PLACES));
        assertThat(Conversions.zcdpToEpsilonCks(rho, delta)).isCloseTo(cks, within(SIX_PLACES));
    }

    @ParameterizedTest(name = "budget ({0}, {1}) -> rho_B CKS20 {3}")
    @CsvSource({
        "1, 1e-6, 0.017469, 0.024356, 21.99",
        "1, 1e-5, 0.020820, 0.030557, NaN",
        "3, 1e-5, 0.173483, 0.224249, 7.51",
        "8, 1e-5, 1.049136, 1.229715, NaN"
    })
    void budgetToLargestRho(double epsilon, double delta, double rhoBunSteinke, double rhoCks, double alphaStar) {
        RhoBudget budget = Conversions.largestZcdpRho(epsilon, delta);
        assertThat(budget.rho()).isCloseTo(rhoCks, within(SIX_PLACES));
        if (!Double.isNaN(alphaStar)) {
            assertThat(budget.alphaStar()).isCloseTo(alphaStar, within(0.02));
        }
        // The Bun–Steinke inverse ρ = (√(ln(1/δ) + ε) − √ln(1/δ))² converts back to ε.
        assertThat(Conversions.zcdpToEpsilonBunSteinke(rhoBunSteinke, delta)).isCloseTo(epsilon, within(1e-4));
        double exactBsRho = Math.pow(Math.sqrt(Math.log(1 / delta) + epsilon) - Math.sqrt(Math.log(1 / delta)), 2);
        assertThat(exactBsRho).isCloseTo(rhoBunSteinke, within(SIX_PLACES));
    }

    @ParameterizedTest(name = "Gaussian sigma=1 composed k={0} times at delta=1e-5")
    @CsvSource({
        "1,   4.377178,  4.728387,  5.298526",
        "10,  17.856587, 19.047260, 20.174271",
        "100, 91.817290, 96.035271, 97.985259"
    })
    void gaussianKFoldEpsilon(int k, double exactGdp, double cks, double bunSteinke) {
        double rho = k * new GaussianLoss(1, 1).rho().doubleValue();
        double mu = Math.sqrt(k);
        assertThat(Conversions.gdpEpsilon(mu, 1e-5)).isCloseTo(exactGdp, within(SIX_PLACES));
        assertThat(Conversions.zcdpToEpsilonCks(rho, 1e-5)).isCloseTo(cks, within(SIX_PLACES));
        assertThat(Conversions.zcdpToEpsilonBunSteinke(rho, 1e-5)).isCloseTo(bunSteinke, within(SIX_PLACES));
    }

    @ParameterizedTest(name = "analytic sigma at ({0}, {1})")
    @CsvSource({
        "1,   1e-5, 3.730632",
        "0.5, 1e-5, 7.031827",
        "0.1, 1e-5, 30.749566",
        "1,   1e-6, 4.224679",
        "2,   1e-5, 1.993812"
    })
    void analyticGaussianSigma(double epsilon, double delta, double sigma) {
        double computed = GaussianCalibration.analyticSigma(epsilon, delta, 1.0);
        assertThat(computed).isCloseTo(sigma, within(SIX_PLACES));
        // Conservative: the returned σ satisfies Theorem 8 at the requested δ.
        assertThat(Conversions.gdpDelta(1.0 / computed, epsilon)).isLessThanOrEqualTo(delta);
        // …and scales linearly with the sensitivity.
        assertThat(GaussianCalibration.analyticSigma(epsilon, delta, 2.5)).isCloseTo(2.5 * computed, within(1e-9 * computed));
    }

    @Test
    void analyticGaussianTableAtDelta1e6() {
        assertThat(GaussianCalibration.analyticSigma(0.1, 1e-6, 1)).isCloseTo(36.30, within(0.005));
        assertThat(GaussianCalibration.analyticSigma(0.5, 1e-6, 1)).isCloseTo(8.06, within(0.005));
        assertThat(GaussianCalibration.analyticSigma(2.0, 1e-6, 1)).isCloseTo(2.23, within(0.005));
        assertThat(GaussianCalibration.analyticSigma(5.0, 1e-6, 1)).isCloseTo(0.98, within(0.005));
    }

    @Test
    void classicGaussianOnlyBelowEpsilonOne() {
        assertThat(GaussianCalibration.classicSigma(0.5, 1e-5, 1)).isCloseTo(9.689610, within(SIX_PLACES));
        assertThat(GaussianCalibration.classicSigma(0.1, 1e-6, 1)).isCloseTo(52.99, within(0.005));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> GaussianCalibration.classicSigma(1.0, 1e-5, 1))
                .isInstanceOf(PrivacyArgumentException.class)
                .hasMessageContaining("epsilon must be in (0, 1)");
    }

    @Test
    void gdpVersusConversionsAtDelta1e6() {
        // docs/accounting.md §6: ρ → ε at δ = 1e-6 by BS16, CKS20, exact GDP (μ = √(2ρ)).
        double[][] rows = {{0.005, 0.531, 0.430, 0.397}, {0.05, 1.712, 1.472, 1.368}, {0.5, 5.757, 5.222, 4.887}};
        for (double[] r : rows) {
            assertThat(Conversions.zcdpToEpsilonBunSteinke(r[0], 1e-6)).isCloseTo(r[1], within(0.0006));
            assertThat(Conversions.zcdpToEpsilonCks(r[0], 1e-6)).isCloseTo(r[2], within(0.0006));
            assertThat(Conversions.gdpEpsilon(Math.sqrt(2 * r[0]), 1e-6)).isCloseTo(r[3], within(0.0006));
        }
    }

    @Test
    void smallestSigmaForRemainingRho() {
        // docs/accounting.md §6: Δ = 1, ρ_rem = 0.02 → σ = Δ/√(2ρ) = 5.0.
        assertThat(GaussianCalibration.sigmaForRho(1, 0.02)).isCloseTo(5.0, within(1e-12)).isGreaterThanOrEqualTo(5.0);
    }
}
