package io.privmat.mechanism.covariance;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.GaussianLoss;

/**
 * Analyze Gauss (Dwork, Talwar, Thakurta, Zhang, STOC 2014): XᵀX plus symmetric Gaussian noise.
 *
 * <p><b>Privacy guarantee</b>: the d² Gaussian mechanism on vec(XᵀX) with Frobenius sensitivity
 * Δ_F (B² under ADD_REMOVE, √2·B² under REPLACE_ONE; {@link Sensitivities#gramFrobenius}), exact
 * discrete Gaussian noise on a power-of-two grid (sensitivity inflated by the rounding, Δ_F + g·d),
 * symmetrised as (G + Gᵀ)/2, which is post-processing (docs/mechanisms/covariance.md, "Why the symmetrised noise is valid"). Loss:
 * {@link #privacyLoss()} (ρ = Δ′²/2σ²; exactly μ-GDP).
 * <b>Post-processing</b> (free): PSD projection, eigenvalues clamped to [0, n·B²] when n is public.
 * <b>Citations</b>: DTTZ 2014; Balle–Wang 2018 for the analytic σ; docs/mechanisms/covariance.md.
 */
public final class AnalyzeGaussMechanism {

    private final int d;
    private final GridNoise.GaussianPlan plan;

    private AnalyzeGaussMechanism(int d, GridNoise.GaussianPlan plan) {
        this.d = d;
        this.plan = plan;
    }

    private static double sensitivity(double rowBound, NeighbouringRelation relation) {
        return Sensitivities.gramFrobenius(rowBound, relation);
    }

    /** Calibrated so that the loss is at most ρ-zCDP. */
    public static AnalyzeGaussMechanism forRho(int d, double rowBound, NeighbouringRelation relation, double rho) {
        double delta = sensitivity(rowBound, relation);
        double sigma = GaussianCalibration.sigmaForRho(delta * GridNoise.CALIBRATION_MARGIN, rho);
        return new AnalyzeGaussMechanism(d, GridNoise.gaussian(delta, sigma, (long) d * d));
    }

    /** Analytic-Gaussian calibration to (ε, δ)-DP. */
    public static AnalyzeGaussMechanism forApproxDp(int d, double rowBound, NeighbouringRelation relation,
            double epsilon, double delta) {
        double sens = sensitivity(rowBound, relation);
        double sigma = GaussianCalibration.analyticSigma(epsilon, delta, sens * GridNoise.CALIBRATION_MARGIN);
        return new AnalyzeGaussMechanism(d, GridNoise.gaussian(sens, sigma, (long) d * d));
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

    /** The noisy symmetric XᵀX + (G + Gᵀ)/2 (the private release, before post-processing). */
    public double[] release(double[] gram, NoiseSource random) {
        if (gram.length != d * d) {
            throw new IllegalArgumentException("expected a " + d + "×" + d + " Gram matrix");
        }
        return GridNoise.symmetricGaussian(plan, gram, d, random);
    }
}
