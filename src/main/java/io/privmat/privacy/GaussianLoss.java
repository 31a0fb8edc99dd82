package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * The loss of one Gaussian mechanism with L2 sensitivity Δ and noise standard deviation σ.
 *
 * <p>It is exactly μ-GDP with μ = Δ/σ (Dong, Roth, Su 2019/2022, "Gaussian differential privacy",
 * Theorem 2.7), which gives its exact privacy curve δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2)
 * (their Corollary 2.13; equivalently Balle and Wang 2018, Theorem 8). It is Δ²/(2σ²)-zCDP
 * (Bun and Steinke 2016, Proposition 1.6).
 *
 * @param l2Sensitivity Δ ∈ (0, ∞)
 * @param sigma σ ∈ (0, ∞)
 */
public record GaussianLoss(double l2Sensitivity, double sigma) implements PrivacyLoss {

    public GaussianLoss {
        Checks.positive("l2Sensitivity", l2Sensitivity);
        Checks.positive("sigma", sigma);
    }

    /** μ = Δ/σ, rounded up. */
    public double mu() {
        return Math.nextUp(l2Sensitivity / sigma);
    }

    /** ρ = Δ²/(2σ²), computed exactly from the two doubles and rounded up to 34 digits. */
    public BigDecimal rho() {
        BigDecimal d = new BigDecimal(l2Sensitivity);
        BigDecimal s = new BigDecimal(sigma);
        return d.multiply(d).divide(s.multiply(s).multiply(BigDecimal.valueOf(2)), Decimals.UP);
    }

    /** Exact δ at the given ε (rounded up). */
    public double delta(double epsilon) {
        return Conversions.gdpDelta(mu(), epsilon);
    }

    /** Exact smallest ε at the given δ (rounded up). */
    public double epsilon(double delta) {
        return Conversions.gdpEpsilon(mu(), delta);
    }

    @Override
    public String notion() {
        return "Gaussian";
    }
}
