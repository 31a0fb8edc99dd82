package io.privmat.mechanism.covariance;

import io.privmat.mechanism.LaplaceVectorMechanism;
import io.privmat.mechanism.catalog.Accuracies;
import io.privmat.mechanism.catalog.ErrorBasis;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.IntervalSet;
import io.privmat.mechanism.catalog.ResultAccuracy;
import java.util.List;

/**
 * Accuracy of the sampling mechanisms (those that release the exact Bingham sampler's draws,
 * {@link Samplers}): discrete Laplace eigenvalues and Bingham draws ∝ exp(β·tr(UᵀMU)).
 * <ul>
 *   <li>Eigenvalues: the released values are the true ones plus i.i.d. discrete Laplace noise,
 *       clamped to [0, n·B²] (which holds the truth) and sorted; clamping and sorting are 1-Lipschitz
 *       in the sup norm, so every released eigenvalue is within max_j |noise_j| of the true one of
 *       the same rank, bounded by the Laplace quantile at 1 − α/d (union bound over d): BOUND,
 *       simultaneous.</li>
 *   <li>Subspace: a Bingham draw concentrated on the top eigenvector has, to first order, the d − 1
 *       orthogonal coordinates Gaussian with variances 1/(2β(λ₁ − λⱼ)), so its captured-variance gap
 *       Σⱼ (λ₁ − λⱼ)·wⱼ² is χ²_{d−1}/(2β) whatever the spectrum; peeling adds one such term per step
 *       on the remaining q − 1 dimensions. Stated as ASYMPTOTIC (high-concentration regime) with the
 *       Laurent–Massart upper quantile of χ²_{Σ(d−i)}; when the eigenvalues are close the gap is
 *       smaller still (it is at most λ₁ − λ_d per step). The coverage test measures it.</li>
 * </ul>
 */
public final class Samplings {

    private Samplings() {}

    /** Degrees of freedom Σ_{i=1..k} (d − i) of the captured-variance gap. */
    static double gapDegrees(int d, int k) {
        double dof = 0;
        for (int i = 1; i <= k; i++) {
            dof += d - i;
        }
        return dof;
    }

    /** Simultaneous half-width of the released eigenvalues (in the units of XᵀX). */
    public static double eigenvalueHalf(LaplaceVectorMechanism noise, double unit, int d, double level) {
        return unit * Accuracies.laplaceHalfWidth(noise.scale(), noise.granularity(), 1 - Accuracies.alpha(level) / d);
    }

    static double gapQuantile(int d, int k, double beta, double level) {
        double dof = gapDegrees(d, k);
        return dof == 0 ? 0 : Accuracies.chiSquaredQuantile(dof, level) / (2 * beta);
    }

    public static List<ErrorStatement> quote(int d, int k, double eigenHalf, double beta, String quantity) {
        double level = ResultAccuracy.DEFAULT_LEVEL;
        return List.of(new ErrorStatement(quantity, "absPerEigenvalue", eigenHalf, level, ErrorBasis.BOUND,
                        "discrete Laplace eigenvalue noise, union bound over the d eigenvalues; clamp and sort are "
                        + "1-Lipschitz"),
                new ErrorStatement("components", "capturedVarianceGap", gapDegrees(d, k) / (2 * beta), null,
                        ErrorBasis.ASYMPTOTIC, "mean of χ²_{Σ(d−i)}/(2β) for Bingham draws concentrated on the top "
                        + "eigenvectors, β = " + beta),
                new ErrorStatement("components", "capturedVarianceGap", gapQuantile(d, k, beta, level), level,
                        ErrorBasis.ASYMPTOTIC, "upper quantile of χ²_{Σ(d−i)}/(2β) (Laurent–Massart)"));
    }

    /** Intervals [max(λ̂ − h, 0), min(λ̂ + h, u)] for released eigenvalues (or, roots, for singular values). */
    public static IntervalSet eigenIntervals(String quantity, double[] released, double half, double upper, boolean roots,
            double level) {
        double[] lo = new double[released.length];
        double[] hi = new double[released.length];
        for (int i = 0; i < released.length; i++) {
            double lambda = roots ? released[i] * released[i] : released[i];
            double l = Math.max(0, lambda - half);
            double h = Math.max(lambda, Math.min(upper, lambda + half));
            lo[i] = Math.min(released[i], roots ? Math.sqrt(l) : l);
            hi[i] = Math.max(released[i], roots ? Math.sqrt(h) : h);
        }
        return new IntervalSet(quantity, ErrorBasis.BOUND, level, released.clone(), lo, hi, "eigenvalues lie in "
                + "[0, n·B²] (n·B² only when n is public): intervals intersected with it; simultaneous over all "
                + "released values");
    }

    public static ResultAccuracy result(IntervalSet values, double half, int d, int k, double beta, double level) {
        String quantity = values.quantity().equals("singularValues") ? "singularValuesSquared" : values.quantity();
        return new ResultAccuracy(level, List.of(values), List.of(new ErrorStatement(quantity, "absPerEigenvalue", half,
                level, ErrorBasis.BOUND, "discrete Laplace noise, union bound over the d eigenvalues"),
                new ErrorStatement("components",
                "capturedVarianceGap", gapQuantile(d, k, beta, level), level, ErrorBasis.ASYMPTOTIC,
                "χ²_{Σ(d−i)}/(2β) upper quantile, high-concentration approximation")),
                "eigenvalue intervals are a bound; the subspace's captured-variance gap is asymptotic "
                + "(docs/accuracy/intervals.md gives its measured coverage)");
    }
}
