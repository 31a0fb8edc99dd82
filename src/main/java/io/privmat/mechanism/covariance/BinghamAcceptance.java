package io.privmat.mechanism.covariance;

/**
 * A lower bound on the acceptance probability of {@link BinghamSampler} that holds for every matrix
 * A, so that a proposal cap fixed from the public dimension q alone bounds the probability of a
 * sampler failure by a data-independent number (docs/mechanisms/covariance.md, "Sampler failure").
 *
 * <p><b>Bound.</b> A proposal x ~ ACG(Ω), Ω = I + 2A/b in A's eigenbasis with a₁ = 0 (so ω₁ = 1),
 * is accepted with probability r(t) = exp(−b(t − 1)/2)·t^{q/2}/M(b), t = xᵀΩx, log M(b) =
 * −(q − b)/2 + (q/2)·ln(q/b). Writing x = Ω^{−1/2}g/‖Ω^{−1/2}g‖ with g ~ N(0, I):
 * t = ‖g‖²/Σⱼ gⱼ²/ωⱼ ∈ [1, ‖g‖²/g₁²], whatever A is. So for any T ≥ 1,
 * P[t ≤ T] ≥ P[g₁²/‖g‖² ≥ 1/T] = 1 − I_{1/T}(1/2, (q − 1)/2), and on t ∈ [1, T] the unimodal r(t)
 * is at least min(r(1), r(T)). Hence acceptance ≥ P[t ≤ T]·exp(min(0, −b(T − 1)/2 + (q/2)·ln T) −
 * log M(b)). The exponent is concave in b, so its minimum over the only possible b ∈ [1, q] is at
 * b = 1 or b = q. We take the best T on a fixed grid. The bound is crude (about 1e-4 at q = 10) but
 * holds for every input; it decays quickly with q, which is why large q are refused.
 */
public final class BinghamAcceptance {

    /** The failure probability every cap is sized for: 2^-50. */
    public static final double FAILURE_BOUND = 0x1p-50;
    /** The most standard normals a capped sampler may draw (q per proposal). */
    static final double MAX_WORK = 0x1p28;

    private BinghamAcceptance() {}

    /** A lower bound on the acceptance probability for dimension q, valid for every A. */
    public static double lowerBound(int q) {
        if (q <= 1) {
            return 1;
        }
        double best = 0;
        for (int i = 0; i <= 400; i++) {
            double t = Math.exp(i * Math.log(64.0 * q) / 400);
            double tail = 1 - regularizedBeta(1 / t, 0.5, (q - 1) / 2.0);
            double worst = Math.min(logFactor(t, 1, q), logFactor(t, q, q));
            best = Math.max(best, tail * Math.exp(worst));
        }
        // Round down generously: the bound is used to size a cap, never to claim privacy.
        return best * (1 - 1e-6);
    }

    /**
     * The proposal cap for dimension q: the least N with (1 − α)^N ≤ e^{−Nα} ≤ {@link #FAILURE_BOUND},
     * α = {@link #lowerBound}(q); 1 for q = 1. Returns −1 if that is more work than allowed.
     */
    public static long proposals(int q) {
        if (q <= 1) {
            return 1;
        }
        if (q < CAPS.length) {
            long cached = CAPS[q];
            if (cached == 0) {
                cached = computeProposals(q);
                CAPS[q] = cached;
            }
            return cached;
        }
        return computeProposals(q);
    }

    /** Deterministic, so concurrent first computations store the same value. */
    private static final long[] CAPS = new long[256];

    private static long computeProposals(int q) {
        double n = Math.ceil(Math.log(1 / FAILURE_BOUND) / lowerBound(q));
        return n * q > MAX_WORK ? -1 : (long) n;
    }

    /** The largest q whose cap is within the allowed work. */
    public static int maxDimension() {
        int q = 2;
        while (proposals(q + 1) > 0) {
            q++;
        }
        return q;
    }

    private static double logFactor(double t, double b, int q) {
        double logM = -(q - b) / 2 + (q / 2.0) * Math.log(q / b);
        return Math.min(0, -b * (t - 1) / 2 + (q / 2.0) * Math.log(t)) - logM;
    }

    /** I_x(a, b), the regularised incomplete beta function (continued fraction, Lentz). */
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
        double c = 1;
        double d = 1 - (a + b) * x / (a + 1);
        d = 1 / (Math.abs(d) < tiny ? tiny : d);
        double h = d;
        for (int m = 1; m <= 10_000; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
            d = 1 + aa * d;
            d = 1 / (Math.abs(d) < tiny ? tiny : d);
            c = 1 + aa / c;
            c = Math.abs(c) < tiny ? tiny : c;
            h *= d * c;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
            d = 1 + aa * d;
            d = 1 / (Math.abs(d) < tiny ? tiny : d);
            c = 1 + aa / c;
            c = Math.abs(c) < tiny ? tiny : c;
            double del = d * c;
            h *= del;
            if (Math.abs(del - 1) < 1e-15) {
                return h;
            }
        }
        throw new ArithmeticException("incomplete beta did not converge");
    }

    /** ln Γ(x), x > 0 (Lanczos, g = 7). */
    private static double logGamma(double x) {
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
