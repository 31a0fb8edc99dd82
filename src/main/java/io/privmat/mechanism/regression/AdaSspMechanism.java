package io.privmat.mechanism.regression;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.analytics.LinearRegression;
import io.privmat.mechanism.analytics.RegressionNoise;
import io.privmat.mechanism.analytics.RegressionResult;
import io.privmat.mechanism.analytics.Tails;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.GaussianLoss;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * AdaSSP, adaptive sufficient-statistics perturbation (Y.-X. Wang, "Revisiting differentially private
 * linear regression: optimal and adaptive prediction &amp; estimation in unbounded domain", UAI 2018,
 * Algorithm 2), for the regression of one column y on others X of a matrix whose rows z = (x, y, …)
 * have ‖z‖₂ ≤ B. We use B_X = B (‖x‖ ≤ ‖z‖) and B_Y = B (|y| ≤ ‖z‖), and the sharper joint bound
 * ‖x‖·|y| ≤ (‖x‖² + y²)/2 ≤ B²/2 for the cross moment.
 *
 * <p><b>Three releases</b> (the noise multipliers re-derived for our relations, not the reference
 * code's constants):
 * <ol>
 *   <li>λ̂_min = λ_min(XᵀX) + N(0, σ₁²): sensitivity B² under both relations
 *       ({@link Sensitivities#minEigenvalue});</li>
 *   <li>XᵀX + (G + Gᵀ)/2, G i.i.d. N(0, σ₂²) (post-processing of the p² Gaussian mechanism):
 *       Frobenius sensitivity B² (ADD_REMOVE) or √2·B² (REPLACE_ONE) ({@link Sensitivities#gramFrobenius});</li>
 *   <li>Xᵀy + N(0, σ₃²·I): L2 sensitivity B²/2 (ADD_REMOVE) or B² (REPLACE_ONE)
 *       ({@link Sensitivities#crossMomentL2}).</li>
 * </ol>
 * Each is the exact discrete Gaussian on a power-of-two grid ({@link GridNoise}), σᵢ = Δᵢ·s with one
 * unit scale s, so each is μ/√3-GDP and the three compose to exactly μ-GDP (Dong, Roth, Su 2022):
 * calibrated to ρ (s = √3·Δ-margin/√(2ρ): ρ/3 each) or to (ε, δ) by the analytic Gaussian on the
 * composed μ (Balle and Wang 2018). The catalogue composes the three losses with
 * {@code PrivacyMap.compose}.
 *
 * <p><b>Post-processing</b> (free), with failure probability ν (Wang's ϱ, default 0.05):
 * λ̃ = max(0, λ̂_min − σ₁·z_{ν/2}) (≤ λ_min(XᵀX) except with probability ν/2);
 * η = σ₂(√(2p) + √(2 ln(4/ν))) + p·g₂/2, a bound on the spectral norm of the Gram noise except with
 * probability ν/2 ({@link io.privmat.mechanism.analytics.NoiseModel.Gaussian}); λ = max(0, η − λ̃);
 * β̂ = (X̂ᵀX + λI)⁻¹X̂ᵀy. On the event above X̂ᵀX + λI ⪰ 0; should it not be positive definite, λ is
 * raised to make its smallest eigenvalue η (post-processing of released values). The reference code
 * also adds I to XᵀX; we do not (the ridge λ covers it).
 *
 * <p><b>Error statement</b>: the coefficient bounds and approximate intervals of
 * {@link LinearRegression#solve} for the data's ridge solution at the released λ, with
 * Cov(noise of X̂ᵀy − X̂ᵀXβ) = σ₃²I + (σ₂²/2)(‖β‖²I + ββᵀ).
 *
 * <p><b>Numerics</b>: the noise is exact; λ_min(XᵀX) and the Gram are computed in double precision
 * before rounding to the grid (as for Analyze Gauss).
 */
public final class AdaSspMechanism {

    /** Wang's ϱ. */
    public static final double DEFAULT_NU = 0.05;

    private final int p;
    private final double rowBound;
    private final double nu;
    private final GridNoise.GaussianPlan minPlan;
    private final GridNoise.GaussianPlan gramPlan;
    private final GridNoise.GaussianPlan crossPlan;

    private AdaSspMechanism(int p, double rowBound, NeighbouringRelation relation, double unitSigma, double nu) {
        if (p < 1) {
            throw new IllegalArgumentException("need at least one predictor");
        }
        if (!(nu > 0 && nu < 1)) {
            throw new IllegalArgumentException("nu must be in (0, 1)");
        }
        this.p = p;
        this.rowBound = rowBound;
        this.nu = nu;
        double minSens = Sensitivities.minEigenvalue(rowBound);
        double gramSens = Sensitivities.gramFrobenius(rowBound, relation);
        double crossSens = Sensitivities.crossMomentL2(rowBound, relation);
        this.minPlan = GridNoise.gaussian(minSens, minSens * unitSigma, 1);
        this.gramPlan = GridNoise.gaussian(gramSens, gramSens * unitSigma, (long) p * p);
        this.crossPlan = GridNoise.gaussian(crossSens, crossSens * unitSigma, p);
    }

    /** Total loss at most ρ-zCDP (ρ/3 per release). */
    public static AdaSspMechanism forRho(int p, double rowBound, NeighbouringRelation relation, double rho, double nu) {
        double unit = GaussianCalibration.sigmaForRho(GridNoise.CALIBRATION_MARGIN * Math.sqrt(3), rho);
        return new AdaSspMechanism(p, rowBound, relation, unit, nu);
    }

    /** Total (ε, δ)-DP: the analytic Gaussian on the composed μ, μ/√3 per release. */
    public static AdaSspMechanism forApproxDp(int p, double rowBound, NeighbouringRelation relation, double epsilon,
            double delta, double nu) {
        double unit = GaussianCalibration.analyticSigma(epsilon, delta, GridNoise.CALIBRATION_MARGIN) * Math.sqrt(3);
        return new AdaSspMechanism(p, rowBound, relation, unit, nu);
    }

    /** The three releases' losses (λ_min, XᵀX, Xᵀy), each with its grid-inflated sensitivity. */
    public List<GaussianLoss> losses() {
        return List.of(minPlan.loss(), gramPlan.loss(), crossPlan.loss());
    }

    public double minEigenvalueSigma() {
        return minPlan.sigma();
    }

    public double gramSigma() {
        return gramPlan.sigma();
    }

    public double crossSigma() {
        return crossPlan.sigma();
    }

    /** η, the public bound on the Gram noise's spectral norm (failure ν/2). */
    public double eta() {
        return gramPlan.sigma() * (Math.sqrt(2.0 * p) + Math.sqrt(2 * Math.log(4 / nu))) + p * gramPlan.granularity() / 2;
    }

    /** The coefficients with their intervals, the released λ̂_min, its lower bound λ̃ and η. */
    public record Released(RegressionResult regression, double minEigenvalue, double minEigenvalueLowerBound,
            double eta) {}

    /** The three noisy statistics, the mechanism's output before post-processing. */
    public record Statistics(double minEigenvalue, double[] gram, double[] cross) {}

    /**
     * The only method that touches data: the three releases.
     *
     * @param gram XᵀX of the whole dataset (d × d, row-major), from which the predictor block and the
     *     predictor–response column are read
     */
    public Statistics statistics(double[] gram, int d, int response, int[] predictors, NoiseSource random) {
        if (predictors.length != p || gram.length != d * d) {
            throw new IllegalArgumentException("expected " + p + " predictors of a " + d + "×" + d + " Gram matrix");
        }
        double[] xx = new double[p * p];
        double[] xy = new double[p];
        for (int i = 0; i < p; i++) {
            for (int j = 0; j < p; j++) {
                xx[i * p + j] = gram[predictors[i] * d + predictors[j]];
            }
            xy[i] = gram[predictors[i] * d + response];
        }
        double lambdaMin = p == 1 ? xx[0] : LinearAlgebra.eigen(xx, p).values()[p - 1];
        double[] minOut = new double[1];
        GridNoise.addGaussian(minPlan, new double[] {lambdaMin}, minOut, random);
        double[] noisyXx = GridNoise.symmetricGaussian(gramPlan, xx, p, random);
        double[] noisyXy = new double[p];
        GridNoise.addGaussian(crossPlan, xy, noisyXy, random);
        return new Statistics(minOut[0], noisyXx, noisyXy);
    }

    /**
     * {@link #statistics} and their post-processing (the coefficients with their intervals).
     *
     * @param publicRows n when public (then yᵀy ≤ n·B² bounds the coefficients when λ &gt; 0), else null
     * @param level coverage of the stated intervals (post-processing)
     */
    public Released release(double[] gram, int d, int response, int[] predictors, @Nullable Long publicRows,
            double level, NoiseSource random) {
        return postProcess(statistics(gram, d, response, predictors, random), response, predictors, publicRows, level);
    }

    /** Free post-processing of released statistics (class comment). */
    public Released postProcess(Statistics released, int response, int[] predictors, @Nullable Long publicRows,
            double level) {
        double[] noisyXx = released.gram();
        double[] noisyXy = released.cross();
        double[] minOut = {released.minEigenvalue()};
        double lower = Math.max(0, minOut[0] - minPlan.sigma() * Tails.normalUpper(nu / 2));
        double eta = eta();
        double lambda = Math.max(0, eta - lower);
        double[] m = noisyXx.clone();
        for (int i = 0; i < p; i++) {
            m[i * p + i] += lambda;
        }
        double smallest = LinearAlgebra.eigen(m, p).values()[p - 1];
        String rule = "AdaSSP: max(0, η − λ̃_min), λ̃_min a private lower bound on λ_min(XᵀX)";
        if (!(smallest > 0)) {
            lambda += eta - smallest;
            rule = "AdaSSP, raised to make the smallest eigenvalue η (the released matrix was not positive definite)";
        }
        double failure = 1 - level;
        double a0 = crossPlan.sigma() * Math.sqrt(Tails.chiSquaredUpper(p, Math.log(2 / failure)))
                + Math.sqrt(p) * crossPlan.granularity() / 2;
        double a1 = gramPlan.sigma() * (Math.sqrt(2.0 * p) + Math.sqrt(2 * Math.log(4 / failure)))
                + p * gramPlan.granularity() / 2;
        RegressionNoise noise = new RegressionNoise(a0, a1, 0, crossPlan.sigma() * crossPlan.sigma(),
                gramPlan.sigma() * gramPlan.sigma() / 2);
        double yyUpper = publicRows == null ? Double.POSITIVE_INFINITY : publicRows * rowBound * rowBound;
        RegressionResult result = LinearRegression.solve(response, predictors, noisyXx, noisyXy, lambda, rule, noise,
                yyUpper, level);
        return new Released(result, minOut[0], lower, eta);
    }
}
