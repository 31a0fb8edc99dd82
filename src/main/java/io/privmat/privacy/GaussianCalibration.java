package io.privmat.privacy;

/**
 * Noise calibration for the Gaussian mechanism.
 *
 * <p>{@link #analyticSigma} is the exact calibration of Balle and Wang (ICML 2018,
 * arXiv:1805.06530, Theorem 8): N(0, σ²) noise on a query of L2 sensitivity Δ is (ε, δ)-DP iff
 * δ ≥ Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ). That right-hand side is the GDP curve at
 * μ = Δ/σ, so we bisect on μ against {@link Conversions#gdpDelta} (itself an upper bound) and
 * return the upper end for σ. {@link #classicSigma} is Dwork–Roth Theorem A.1, valid only for
 * ε &lt; 1.
 */
public final class GaussianCalibration {

    private GaussianCalibration() {}

    /**
     * The smallest σ (up to a relative 1e-12, rounded up) for which the Gaussian mechanism with
     * L2 sensitivity Δ is (ε, δ)-DP.
     *
     * @param epsilon ε ∈ [{@link PrivacyFloors#MIN_EPSILON}, 1000]
     * @param delta δ ∈ (0, 1)
     * @param l2Sensitivity Δ ∈ (0, ∞)
     */
    public static double analyticSigma(double epsilon, double delta, double l2Sensitivity) {
        Checks.inOpenClosed("epsilon", epsilon, 0, 1000);
        PrivacyFloors.epsilon("epsilon", epsilon);
        Checks.inOpen("delta", delta, 0, 1);
        Checks.positive("l2Sensitivity", l2Sensitivity);
        // δ(μ) increases with μ = Δ/σ: find the largest μ with δ(μ) ≤ target.
        double lo = 0;
        double hi = 1;
        while (Conversions.gdpDelta(hi, epsilon) <= delta) {
            lo = hi;
            hi *= 2;
        }
        if (lo == 0) {
            lo = hi;
            while (Conversions.gdpDelta(lo, epsilon) > delta) {
                hi = lo;
                lo /= 2;
            }
        }
        for (int i = 0; i < 300 && hi - lo > 1e-13 * lo; i++) {
            double mid = 0.5 * (lo + hi);
            if (Conversions.gdpDelta(mid, epsilon) <= delta) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Rounding.up(l2Sensitivity / lo);
    }

    /**
     * The classic σ = Δ·√(2 ln(1.25/δ))/ε (Dwork and Roth 2014, Theorem A.1), rounded up.
     *
     * @param epsilon ε ∈ (0, 1): the theorem is not proven for ε ≥ 1
     */
    public static double classicSigma(double epsilon, double delta, double l2Sensitivity) {
        Checks.inOpen("epsilon", epsilon, 0, 1);
        PrivacyFloors.epsilon("epsilon", epsilon);
        Checks.inOpen("delta", delta, 0, 1);
        Checks.positive("l2Sensitivity", l2Sensitivity);
        return Rounding.up(l2Sensitivity * Math.sqrt(2 * Math.log(1.25 / delta)) / epsilon);
    }

    /**
     * σ = Δ/√(2ρ): the σ at which a Gaussian of sensitivity Δ costs exactly ρ. Rounded up.
     *
     * @param rho ρ ≥ {@link PrivacyFloors#MIN_RHO}
     */
    public static double sigmaForRho(double l2Sensitivity, double rho) {
        Checks.positive("l2Sensitivity", l2Sensitivity);
        Checks.positive("rho", rho);
        PrivacyFloors.rho("rho", rho);
        return Rounding.up(l2Sensitivity / Math.sqrt(2 * rho));
    }
}
