package io.privmat.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Why GDP accounting charges a grid discrete Gaussian with a margin (docs/accounting.md §1,
 * "discrete Gaussian"; {@link GdpFilter}): the discrete Gaussian N_ℤ(a, s²) shifted by an integer Δ
 * is not exactly (Δ/s)-GDP, but its privacy curve lies below the continuous Gaussian's with
 * variance s² − 16. The exact curve of the one-dimensional discrete pair is summed here directly:
 * δ(ε) = Σ_z (p(z) − e^ε·p(z − Δ))₊ / Σ_z p(z) with p(z) = exp(−z²/2s²).
 */
class DiscreteGaussianGdpTest {

    /** The exact δ(ε) of N_ℤ(0, s²) against N_ℤ(Δ, s²), summed over |z| ≤ 40s + Δ (the rest is below 1e-300). */
    static double discreteDelta(double s, int shift, double epsilon) {
        long r = (long) Math.ceil(40 * s) + shift;
        double total = 0;
        double mass = 0;
        double factor = Math.exp(epsilon);
        for (long z = -r; z <= r; z++) {
            double p = Math.exp(-(double) z * z / (2 * s * s));
            double q = Math.exp(-(double) (z - shift) * (z - shift) / (2 * s * s));
            mass += p;
            if (p > factor * q) {
                total += p - factor * q;
            }
        }
        return total / mass;
    }

    @Test
    void theExactClaimFailsForSmallSigma() {
        // s = 2, Δ = 1: at ε = 2 the discrete pair's δ is 14 % above the continuous 0.5-GDP curve.
        double discrete = discreteDelta(2, 1, 2);
        double continuous = Conversions.gdpDelta(0.5, 2);
        assertThat(discrete).isGreaterThan(continuous * 1.1);
    }

    @ParameterizedTest
    @CsvSource({"5", "6", "12", "40", "300", "4096"})
    void theCurveOfVarianceSSquaredMinus16DominatesTheDiscreteOne(double s) {
        for (int shift : new int[] {1, 2, 3, 5, (int) Math.round(s / 2), (int) Math.round(s)}) {
            double mu = shift / Math.sqrt(s * s - 16);
            for (double epsilon : new double[] {0, 0.05, 0.1, 0.3, 0.5, 1, 2, 4}) {
                double bound = Conversions.gdpDelta(mu, epsilon);
                if (bound < 1e-12) {
                    continue;
                }
                // Summation error below 1e-13 relative at these magnitudes.
                assertThat(discreteDelta(s, shift, epsilon)).as("s %s, shift %s, eps %s", s, shift, epsilon)
                        .isLessThanOrEqualTo(bound * (1 + 1e-9));
            }
        }
    }

    @Test
    void theMarginAndTheSlackCoverTheGridPlans() {
        // GridNoise plans σ ≥ 2¹² grid steps: s²/(s² − 16) ≤ 2²⁴/(2²⁴ − 16) = 2²⁰/(2²⁰ − 1), the filter's factor.
        BigDecimal s2 = BigDecimal.valueOf(1L << 24);
        BigDecimal needed = s2.divide(s2.subtract(BigDecimal.valueOf(16)), MathContext.DECIMAL128);
        BigDecimal charged = GdpFilter.GRID_MARGIN_NUMERATOR.divide(GdpFilter.GRID_MARGIN_DENOMINATOR,
                MathContext.DECIMAL128);
        assertThat(charged).isGreaterThanOrEqualTo(needed);
        // The mixture remainder per release is below 2.1·p·η with η = 2.0001·exp(−2π²κ²), κ = 4, p ≤ 2⁶²
        // coordinates; at most μ_B²·2⁴⁰ Gaussian releases (μ_i ≥ 2⁻¹⁹·√p, μ_B ≤ 100 for ε_B ≤ 100) fit;
        // (1 + e^ε_B) times their sum, in logs, stays below the slack δ_s = 1e-55.
        double lnRemainder = Math.log(2.1) + 62 * Math.log(2) + Math.log(2.0001) - 2 * Math.PI * Math.PI * 16;
        double lnTotal = lnRemainder + Math.log(1e4) + 40 * Math.log(2) + Math.log1p(Math.exp(100));
        assertThat(lnTotal).isLessThan(Math.log(GdpFilter.GRID_DELTA_SLACK.doubleValue()));
        // μ_B ≤ 100 at the largest budget (ε_B = 100, δ_B = 0.01).
        assertThat(((GdpFilter) Budget.of(100, 0.01, AccountingMode.GDP).filter()).muBudget()).isLessThan(100);
    }
}
