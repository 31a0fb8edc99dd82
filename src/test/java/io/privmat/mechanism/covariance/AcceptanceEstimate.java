package io.privmat.mechanism.covariance;

import io.privmat.mechanism.noise.NoiseSource;

/**
 * Monte Carlo estimate of the Bingham sampler's acceptance probability for a spectrum a: the mean,
 * over proposals drawn exactly as {@link BinghamSampler} draws them, of the probability exp(log ratio)
 * that each is accepted (the Rao–Blackwellised rate: same mean as counting accepts, smaller variance).
 *
 * @param mean the estimate
 * @param standardError its standard error (sample standard deviation / √n)
 */
record AcceptanceEstimate(double mean, double standardError) {

    static AcceptanceEstimate of(double[] a, int proposals, NoiseSource random) {
        BinghamSampler.Envelope env = BinghamSampler.Envelope.of(a);
        double logM = env.logM();
        double[] x = new double[a.length];
        double sum = 0;
        double sumSq = 0;
        for (int p = 0; p < proposals; p++) {
            BinghamSampler.propose(env.scale(), random, x);
            double r = Math.exp(Math.min(0, BinghamSampler.logRatio(x, env.shifted(), env.omega(), logM)));
            sum += r;
            sumSq += r * r;
        }
        double mean = sum / proposals;
        double var = Math.max(0, sumSq / proposals - mean * mean) * proposals / (proposals - 1.0);
        return new AcceptanceEstimate(mean, Math.sqrt(var / proposals));
    }

    /** The adversarial spectra the bound is checked on (eigenvalues of A; the sampler shifts min to 0). */
    static double[] corner(int q, int zeros, double big) {
        double[] a = new double[q];
        for (int j = zeros; j < q; j++) {
            a[j] = big;
        }
        return a;
    }

    /** a_j = big·(1 − ρ^j): one free direction, the others nearly equal (a geometric covariance spectrum). */
    static double[] geometric(int q, double big, double rho) {
        double[] a = new double[q];
        for (int j = 0; j < q; j++) {
            a[j] = big * (1 - Math.pow(rho, j));
        }
        return a;
    }

    /** a_j = big·u_j with u_j uniform on [0, 1) (a_0 = 0). */
    static double[] random(int q, double big, NoiseSource random) {
        double[] a = new double[q];
        for (int j = 1; j < q; j++) {
            a[j] = big * random.nextDouble();
        }
        return a;
    }

    /** a_j = big·(j/q)²: a spread spectrum. */
    static double[] quadratic(int q, double big) {
        double[] a = new double[q];
        for (int j = 0; j < q; j++) {
            a[j] = big * ((double) j / q) * ((double) j / q);
        }
        return a;
    }
}
