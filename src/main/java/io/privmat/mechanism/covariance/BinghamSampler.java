package io.privmat.mechanism.covariance;

import io.privmat.mechanism.noise.ContinuousSamplers;
import io.privmat.mechanism.noise.NoiseSource;

/**
 * Exact sampler for the Bingham distribution f(x) ∝ exp(−xᵀAx) on the unit sphere S^{q−1}, by
 * rejection from an angular central Gaussian envelope (Kent, Ganeiber, Mardia 2018, JCGS).
 *
 * <p>Works in A's eigenbasis (eigenvalues a_j ≥ 0 with min 0). Envelope ACG(Ω), Ω = I + 2A/b with
 * b solving Σ_j 1/(b + 2a_j) = 1; the acceptance ratio is exp(−xᵀAx)·(xᵀΩx)^{q/2}/M with
 * log M = −(q − b)/2 + (q/2)·ln(q/b). Note the ratio <em>multiplies</em> by (xᵀΩx)^{q/2}: the
 * variant that divides (diffprivlib, OpenDP) samples a different, over-concentrated distribution
 * and voids the exponential mechanism's guarantee (docs/mechanisms/covariance.md, "Eigenvector sampling").
 *
 * <p>Fails closed: after a proposal cap it throws rather than answer anything else. The cap is
 * fixed from the public dimension q ({@link #maxProposals}) so that the failure probability is at
 * most 2^-50 for every input: every proposal is accepted with probability at least
 * {@link BinghamAcceptance#lowerBound}(q) ≥ √(2/(e·q)) whatever A is (a proven, sharp bound), so the
 * outcome FAILED is not a data-dependent bit beyond that data-independent bound. The number of
 * proposals is never returned or logged.
 */
public final class BinghamSampler {

    static final int MAX_PROPOSALS = 1_000_000;

    private BinghamSampler() {}

    /**
     * A sample x in A's eigenbasis.
     *
     * @param a the eigenvalues of A (not modified); shifted internally so that min a = 0
     */
    public static double[] sample(double[] a, NoiseSource random) {
        int q = a.length;
        if (q == 1) {
            return new double[] {1};
        }
        long maxProposals = maxProposals(q);
        Envelope env = Envelope.of(a);
        double[] shifted = env.shifted();
        double[] omega = env.omega();
        double[] scale = env.scale();
        double logM = env.logM();
        double[] x = new double[q];
        for (long proposal = 0; proposal < maxProposals; proposal++) {
            propose(scale, random, x);
            double u = random.nextDouble();
            if (u > 0 && Math.log(u) < logRatio(x, shifted, omega, logM)) {
                return x.clone();
            }
        }
        throw new SamplerFailureException();
    }

    /**
     * The proposal cap for dimension q, from q alone: at least {@link BinghamAcceptance#proposals}(q),
     * which makes a failure at most 2^-50 likely for every A, raised to {@link #MAX_PROPOSALS} where
     * that stays within {@link BinghamAcceptance#MAX_WORK} normals (a smaller failure probability at
     * no cost unless the sampler is about to fail). Refuses q above {@link BinghamAcceptance#maxDimension()}.
     */
    static long maxProposals(int q) {
        long cap = BinghamAcceptance.proposals(q);
        if (cap <= 0) {
            throw new IllegalArgumentException("dimension " + q + " is above the sampler's data-independent limit "
                    + BinghamAcceptance.maxDimension());
        }
        return Math.max(cap, Math.min(MAX_PROPOSALS, (long) (BinghamAcceptance.MAX_WORK / q)));
    }

    /** Fills x with one ACG proposal: g·scale normalised to the unit sphere (g standard normal). */
    static void propose(double[] scale, NoiseSource random, double[] x) {
        double norm2 = 0;
        for (int j = 0; j < x.length; j++) {
            x[j] = ContinuousSamplers.standardNormal(random) * scale[j];
            norm2 += x[j] * x[j];
        }
        double norm = Math.sqrt(norm2);
        for (int j = 0; j < x.length; j++) {
            x[j] /= norm;
        }
    }

