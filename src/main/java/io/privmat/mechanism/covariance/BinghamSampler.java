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
 * fixed from the public dimension q ({@link BinghamAcceptance#proposals}) so that the failure
 * probability is at most 2^-50 for every input: the outcome FAILED is not a data-dependent bit
 * beyond that data-independent bound. The number of proposals is never returned or logged.
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
        // The cap is sized from q alone (BinghamAcceptance) so that a failure has probability at most
        // 2^-50 whatever the data; mechanisms refuse at planning the q for which that is too much work.
        long cap = BinghamAcceptance.proposals(q);
        long maxProposals = cap > 0 ? Math.max(cap, MAX_PROPOSALS) : MAX_PROPOSALS;
        Envelope env = Envelope.of(a);
        double[] shifted = env.shifted();
        double[] omega = env.omega();
        double[] scale = env.scale();
        double b = env.b();
        double logM = -(q - b) / 2 + (q / 2.0) * Math.log(q / b);
        double[] x = new double[q];
        for (long proposal = 0; proposal < maxProposals; proposal++) {
            double norm2 = 0;
            for (int j = 0; j < q; j++) {
                x[j] = ContinuousSamplers.standardNormal(random) * scale[j];
                norm2 += x[j] * x[j];
            }
            double norm = Math.sqrt(norm2);
            double s = 0;
            double t = 0;
            for (int j = 0; j < q; j++) {
                x[j] /= norm;
                double x2 = x[j] * x[j];
                s += shifted[j] * x2;
                t += omega[j] * x2;
            }
            double u = random.nextDouble();
            if (u > 0 && Math.log(u) < -s + (q / 2.0) * Math.log(t) - logM) {
                return x.clone();
            }
        }
        throw new SamplerFailureException();
    }

    /**
     * The angular central Gaussian envelope shared with {@link GrassmannSampler}: A shifted so that
     * min a = 0, b solving Σ 1/(b + 2aⱼ) = 1, Ω = I + 2A/b and the proposal scales 1/√ωⱼ.
     */
    record Envelope(double[] shifted, double b, double[] omega, double[] scale) {

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

    /** The b ∈ [1, q] with Σ_j 1/(b + 2a_j) = 1 (the left side decreases in b). */
    static double solveB(double[] a) {
        double lo = 1;
        double hi = a.length;
        for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            double sum = 0;
            for (double v : a) {
                sum += 1 / (mid + 2 * v);
            }
            if (sum > 1) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return 0.5 * (lo + hi);
    }

    /** The rejection sampler gave up; the job fails closed (its charge is kept). */
    public static final class SamplerFailureException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public SamplerFailureException() {
            super("Bingham sampler exceeded its proposal limit");
        }
    }
}
