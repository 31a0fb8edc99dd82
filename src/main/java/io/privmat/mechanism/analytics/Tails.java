package io.privmat.mechanism.analytics;

import io.privmat.privacy.StandardNormal;

/**
 * Tail quantities behind the stated errors: normal and Student-t quantiles, the Laurent–Massart χ²
 * bounds, and log-binomials for union bounds. All deterministic functions of public numbers.
 */
public final class Tails {

    private Tails() {}

    /** z with P[N(0, 1) &gt; z] = p, p ∈ (0, 1/2], by bisection on Φ. */
    public static double normalUpper(double p) {
        if (!(p > 0 && p <= 0.5)) {
            throw new IllegalArgumentException("p must be in (0, 1/2]");
        }
        return StandardNormal.upperQuantile(p);
    }

    /** t with P[T_df &gt; t] = p for Student's t with df degrees of freedom, p ∈ (0, 1/2]. */
    public static double studentUpper(double df, double p) {
        if (!(p > 0 && p <= 0.5) || !(df > 0)) {
            throw new IllegalArgumentException("need p in (0, 1/2] and df > 0");
        }
        double lo = 0;
        double hi = 1;
        while (studentTail(df, hi) > p) {
            lo = hi;
            hi *= 2;
            if (hi > 1e12) {
                return Double.POSITIVE_INFINITY;
            }
        }
        for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (studentTail(df, mid) > p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** P[T_df &gt; t] for t ≥ 0: ½·I_{df/(df+t²)}(df/2, 1/2). */
    static double studentTail(double df, double t) {
        return 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
    }

    /**
     * The x with P[χ²_k ≥ x] ≤ e^{−t}: k + 2√(k·t) + 2t (Laurent and Massart 2000, Lemma 1); also
     * P[Σ aᵢgᵢ² ≥ Σaᵢ + 2‖a‖₂√t + 2‖a‖_∞·t] ≤ e^{−t} for aᵢ ≥ 0, of which this is aᵢ = 1.
     */
    public static double chiSquaredUpper(double k, double t) {
        return k + 2 * Math.sqrt(k * t) + 2 * t;
    }

    /** ln C(d, s), exact to double rounding, s ≤ d. */
    public static double logBinomial(int d, int s) {
        int m = Math.min(s, d - s);
        double sum = 0;
        for (int i = 1; i <= m; i++) {
            sum += Math.log((double) (d - m + i) / i);
        }
        return sum;
    }

    /** I_x(a, b), the regularised incomplete beta function (continued fraction, modified Lentz). */
    static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
        if (x < (a + 1) / (a + b + 2)) {
            return front * fraction(x, a, b) / a;
        }
        return 1 - front * fraction(1 - x, b, a) / b;
    }

    private static double fraction(double x, double a, double b) {
        double tiny = 1e-300;
        double c = 1;
        double d = 1 - (a + b) * x / (a + 1);
        d = 1 / (Math.abs(d) < tiny ? tiny : d);
        double h = d;
        for (int m = 1; m <= 100_000; m++) {
            double even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
            d = 1 / nonZero(1 + even * d, tiny);
            c = nonZero(1 + even / c, tiny);
            h *= d * c;
            double odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
            d = 1 / nonZero(1 + odd * d, tiny);
            c = nonZero(1 + odd / c, tiny);
            double step = d * c;
            h *= step;
            if (Math.abs(step - 1) < 1e-15) {
                return h;
            }
        }
        throw new ArithmeticException("incomplete beta did not converge");
    }

    private static double nonZero(double v, double tiny) {
        return Math.abs(v) < tiny ? tiny : v;
    }

    /** ln Γ(x) for x &gt; 0 (Lanczos approximation, g = 7, nine terms). */
    static double logGamma(double x) {
        if (x < 0.5) {
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
        }
        double[] c = {0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7};
        double y = x - 1;
        double sum = c[0];
        double t = y + 7.5;
        for (int i = 1; i < 9; i++) {
            sum += c[i] / (y + i);
        }
        return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(sum);
    }
}