    /**
     * The log acceptance ratio −xᵀAx + (q/2)·ln(xᵀΩx) − log M of a unit proposal x (in A's eigenbasis);
     * at most 0, and exp of it is the probability that x is accepted.
     */
    static double logRatio(double[] x, double[] shifted, double[] omega, double logM) {
        double s = 0;
        double t = 0;
        for (int j = 0; j < x.length; j++) {
            double x2 = x[j] * x[j];
            s += shifted[j] * x2;
            t += omega[j] * x2;
        }
        return -s + (x.length / 2.0) * Math.log(t) - logM;
    }

    /**
     * The angular central Gaussian envelope shared with {@link GrassmannSampler}: A shifted so that
     * min a = 0, b solving Σ 1/(b + 2aⱼ) = 1, Ω = I + 2A/b and the proposal scales 1/√ωⱼ.
     */
    record Envelope(double[] shifted, double b, double[] omega, double[] scale) {

        /** log M = −(q − b)/2 + (q/2)·ln(q/b), the bound on the vector ratio's numerator. */
        double logM() {
            int q = shifted.length;
            return -(q - b) / 2 + (q / 2.0) * Math.log(q / b);
        }

        static Envelope of(double[] a) {
            int q = a.length;
            double min = Double.POSITIVE_INFINITY;
            for (double v : a) {
                min = Math.min(min, v);
            }
            double[] shifted = new double[q];
            boolean allZero = true;
            for (int j = 0; j < q; j++) {
                shifted[j] = Math.max(0, a[j] - min);
                allZero &= shifted[j] == 0;
            }
            double b = allZero ? q : solveB(shifted);
            double[] omega = new double[q];
            double[] scale = new double[q];
            for (int j = 0; j < q; j++) {
                omega[j] = 1 + 2 * shifted[j] / b;
                scale[j] = 1 / Math.sqrt(omega[j]);
            }
            return new Envelope(shifted, b, omega, scale);
        }
    }

    /** The slack of the bisection test in {@link #solveB}, above the rounding error of the sum. */
    private static final double SUM_SLACK = 0x1p-37;

    /**
     * The envelope parameter b ∈ [1, q]: KGM's root of Σ_j 1/(b + 2a_j) = 1 (min a = 0), taken from
     * below, so that in exact arithmetic 1 ≤ Σ_j 1/(b + 2a_j) ≤ 1 + 2⁻³⁶ for q ≤ 2^14. The acceptance
     * bound ({@link BinghamAcceptance}) needs the first inequality (λ = 1/Σ ≤ 1) and pays λ^{q/2} ≥ 1 − 2⁻²³
     * for the second. Why: the computed sum of q positive terms is within (q + 1)·2⁻⁵³·Σ ≤ 2⁻³⁸ of the
     * exact one; b is the largest point where the computed sum exceeds 1 + 2⁻³⁷ (so the exact sum
     * exceeds 1), or b = 1 where the exact sum is at least the term 1/(1 + 0) = 1; and the bisection
     * stops at relative width 2⁻⁵⁰, where the sum moves by at most 2⁻⁵⁰ (its derivative is at most Σ/b).
     */
    static double solveB(double[] a) {
        double lo = 1;
        double hi = a.length;
        for (int i = 0; i < 200 && hi - lo > 0x1p-50 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (mid <= lo || mid >= hi) {
                break;
            }
            if (sum(a, mid) > 1 + SUM_SLACK) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Σ_j 1/(b + 2a_j), summed in index order. */
    static double sum(double[] a, double b) {
        double sum = 0;
        for (double v : a) {
            sum += 1 / (b + 2 * v);
        }
        return sum;
    }

    /** The rejection sampler gave up; the job fails closed (its charge is kept). */
    public static final class SamplerFailureException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public SamplerFailureException() {
            super("Bingham sampler exceeded its proposal limit");
        }
    }
}
