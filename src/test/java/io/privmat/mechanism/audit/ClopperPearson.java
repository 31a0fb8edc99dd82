package io.privmat.mechanism.audit;

/**
 * Exact (Clopper–Pearson) binomial confidence bounds, via the regularised incomplete beta function
 * (continued fraction, Lentz's method) and bisection. Test code only; accurate to about 1e-12,
 * far below the sampling error of any audit.
 */
final class ClopperPearson {

    private ClopperPearson() {}

    /** The p with P[Bin(n, p) ≥ k] = alpha: a one-sided lower (1 − alpha) bound; 0 when k = 0. */
    static double lower(long k, long n, double alpha) {
        if (k <= 0) {
            return 0;
        }
        // BetaInv(alpha; k, n − k + 1)
        return betaInverse(alpha, k, n - k + 1);
    }

    /** The p with P[Bin(n, p) ≤ k] = alpha: a one-sided upper (1 − alpha) bound; 1 when k = n. */
    static double upper(long k, long n, double alpha) {
        if (k >= n) {
            return 1;
        }
        return betaInverse(1 - alpha, k + 1, n - k);
    }

    /** The x with I_x(a, b) = target, by bisection (I_x increases in x). */
    static double betaInverse(double target, double a, double b) {
        double lo = 0;
        double hi = 1;
        for (int i = 0; i < 200; i++) {
            double mid = 0.5 * (lo + hi);
            if (regularizedBeta(mid, a, b) < target) {
                lo = mid;
            } else {
                hi = mid;
            }
            if (hi - lo < 1e-15 * Math.max(hi, 1e-300)) {
                break;
            }
        }
        return 0.5 * (lo + hi);
    }

    /** I_x(a, b). */
    static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
        if (x < (a + 1) / (a + b + 2)) {
            return Math.exp(logFront) * continuedFraction(x, a, b) / a;
        }
        return 1 - Math.exp(logFront) * continuedFraction(1 - x, b, a) / b;
    }

    private static double continuedFraction(double x, double a, double b) {
        double tiny = 1e-300;
        double qab = a + b;
        double qap = a + 1;
        double qam = a - 1;
        double c = 1;
        double d = 1 - qab * x / qap;
        if (Math.abs(d) < tiny) {
            d = tiny;
        }
        d = 1 / d;
        double h = d;
        for (int m = 1; m <= 100_000; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
            d = 1 + aa * d;
            if (Math.abs(d) < tiny) {
                d = tiny;
            }
            c = 1 + aa / c;
            if (Math.abs(c) < tiny) {
                c = tiny;
            }
            d = 1 / d;
            h *= d * c;
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
            d = 1 + aa * d;
            if (Math.abs(d) < tiny) {
                d = tiny;
            }
            c = 1 + aa / c;
            if (Math.abs(c) < tiny) {
                c = tiny;
            }
            d = 1 / d;
            double del = d * c;
            h *= del;
            if (Math.abs(del - 1) < 1e-15) {
                return h;
            }
        }
        throw new ArithmeticException("incomplete beta did not converge");
    }

    /** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; relative error ~1e-15). */
    static double logGamma(double x) {
        if (x < 0.5) {
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
        }
        double[] c = {0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7};
        x -= 1;
        double sum = c[0];
        double t = x + 7.5;
        for (int i = 1; i < 9; i++) {
            sum += c[i] / (x + i);
        }
        return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
    }
}
