package io.privmat.mechanism.noise;

/**
 * Standard normal matrices for secret random projections (JL sketches, range finders). These
 * entries are intermediate values that never leave a job; the output of the mechanism that uses
 * them is released through a grid sampler or carries its own analysis. So a fast floating-point
 * sampler (polar Box–Muller) fed by the CSPRNG is appropriate here — never use it for a release.
 */
public final class GaussianMatrices {

    private GaussianMatrices() {}

    /** Fills {@code out} with i.i.d. N(0, 1) values. */
    public static void fillStandardNormal(double[] out, NoiseSource random) {
        int i = 0;
        while (i < out.length) {
            double u;
            double v;
            double s;
            do {
                u = 2 * random.nextDouble() - 1;
                v = 2 * random.nextDouble() - 1;
                s = u * u + v * v;
            } while (s >= 1 || s == 0);
            double factor = Math.sqrt(-2 * Math.log(s) / s);
            out[i++] = u * factor;
            if (i < out.length) {
                out[i++] = v * factor;
            }
        }
    }
}
