package io.privmat.mechanism.catalog;

import io.privmat.mechanism.analytics.Tails;

/**
 * The tail figures behind the catalogue's stated errors (docs/accuracy/intervals.md), each a
 * deterministic function of public numbers. {@code alpha} is 1 − level.
 */
public final class Accuracies {

    private Accuracies() {}

    public static double alpha(double level) {
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be in (0, 1)");
        }
        return 1 - level;
    }

    /**
     * Half-width of a two-sided interval for one entry of Gaussian noise σ on a grid g: z_{α/2}·σ
     * (the continuous quantile; the discrete Gaussian with σ ≫ g has the same tails to within the
     * grid) plus g/2 for the rounding of the statistic to the grid.
     */
    public static double gaussianHalfWidth(double sigma, double granularity, double level) {
        return Tails.normalUpper(alpha(level) / 2) * sigma + granularity / 2;
    }

    /**
     * Half-width of a two-sided interval for one entry of discrete Laplace noise of scale b = t·g on
     * the grid g (P(K = k) ∝ e^{−|k|/t}): the smallest m·g with P(|K| &gt; m) =
     * 2e^{−(m+1)/t}/(1 + e^{−1/t}) ≤ α — exact — plus g/2 for the rounding of the statistic.
     */
    public static double laplaceHalfWidth(double scale, double granularity, double level) {
        double t = scale / granularity;
        double m = Math.ceil(t * Math.log(2 / (alpha(level) * (1 + Math.exp(-1 / t))))) - 1;
        return Math.max(0, m) * granularity + granularity / 2;
    }

    /** Standard deviation of discrete Laplace noise of scale b = t·g: g·√(2e^{−1/t})/(1 − e^{−1/t}). */
    public static double laplaceSd(double scale, double granularity) {
        double q = Math.exp(-granularity / scale);
        return granularity * Math.sqrt(2 * q) / (1 - q);
    }

    /**
     * A bound on ‖E‖_F for the symmetric noise E = (G + Gᵀ)/2, G with i.i.d. N(0, σ²) entries:
     * ‖E‖_F² = σ²·χ²_{d(d+1)/2} exactly (diagonal σ², off-diagonal σ²/2, counted twice), bounded by
     * Laurent–Massart at probability 1 − α; plus ‖R‖_F ≤ d·g/2 for the rounding of the statistic.
     */
    public static double symmetricGaussianFrobenius(double sigma, int d, double granularity, double level) {
        double k = d * (d + 1) / 2.0;
        return sigma * Math.sqrt(Tails.chiSquaredUpper(k, Math.log(1 / alpha(level)))) + d * granularity / 2;
    }

    /** √E‖E‖_F² = σ·√(d(d+1)/2) for E = (G + Gᵀ)/2. */
    public static double symmetricGaussianFrobeniusRms(double sigma, int d) {
        return sigma * Math.sqrt(d * (d + 1) / 2.0);
    }

    /**
     * A bound on ‖E‖₂ for E = (G + Gᵀ)/2: ‖E‖₂ ≤ ‖G‖₂, and for a d × d Gaussian G,
     * E‖G‖₂ ≤ 2σ√d (Gordon) while ‖G‖₂ is σ-Lipschitz in the Gaussian vector, so
     * ‖G‖₂ ≤ σ(2√d + √(2 ln(1/α))) with probability ≥ 1 − α (Davidson–Szarek); plus d·g/2 for the
     * rounding (‖R‖₂ ≤ ‖R‖_F). About √2 loose: E‖E‖₂ ≈ σ√(2d) for large d.
     */
    public static double symmetricGaussianSpectral(double sigma, int d, double granularity, double level) {
        return sigma * (2 * Math.sqrt(d) + Math.sqrt(2 * Math.log(1 / alpha(level)))) + d * granularity / 2;
    }

    /**
     * A bound on ‖W − k·b²·I‖₂ for W ~ Wishart_d(b²·I, k), k ≥ d: the singular values of a k × d
     * Gaussian matrix lie in [√k − √d − t, √k + √d + t] with probability ≥ 1 − 2e^{−t²/2}
     * (Davidson–Szarek), so with s = √d + t the eigenvalues of W/b² lie within
     * [k − 2s√k, k + 2s√k + s²] around k; plus d·g/2 for the rounding to the grid.
     */
    public static double wishartSpectral(long k, int d, double b2, double granularity, double level) {
        double t = Math.sqrt(2 * Math.log(2 / alpha(level)));
        double s = Math.sqrt(d) + t;
        return b2 * (2 * s * Math.sqrt((double) k) + s * s) + d * granularity / 2;
    }

    /** √E‖W − k·b²·I‖_F² = b²·√(k·d(d+1)) (Var W_ii = 2k·b⁴, Var W_ij = k·b⁴). */
    public static double wishartFrobeniusRms(long k, int d, double b2) {
        return b2 * Math.sqrt((double) k * d * (d + 1));
    }

    /** An upper bound on the (1 − α) quantile of χ²_k (Laurent–Massart). */
    public static double chiSquaredQuantile(double k, double level) {
        return Tails.chiSquaredUpper(k, Math.log(1 / alpha(level)));
    }
}
