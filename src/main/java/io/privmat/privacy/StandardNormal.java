package io.privmat.privacy;

/**
 * The standard normal distribution function Φ and its logarithm, accurate in the far tails.
 *
 * <p>Implemented without third-party code: for |x| small, {@code erf} by its everywhere-positive
 * series {@code erf(z) = 2/√π·e^{−z²}·Σ 2ⁿz^{2n+1}/(1·3···(2n+1))}; for larger arguments
 * {@code erfc} by its continued fraction (Abramowitz–Stegun 7.1.14) evaluated with the modified
 * Lentz algorithm, in log space so that {@code log Φ(x)} stays finite far below the range of
 * double (needed for the analytic Gaussian at large ε and the GDP curve of many compositions).
 * Relative accuracy is about 1e-14 everywhere (no cancellation: the series is used only where erfc ≥ 0.47); callers that need a one-sided guarantee add their
 * own margin.
 */
public final class StandardNormal {

    private static final double SQRT2 = Math.sqrt(2.0);
    private static final double LOG_SQRT_PI = 0.5 * Math.log(Math.PI);
    private static final double SERIES_LIMIT = 0.5;

    private StandardNormal() {}

    /** Φ(x) = P[Z ≤ x] for a standard normal Z. */
    public static double cdf(double x) {
        if (Double.isNaN(x)) {
            return Double.NaN;
        }
        if (x < 0) {
            return 0.5 * Math.exp(logErfc(-x / SQRT2));
        }
        return 1.0 - 0.5 * Math.exp(logErfc(x / SQRT2));
    }

    /**
     * z with P[Z &gt; z] = p for p ∈ (0, 1), by bisection on Φ over [−40, 40] (200 halvings: the
     * interval ends at adjacent doubles). The one normal quantile of the code base.
     */
    public static double upperQuantile(double p) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("p must be in (0, 1)");
        }
        double lo = -40;
        double hi = 40;
        for (int i = 0; i < 200; i++) {
            double mid = 0.5 * (lo + hi);
            if (cdf(-mid) > p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** log Φ(x), finite for every finite x (about −x²/2 for x → −∞). */
    public static double logCdf(double x) {
        if (Double.isNaN(x)) {
            return Double.NaN;
        }
        if (x < 0) {
            return Math.log(0.5) + logErfc(-x / SQRT2);
        }
        return Math.log1p(-0.5 * Math.exp(logErfc(x / SQRT2)));
    }

    /** erfc(z) for z ≥ 0 (underflows to 0 beyond z ≈ 27; use {@link #logErfc} there). */
    static double erfc(double z) {
        return Math.exp(logErfc(z));
    }

    /** log erfc(z) for z ≥ 0. */
    static double logErfc(double z) {
        if (z < 0) {
            throw new IllegalArgumentException("z must be >= 0");
        }
        if (z < SERIES_LIMIT) {
            return Math.log1p(-erfSeries(z));
        }
        return logErfcContinuedFraction(z);
    }

    /** erf(z) = 2/√π · e^{−z²} · Σ_{n≥0} 2ⁿ z^{2n+1} / (1·3·5···(2n+1)); all terms positive. */
    private static double erfSeries(double z) {
        double term = z;
        double sum = z;
        double z2 = z * z;
        for (int n = 1; n < 500; n++) {
            term *= 2.0 * z2 / (2 * n + 1);
            sum += term;
            if (term < sum * 1e-17) {
                break;
            }
        }
        return 2.0 / Math.sqrt(Math.PI) * Math.exp(-z2) * sum;
    }

    /**
     * erfc(z) = e^{−z²}/√π · 1/(z + (1/2)/(z + 1/(z + (3/2)/(z + 2/(z + …))))), z ≥ 0.5.
     * Modified Lentz; returns the logarithm.
     */
    private static double logErfcContinuedFraction(double z) {
        final double tiny = 1e-300;
        double f = z;
        double c = z;
        double d = 0.0;
        for (int k = 1; k < 10_000; k++) {
            double a = k / 2.0;
            d = z + a * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = z + a / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1.0 / d;
            double delta = c * d;
            f *= delta;
            if (Math.abs(delta - 1.0) < 1e-16) {
                break;
            }
        }
        return -z * z - LOG_SQRT_PI - Math.log(f);
    }
}
