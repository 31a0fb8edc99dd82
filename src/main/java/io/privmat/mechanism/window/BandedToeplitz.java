package io.privmat.mechanism.window;

import java.util.Arrays;

/**
 * The banded lower-triangular Toeplitz strategy C of the factorisation mechanism, and the error
 * coefficients of the window workload it implies — all from (w, p) alone.
 *
 * <p>The workload A (T×T, lower-triangular Toeplitz) has generating function
 * a(x) = 1 + x + … + x^(w−1): row t sums blocks t−w+1..t. C has the first p coefficients of the
 * power series √a(x) = (1 − x^w)^(1/2)·(1 − x)^(−1/2), so C·C = A up to the band (exactly A when
 * p ≥ T). The estimate is B·(Cx + z) with B = A·C⁻¹, whose generating function is a(x)/c(x); its
 * coefficients gₖ give the error: row t of B has entries g₀..g_t, so the window noise at block t
 * is Σₖ≤t gₖ zₜ₋ₖ, variance σ²·Σₖ≤t gₖ².
 */
final class BandedToeplitz {

    /** Largest band count. */
    static final int MAX_BANDS = 4096;
    /** Error coefficients are computed until their squares stop adding 1e-17 of the total, or this many. */
    private static final int MAX_TERMS = 1 << 22;

    final int window;
    final double[] c;
    /** Σ cₖ², computed once. */
    final double normSquared;

    private double[] cumulativeSquares = new double[0];
    private double[] cumulativeAbs = new double[0];
    private boolean converged;

    BandedToeplitz(int window, int bands) {
        if (window < 1 || bands < 1) {
            throw new IllegalArgumentException("window and bands must be >= 1");
        }
        this.window = window;
        this.c = windowSquareRoot(window, bands);
        double s = 0;
        for (double v : c) {
            s += v * v;
        }
        this.normSquared = s;
    }

    /**
     * The first p coefficients of √(1 + x + … + x^(w−1)) = (1 − x^w)^(1/2)·(1 − x)^(−1/2):
     * (1 − x)^(−1/2) has bₖ = bₖ₋₁·(2k − 1)/(2k), (1 − y)^(1/2) has sₘ = sₘ₋₁·(2m − 3)/(2m), and
     * cₖ = Σ_{m·w ≤ k} sₘ·bₖ₋ₘw. For p ≤ w these are the bₖ, positive and decreasing.
     */
    static double[] windowSquareRoot(int w, int p) {
        double[] b = new double[p];
        b[0] = 1;
        for (int k = 1; k < p; k++) {
            b[k] = b[k - 1] * (2.0 * k - 1) / (2.0 * k);
        }
        double[] c = new double[p];
        double s = 1;
        for (int m = 0; (long) m * w < p; m++) {
            if (m > 0) {
                s *= (2.0 * m - 3) / (2.0 * m);
            }
            int shift = m * w;
            for (int k = shift; k < p; k++) {
                c[k] += s * b[k - shift];
            }
        }
        return c;
    }

    int bands() {
        return c.length;
    }

    /**
     * max over lags l ≥ 1 of √(1 − R(l)/‖c‖²), R(l) = Σₖ cₖ·cₖ₊ₗ (at least 1: R(l) = 0 for l ≥ p).
     * A row a replaced by itself l blocks later moves the releases by (c_{t−s} − c_{t−s−l})·aaᵀ, of
     * norm B²·√(2‖c‖² − 2R(l)); this factor is that norm over the charged √2·B²·‖c‖ at the worst lag:
     * 1 when every R(l) ≥ 0 (p ≤ w), more when some coefficient is negative (p &gt; w).
     */
    double movedRowFactor() {
        double worst = 1;
        for (int l = 1; l < c.length; l++) {
            double r = 0;
            for (int k = 0; k + l < c.length; k++) {
                r += c[k] * c[k + l];
            }
            worst = Math.max(worst, Math.sqrt(Math.max(0, 1 - r / normSquared)));
        }
        return worst;
    }

    /** Σ_{k ≤ t} gₖ². */
    synchronized double errorSquares(long t) {
        ensure(t);
        return cumulativeSquares[(int) Math.min(t, cumulativeSquares.length - 1)];
    }

    /** Σ_{k ≤ t} |gₖ|. */
    synchronized double errorAbs(long t) {
        ensure(t);
        return cumulativeAbs[(int) Math.min(t, cumulativeAbs.length - 1)];
    }

    /**
     * Extends the cumulative sums to cover t, or until the terms have converged (C⁻¹ is stable: c(x)
     * has no zero in the closed unit disc for these coefficients, so gₖ decays geometrically and
     * the sums stop changing in double precision).
     */
    private void ensure(long t) {
        int chunk = Math.max(1024, 4 * c.length);
        while (!converged && cumulativeSquares.length <= t && cumulativeSquares.length < MAX_TERMS) {
            extend((int) Math.min(MAX_TERMS, (long) cumulativeSquares.length + chunk));
        }
    }

    private void extend(int n) {
        int p = c.length;
        // r = coefficients of 1/c(x) (c₀ = 1); R = running sums; g_k = R_k − R_{k−w}.
        double[] r = new double[n];
        double[] running = new double[n];
        double[] squares = Arrays.copyOf(cumulativeSquares, n);
        double[] abs = Arrays.copyOf(cumulativeAbs, n);
        double sq = 0;
        double ab = 0;
        for (int k = 0; k < n; k++) {
            double v = k == 0 ? 1 / c[0] : 0;
            for (int j = 1; j <= Math.min(k, p - 1); j++) {
                v -= c[j] * r[k - j];
            }
            r[k] = k == 0 ? v : v / c[0];
            running[k] = (k > 0 ? running[k - 1] : 0) + r[k];
            double g = running[k] - (k >= window ? running[k - window] : 0);
            sq += g * g;
            ab += Math.abs(g);
            squares[k] = sq;
            abs[k] = ab;
        }
        int old = cumulativeSquares.length;
        cumulativeSquares = squares;
        cumulativeAbs = abs;
        if (old > 0 && n > old) {
            double tail = squares[n - 1] - squares[old - 1];
            converged = tail <= 1e-17 * squares[n - 1];
        }
    }
}
