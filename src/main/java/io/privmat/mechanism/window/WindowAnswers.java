package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.covariance.PostProcessing;
import io.privmat.mechanism.sketch.Interval;
import io.privmat.privacy.StandardNormal;

/**
 * Answers from a {@link WindowRelease}: free post-processing, never touching rows or keys.
 *
 * <p>The estimate covers the completed blocks of the window only. Between block ends the exact
 * last-W-rows matrix differs from the one estimated by the rows of the open block (missing) and
 * the same number of oldest rows (still counted): under ROW_COUNT both are PSD sums of at most
 * b − 1 rows, so the difference has spectral norm ≤ (b − 1)·B² (≤ b·B²) and moves xᵀCx by at most
 * that for a unit x; at each block end it is zero. Under TIME there is no such bound (the rows per
 * interval are not bounded).
 */
public final class WindowAnswers {

    private WindowAnswers() {}

    /**
     * The PSD projection of the estimate (eigenvalues clamped to [0, rows·B²] when the window's
     * row count is public, else to [0, ∞)) and its top-k eigenpairs.
     *
     * @param keepMatrix false to return only the top-k subspace (PCA)
     */
    public static CovarianceRelease covariance(WindowParameters parameters, WindowRelease release, int k,
            boolean keepMatrix) {
        int d = release.d();
        if (k < 1 || k > d) {
            throw new IllegalArgumentException("k must be in [1, " + d + "]");
        }
        double b2 = parameters.rowBound() * parameters.rowBound();
        double upper = release.rows() >= 0 ? release.rows() * b2 : Double.POSITIVE_INFINITY;
        return PostProcessing.psdAndTopK(release.window(), d, k, upper, keepMatrix);
    }

    /**
     * xᵀCx over the window's completed blocks, with the interval that holds with probability
     * ≥ 1 − ν for this fixed x: xᵀĈx ± (z_{1−ν/2}·τ·‖x‖² + r·‖x‖₁²), τ² = the release's noise
     * variance, r its rounding bound (the noise xᵀEx is a fixed combination of independent
     * symmetric discrete Gaussians, treated as normal with that variance). Lower end clamped at 0.
     */
    public static Interval directionalVariance(WindowRelease release, double[] x, double nu) {
        int d = release.d();
        if (x.length != d) {
            throw new IllegalArgumentException("x must have length " + d);
        }
        checkLevel(nu);
        double l2 = 0;
        double l1 = 0;
        for (double v : x) {
            l2 += v * v;
            l1 += Math.abs(v);
        }
        double estimate = quadratic(release.window(), d, x);
        double half = StandardNormal.upperQuantile(nu / 2) * Math.sqrt(release.noiseVariance()) * l2 + release.roundingBound() * l1 * l1;
        return Interval.nonNegative(estimate, half);
    }

    /**
     * The weight of the cut (S, V∖S) in the window's graph: 1_Tᵀ L̂ 1_T for T the smaller side (for
     * the exact Laplacian both sides give the cut; the smaller one has less noise), with interval
     * ± (z_{1−ν/2}·τ·|T| + r·|T|²) at level 1 − ν (‖1_T‖₂² = |T|, ‖1_T‖₁² = |T|²).
     *
     * @param side side[v] true for v ∈ S
     */
    public static Interval cut(WindowParameters parameters, WindowRelease release, boolean[] side, double nu) {
        if (!parameters.graph()) {
            throw new IllegalArgumentException("cuts need a graph stream");
        }
        return cut(release, side, nu);
    }

    /**
     * {@link #cut(WindowParameters, WindowRelease, boolean[], double)} for a release already known to
     * come from a graph stream (a stored release whose kind says so).
     */
    public static Interval cut(WindowRelease release, boolean[] side, double nu) {
        int n = release.d();
        if (side.length != n) {
            throw new IllegalArgumentException("side must have length " + n);
        }
        checkLevel(nu);
        int in = 0;
        for (boolean s : side) {
            in += s ? 1 : 0;
        }
        boolean smaller = in <= n - in;
        double[] indicator = new double[n];
        int size = 0;
        for (int v = 0; v < n; v++) {
            if (side[v] == smaller) {
                indicator[v] = 1;
                size++;
            }
        }
        double estimate = quadratic(release.window(), n, indicator);
        double half = StandardNormal.upperQuantile(nu / 2) * Math.sqrt(release.noiseVariance()) * size
                + release.roundingBound() * (double) size * size;
        return Interval.nonNegative(estimate, half);
    }

    static double quadratic(double[] m, int d, double[] x) {
        double total = 0;
        for (int i = 0; i < d; i++) {
            if (x[i] == 0) {
                continue;
            }
            double row = 0;
            for (int j = 0; j < d; j++) {
                row += m[i * d + j] * x[j];
            }
            total += x[i] * row;
        }
        return total;
    }

    private static void checkLevel(double nu) {
        if (!(nu > 0 && nu < 1)) {
            throw new IllegalArgumentException("nu must be in (0, 1)");
        }
    }

}
