package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.catalog.Facts;

/**
 * Optimal shrinkage of singular values under white Gaussian noise of known level (Gavish and
 * Donoho, "Optimal Shrinkage of Singular Values", IEEE Trans. Inf. Theory 63(4), 2017), for the
 * Frobenius loss. Pure post-processing: it uses the released singular values and the public noise
 * level σ only, so it costs no privacy.
 *
 * <p>For an m × d observation A + σZ (Z i.i.d. N(0, 1)), let N = max(m, d), β = min(m, d)/N and
 * y = s/(σ√N). Components with y ≤ 1 + √β are indistinguishable from noise (the bulk edge of the
 * Marchenko–Pastur law) and are set to 0; the others become σ√N·√((y² − β − 1)² − 4β)/y, the
 * asymptotically optimal estimate of the signal's singular value for Frobenius loss.
 */
public final class SingularValueShrinkage {

    private SingularValueShrinkage() {}

    /** The shrunk values (same order); {@code sigma} is the entrywise noise standard deviation. */
    public static double[] frobenius(double[] s, double sigma, long m, long d) {
        double n = Math.max(m, d);
        double beta = Math.min(m, d) / n;
        double scale = sigma * Math.sqrt(n);
        double edge = 1 + Math.sqrt(beta);
        double[] out = new double[s.length];
        for (int j = 0; j < s.length; j++) {
            double y = s[j] / scale;
            if (!(y > edge)) {
                continue;
            }
            double a = y * y - beta - 1;
            out[j] = scale * Math.sqrt(Math.max(a * a - 4 * beta, 0)) / y;
        }
        return out;
    }

    /**
     * {@link #frobenius} for a release, recording in its {@code facts} that it was applied, at which
     * noise level, and how many components rose above the noise.
     */
    static double[] forRelease(double[] s, double sigma, long m, long d, String noiseLevel,
            Facts.Builder facts) {
        double[] shrunk = frobenius(s, sigma, m, d);
        int kept = 0;
        for (double x : shrunk) {
            kept += x > 0 ? 1 : 0;
        }
        facts.put(FactorizationFacts.SHRINKAGE, "Gavish–Donoho optimal for Frobenius loss, " + noiseLevel);
        facts.put(FactorizationFacts.COMPONENTS_ABOVE_NOISE, kept);
        return shrunk;
    }
}
