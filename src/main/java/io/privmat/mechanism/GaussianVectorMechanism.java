package io.privmat.mechanism;

import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.GaussianLoss;

/**
 * The Gaussian mechanism on a p-dimensional real vector, with exact discrete Gaussian noise on a
 * power-of-two grid.
 *
 * <p><b>Privacy guarantee</b>: {@link #privacyLoss()}, a {@link GaussianLoss} with the sensitivity
 * inflated by the grid rounding (Δ + g·√p) and the σ actually used (≥ the σ asked for): ρ-zCDP with
 * ρ = Δ'²/(2σ²) (CKS20 Theorem 14 for the discrete Gaussian) and exactly μ-GDP with μ = Δ'/σ.
 * <b>Neighbouring relation</b>: whatever relation the caller's Δ is computed for.
 * <b>Numerics</b>: outputs are exact multiples of the granularity; no floating-point noise.
 * <b>Citations</b>: Canonne, Kamath, Steinke 2020; Mironov 2012 (why the grid).
 */
public final class GaussianVectorMechanism {

    private final GridNoise.GaussianPlan plan;
    private final int dimension;

    private GaussianVectorMechanism(GridNoise.GaussianPlan plan, int dimension) {
        this.plan = plan;
        this.dimension = dimension;
    }

    /** Noise of standard deviation (at least) σ. */
    public static GaussianVectorMechanism withSigma(double l2Sensitivity, double sigma, int dimension) {
        return new GaussianVectorMechanism(GridNoise.gaussian(l2Sensitivity, sigma, dimension), dimension);
    }

    /** Calibrated so that the charged loss is at most ρ-zCDP (σ from the grid-inflated sensitivity). */
    public static GaussianVectorMechanism forRho(double l2Sensitivity, double rho, int dimension) {
        // The inflation is ≤ 2^-12·Δ; calibrate to the inflated bound so the charge never exceeds ρ.
        double inflated = l2Sensitivity * GridNoise.CALIBRATION_MARGIN;
        return withSigma(l2Sensitivity, GaussianCalibration.sigmaForRho(inflated, rho), dimension);
    }

    /** Analytic-Gaussian calibration (Balle–Wang) to (ε, δ)-DP, on the grid-inflated sensitivity. */
    public static GaussianVectorMechanism forApproxDp(double l2Sensitivity, double epsilon, double delta, int dimension) {
        double inflated = l2Sensitivity * GridNoise.CALIBRATION_MARGIN;
        return withSigma(l2Sensitivity, GaussianCalibration.analyticSigma(epsilon, delta, inflated), dimension);
    }

    public GaussianLoss privacyLoss() {
        return plan.loss();
    }

    public double sigma() {
        return plan.sigma();
    }

    public double granularity() {
        return plan.granularity();
    }

    /** The only method that touches data: f + noise, as exact multiples of {@link #granularity()}. */
    public double[] release(double[] f, NoiseSource random) {
        if (f.length != dimension) {
            throw new IllegalArgumentException("expected a vector of dimension " + dimension);
        }
        double[] out = new double[dimension];
        GridNoise.addGaussian(plan, f, out, random);
        return out;
    }
}
