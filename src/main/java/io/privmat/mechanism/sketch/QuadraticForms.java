package io.privmat.mechanism.sketch;

import io.privmat.privacy.StandardNormal;

/**
 * Directional variance ‖Xx‖² = xᵀ(XᵀX)x for a unit x, answered from a released noisy second-moment
 * matrix (Analyze Gauss or Wishart) — the same free post-processing path as the JL matrix sketch.
 */
public final class QuadraticForms {

    private QuadraticForms() {}

    static double quadratic(double[] matrix, int d, double[] x) {
        double total = 0;
        for (int i = 0; i < d; i++) {
            double row = 0;
            for (int j = 0; j < d; j++) {
                row += matrix[i * d + j] * x[j];
            }
            total += x[i] * row;
        }
        return total;
    }

    /**
     * Analyze Gauss release C + (G + Gᵀ)/2: for unit x, xᵀ((G + Gᵀ)/2)x = xᵀGx ~ N(0, σ²), so
     * Φ ∈ Φ̂ ± σ·z_{1−ν/2}, widened by the grid rounding (≤ g/2 per entry, ‖x‖₁² ≤ d).
     */
    public static Interval analyzeGauss(double[] noisy, int d, double sigma, double granularity, double nu, double[] unit) {
        double estimate = quadratic(noisy, d, unit);
        double half = sigma * StandardNormal.upperQuantile(nu / 2) + granularity / 2 * d;
        return Interval.symmetric(estimate, half);
    }

    /**
     * Wishart release C + W, W ~ Wishart(B²I, k): xᵀWx ~ B²·χ²_k for unit x, so
     * Φ̂ = xᵀĈx − kB² and, by Laurent–Massart, |χ²_k − k| ≤ 2√(k·t) + 2t with probability ≥ 1 − ν
     * for t = ln(2/ν).
     */
    public static Interval wishart(double[] noisy, int d, long degrees, double b2, double granularity, double nu,
            double[] unit) {
        double estimate = quadratic(noisy, d, unit) - degrees * b2;
        double t = Math.log(2 / nu);
        double half = b2 * (2 * Math.sqrt(degrees * t) + 2 * t) + granularity / 2 * d;
        return Interval.symmetric(estimate, half);
    }

}
