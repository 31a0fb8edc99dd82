package io.privmat.mechanism.analytics;

import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Linear regression of one column y on others X_S from a released second moment Ĉ of [X y]
 * (Sheffet, "Old techniques in differentially private linear regression", ALT 2019), with the ridge
 * the release's noise implies and an error statement for every coefficient. Free post-processing.
 *
 * <p><b>Estimator.</b> With Â = Ĉ_SS − τI (noise mean removed) and ĉ = Ĉ_{S,y}:
 * β̂ = (Â + λI)⁻¹ĉ. The ridge λ by default ({@code ridge} null):
 * <ul>
 *   <li>Wishart: λ = k·B², i.e. Ĉ_SS itself ("k random rows added to the data");</li>
 *   <li>JL sketch: λ = W, i.e. Ĉ_SS itself (the sketch's floor); no other λ is accepted;</li>
 *   <li>Analyze Gauss: λ = max(0, η − λ_min(Â)) with η the 99% bound on the spectral norm of the
 *       p × p noise block ({@link NoiseModel.Gaussian}): the smallest ridge that makes
 *       λ_min(Â + λI) ≥ η, the rule AdaSSP applies with a private λ_min (Wang, UAI 2018).</li>
 * </ul>
 *
 * <p><b>Estimand and identity.</b> β_λ = (A + λI)⁻¹b with A = X_SᵀX_S, b = X_Sᵀy (the data's own
 * ridge fit). With Ĉ = C + τI + E′ and v = (−β_λ, 1): ĉ − (Â + λI)β_λ = (E′v)_S, so
 * β̂ − β_λ = M⁻¹(E′v)_S, M = Â + λI — exactly, for any λ.
 *
 * <p><b>Bounds</b> (Analyze Gauss, Wishart; {@link RegressionResult.Intervals#SIMULTANEOUS_BOUND}):
 * on the event of {@link RegressionNoise} (probability ≥ level), ‖(E′v)_S‖ ≤ a₀ + a₁‖β_λ‖, so
 * |β̂ⱼ − β_λ,ⱼ| ≤ ‖M⁻¹eⱼ‖·(a₀ + a₁·B_β) where B_β bounds ‖β_λ‖ by the smaller of
 * ‖β̂‖ + R, R = (a₀ + a₁‖β̂‖)/(m − a₁) (m = min |eig(M)| &gt; a₁; from ‖β̂ − β‖ ≤ (a₀ + a₁‖β‖)/m), and,
 * when λ &gt; 0, ‖y‖/(2√λ) ≤ √(Ĉ_yy − τ + |E′_yy| bound)/(2√λ) (a ridge solution has
 * ‖(XᵀX + λI)⁻¹Xᵀy‖ ≤ ‖y‖/(2√λ)). The bounds are uniform in β, so they also hold for a λ chosen after
 * looking at the release.
 *
 * <p><b>Exact intervals</b> (JL; {@link RegressionResult.Intervals#EXACT_T}): the sketch's rows are
 * i.i.d. N(0, C + W·I), so β̂ is ordinary least squares of M_y on M_S in a Gaussian linear model
 * with r observations and coefficient β_W: Student-t intervals with r − p degrees of freedom,
 * standard errors √((Ĉ_yy − ĉᵀβ̂)/(r − p)·[Ĉ_SS⁻¹]ⱼⱼ).
 *
 * <p><b>Approximate intervals</b>: β̂ⱼ ± z·√((M⁻¹ΣM⁻¹)ⱼⱼ) with Σ = Cov((E′v)_S) at β̂ (first-order;
 * no guarantee; calibration measured in docs/accuracy/analytics.md).
 */
public final class LinearRegression {

    /** Failure probability of the spectral bound η in Analyze Gauss's default ridge. */
    public static final double RIDGE_FAILURE = 0.01;

    private LinearRegression() {}

    /**
     * @param ridge λ ≥ 0 relative to the debiased Ĉ, or null for the release's implied ridge
     * @param level coverage of the intervals, in [0.5, 0.999999]
     * @throws AnalyticsArgumentException for indices or values that do not fit this release
     */
    public static RegressionResult fit(SecondMoment release, int response, int[] predictors, @Nullable Double ridge,
            double level) {
        int d = release.d();
        checkColumns(d, response, predictors);
        AnalyticsArgumentException.level(level);
        int p = predictors.length;
        double[] xx = new double[p * p];
        double[] xy = new double[p];
        for (int i = 0; i < p; i++) {
            for (int j = 0; j < p; j++) {
                xx[i * p + j] = release.entry(predictors[i], predictors[j]);
            }
            xy[i] = release.entry(predictors[i], response);
        }
        double yy = release.entry(response, response);
        if (release.noise() instanceof NoiseModel.JohnsonLindenstrauss jl) {
            AnalyticsArgumentException.check(ridge == null, "ridge", "absent", "a JL sketch implies its ridge (its "
                    + "floor W = " + jl.floor() + "); ridge cannot be set");
            AnalyticsArgumentException.check(p < jl.r(), "predictors", "fewer than r = " + jl.r(),
                    "a JL sketch with r = " + jl.r() + " rows supports fewer than r predictors");
            return exactT(response, predictors, xx, xy, yy, jl, level);
        }
        if (ridge != null) {
            AnalyticsArgumentException.check(Double.isFinite(ridge) && ridge >= 0, "ridge", "[0, ∞)",
                    "ridge must be a finite number ≥ 0");
        }
        double tau = release.noise().shift();
        for (int i = 0; i < p; i++) {
            xx[i * p + i] -= tau;
        }
        double lambda;
        String rule;
        if (ridge != null) {
            lambda = ridge;
            rule = "requested";
        } else if (release.noise() instanceof NoiseModel.Wishart) {
            lambda = tau;
            rule = "implied: the Wishart noise mean k·B² (the released matrix itself)";
        } else {
            double eta = release.noise().envelope(p, RIDGE_FAILURE).additive();
            lambda = Math.max(0, eta - LinearAlgebra.eigen(xx, p).values()[p - 1]);
            rule = "implied: max(0, η − λ_min(Ĉ_SS)), η the 99% spectral bound of the noise";
        }
        RegressionNoise noise = release.noise().regression(p, 1 - level);
        return solve(response, predictors, xx, xy, lambda, rule, noise, yy - tau + noise.responseNoise(), level);
    }

    /**
     * The shared solver: β̂ = (Â + λI)⁻¹ĉ with bounds and approximate intervals (class comment).
     *
     * @param debiasedXx Â (p × p, row-major, symmetric; not modified)
     * @param yyUpper an upper bound on yᵀy holding on the same event (+∞ if none)
     * @throws AnalyticsArgumentException when Â + λI is singular
     */
    public static RegressionResult solve(int response, int[] predictors, double[] debiasedXx, double[] xy,
            double lambda, String rule, RegressionNoise noise, double yyUpper, double level) {
        int p = predictors.length;
        double[] m = debiasedXx.clone();
        for (int i = 0; i < p; i++) {
            m[i * p + i] += lambda;
        }
        Inverse inv = Inverse.of(m, p);
        double[] beta = inv.times(xy);
        double norm = norm(beta);
        double r = noise.a1() < inv.minAbs() ? (noise.a0() + noise.a1() * norm) / (inv.minAbs() - noise.a1())
                : Double.POSITIVE_INFINITY;
        double prior = lambda > 0 ? Math.sqrt(Math.max(0, yyUpper)) / (2 * Math.sqrt(lambda)) : Double.POSITIVE_INFINITY;
        double betaBound = Math.min(norm + r, prior);
        double[] minvBeta = inv.times(beta);
        double z = Tails.normalUpper((1 - level) / 2);
        double[] lower = new double[p];
        double[] upper = new double[p];
        double[] approxLower = new double[p];
        double[] approxUpper = new double[p];
        double[] se = new double[p];
        for (int j = 0; j < p; j++) {
            double row2 = inv.rowNormSquared(j);
            double half = Double.isFinite(betaBound) ? Math.sqrt(row2) * (noise.a0() + noise.a1() * betaBound)
                    : Double.POSITIVE_INFINITY;
            lower[j] = beta[j] - half;
            upper[j] = beta[j] + half;
            double var = (noise.covIdentity() + noise.covBeta() * norm * norm) * row2
                    + noise.covBeta() * minvBeta[j] * minvBeta[j];
            se[j] = Math.sqrt(var);
            approxLower[j] = beta[j] - z * se[j];
            approxUpper[j] = beta[j] + z * se[j];
        }
        return new RegressionResult(response, predictors.clone(), lambda, rule, level, beta, lower, upper,
                RegressionResult.Intervals.SIMULTANEOUS_BOUND, approxLower, approxUpper, se);
    }

    private static RegressionResult exactT(int response, int[] predictors, double[] xx, double[] xy, double yy,
            NoiseModel.JohnsonLindenstrauss jl, double level) {
        int p = predictors.length;
        Inverse inv = Inverse.of(xx, p);
        double[] beta = inv.times(xy);
        double fitted = 0;
        for (int j = 0; j < p; j++) {
            fitted += xy[j] * beta[j];
        }
        int df = jl.r() - p;
        double residual = Math.max(0, yy - fitted) / df;
        double t = Tails.studentUpper(df, (1 - level) / 2);
        double[] lower = new double[p];
        double[] upper = new double[p];
        double[] se = new double[p];
        for (int j = 0; j < p; j++) {
            se[j] = Math.sqrt(residual * inv.diagonal(j));
            lower[j] = beta[j] - t * se[j];
            upper[j] = beta[j] + t * se[j];
        }
        return new RegressionResult(response, predictors.clone(), jl.floor(),
                "implied: the sketch's floor W (the released matrix itself)", level, beta, lower, upper,
                RegressionResult.Intervals.EXACT_T, lower.clone(), upper.clone(), se);
    }

    /** Every column but the response (the default predictors); empty when the response is not a column. */
    public static int[] otherColumns(int d, int response) {
        if (response < 0 || response >= d) {
            return new int[0];
        }
        int[] out = new int[d - 1];
        for (int j = 0, c = 0; j < d; j++) {
            if (j != response) {
                out[c++] = j;
            }
        }
        return out;
    }

    static void checkColumns(int d, int response, int[] predictors) {
        String range = "[0, " + (d - 1) + "]";
        AnalyticsArgumentException.check(response >= 0 && response < d, "response", range,
                "response must be a column index in " + range);
        AnalyticsArgumentException.check(predictors.length >= 1 && predictors.length < d, "predictors",
                "1 to " + (d - 1) + " distinct columns", "predictors must name 1 to " + (d - 1) + " columns");
        boolean[] seen = new boolean[d];
        seen[response] = true;
        for (int j = 0; j < predictors.length; j++) {
            int c = predictors[j];
            AnalyticsArgumentException.check(c >= 0 && c < d && !seen[c], "predictors[" + j + "]",
                    range + ", distinct, not the response", "predictors[" + j + "] must be a column index in " + range
                            + ", distinct from the response and the other predictors");
            seen[c] = true;
        }
    }

    static double norm(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return Math.sqrt(s);
    }

    /** A symmetric matrix's inverse through its eigendecomposition. */
    record Inverse(int p, double[] values, double[] vectors, double minAbs) {

        static Inverse of(double[] symmetric, int p) {
            SymmetricEigen e = LinearAlgebra.eigen(symmetric, p);
            double min = Arrays.stream(e.values()).map(Math::abs).min().orElse(0);
            double max = Arrays.stream(e.values()).map(Math::abs).max().orElse(0);
            AnalyticsArgumentException.check(min > max * 1e-14 && min > 0, "ridge", "larger",
                    "the regularised predictor matrix is singular; give a larger ridge");
            return new Inverse(p, e.values(), e.vectors(), min);
        }

        double[] times(double[] x) {
            double[] proj = new double[p];
            for (int j = 0; j < p; j++) {
                double s = 0;
                for (int i = 0; i < p; i++) {
                    s += vectors[i * p + j] * x[i];
                }
                proj[j] = s / values[j];
            }
            double[] out = new double[p];
            for (int i = 0; i < p; i++) {
                double s = 0;
                for (int j = 0; j < p; j++) {
                    s += vectors[i * p + j] * proj[j];
                }
                out[i] = s;
            }
            return out;
        }

        /** ‖M⁻¹eᵢ‖² = Σⱼ Vᵢⱼ²/μⱼ². */
        double rowNormSquared(int i) {
            double s = 0;
            for (int j = 0; j < p; j++) {
                double v = vectors[i * p + j] / values[j];
                s += v * v;
            }
            return s;
        }

        /** (M⁻¹)ᵢᵢ. */
        double diagonal(int i) {
            double s = 0;
            for (int j = 0; j < p; j++) {
                s += vectors[i * p + j] * vectors[i * p + j] / values[j];
            }
            return s;
        }
    }
}
