package io.privmat.mechanism.covariance;

/**
 * A lower bound on the acceptance probability of {@link BinghamSampler} that holds for every matrix
 * A, so that a proposal cap fixed from the public dimension q alone bounds the probability of a
 * sampler failure by a data-independent number (docs/mechanisms/covariance.md, "Sampler failure",
 * where the proof is written out step by step).
 *
 * <p><b>Theorem.</b> For every A ⪰ 0 (q × q, q ≥ 2) one proposal of the Kent–Ganeiber–Mardia sampler
 * is accepted with probability at least
 * <pre>  α(q) = K(q)/√(2πe),   K(q) = Γ(q/2)·(2e/q)^{q/2} ≥ √(4π/q),   so α(q) ≥ √(2/(e·q)),</pre>
 * up to the factor λ^{q/2} ≥ 1 − 2⁻²³ that the floating-point envelope parameter costs
 * ({@link BinghamSampler#solveB}). The bound is attained in the limit A = diag(0, L, …, L), L → ∞:
 * it cannot be improved.
 *
 * <p><b>Proof sketch.</b> (1) With weights wⱼ = b/(b + 2aⱼ) ∈ (0, 1], m = Σwⱼ, λ = b/m, a proposal
 * x = W^{1/2}g/‖W^{1/2}g‖ (g ~ N(0, I)) is accepted with probability r = K(q)·φ(λ·V) where
 * θ = g/‖g‖ is uniform on the sphere, S = Σ wⱼθⱼ², V = m/(2S) and φ(h) = h^{q/2}e^{−h}/Γ(q/2): pure
 * algebra on the KGM ratio. (2) λ ≤ 1 by the choice of b, and φ(λV) ≥ λ^{q/2}φ(V). (3) D(w) := E_θ[φ(V)]
 * equals m·f(m), f the density of Σwⱼgⱼ², so it does not depend on zero weights. (4) Adding t to every
 * weight maps S to S + t and m to m + qt, so V − q/2 = (m − qS)/(2(S + t)) keeps its sign and shrinks
 * in size: φ(V), unimodal with mode q/2, does not decrease, for every θ. Subtracting the smallest
 * weight from all weights therefore does not increase D and removes one weight; repeating leaves
 * one weight (D = φ_{1/2}(1/2) = 1/√(2πe)) or k equal weights (D = φ_{k/2}(k/2), larger).
 */
public final class BinghamAcceptance {

    /** The failure probability every cap is sized for: 2^-50. */
    public static final double FAILURE_BOUND = 0x1p-50;
    /** The most standard normals a capped sampler may draw (q per proposal). */
    static final double MAX_WORK = 0x1p28;
    /**
     * The largest q the numerical side of the proof covers: the envelope parameter b is computed so
     * that λ^{q/2} ≥ 1 − 2⁻²³ for q up to 2^14 ({@link BinghamSampler#solveB}).
     */
    static final int MAX_SUPPORTED_DIMENSION = 1 << 14;
    /** Covers λ^{q/2} ≥ 1 − 2⁻²³ and the rounding of log Γ (relative error far below 2⁻³⁰). */
    private static final double SAFETY = 1 - 0x1p-20;

    private BinghamAcceptance() {}

    /**
     * A lower bound on the acceptance probability for dimension q, valid for every A:
     * (1 − 2⁻²⁰)·Γ(q/2)·(2e/q)^{q/2}/√(2πe) ≥ (1 − 2⁻²⁰)·√(2/(e·q)); 1 for q ≤ 1.
     */
    public static double lowerBound(int q) {
        if (q <= 1) {
            return 1;
        }
        double a = q / 2.0;
        double logK = logGamma(a) + a * (1 + Math.log(2) - Math.log(q));
        return SAFETY * Math.exp(logK - 0.5 * Math.log(2 * Math.PI * Math.E));
    }

    /** The closed-form corollary √(2/(e·q)) of the bound (Stirling: Γ(z) ≥ √(2π/z)(z/e)^z), without the safety factor. */
    public static double asymptoticBound(int q) {
        return q <= 1 ? 1 : Math.sqrt(2 / (Math.E * q));
    }

    /**
     * The proposal cap for dimension q: the least N with (1 − α)^N ≤ e^{−Nα} ≤ {@link #FAILURE_BOUND},
     * α = {@link #lowerBound}(q); 1 for q = 1. Returns −1 if q is above {@link #maxDimension()} (more
     * work than allowed, or beyond the dimensions the proof covers).
     */
    public static long proposals(int q) {
        if (q <= 1) {
            return 1;
        }
        if (q > MAX_SUPPORTED_DIMENSION) {
            return -1;
        }
        double n = Math.ceil(Math.log(1 / FAILURE_BOUND) / lowerBound(q));
        return n * q > MAX_WORK ? -1 : (long) n;
    }

    /**
     * The largest q whose cap is within the allowed work and the proof's numerical range. The work
     * N(q)·q grows like q^{3/2}; it stays below 2^28 normals up to q ≈ 35 000, so the limit is
     * {@link #MAX_SUPPORTED_DIMENSION} (2^14) — far above the Gram limit of the mechanisms.
     */
    public static int maxDimension() {
        int lo = 1;
        int hi = MAX_SUPPORTED_DIMENSION;
        // proposals(q)·q is increasing in q, so the admissible q form an interval [1, max].
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (proposals(mid) > 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** ln Γ(x), x > 0 (Lanczos, g = 7; relative accuracy about 1e-15). */
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
