package io.privmat.mechanism.noise;

import io.privmat.config.NativeBlas;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.lowrank.RandomizedResponseMechanism;
import io.privmat.support.LowRankFixtures;
import java.util.Arrays;

/**
 * Prints, for fixed seeds, digests of bulk noise fills and of a randomized-response release, plus
 * the CPU count the JVM sees. {@link NoisePartitionTest} runs it in JVMs with different
 * {@code -XX:ActiveProcessorCount} values and compares the digests.
 */
public final class NoisePartitionProbe {

    private NoisePartitionProbe() {}

    public static void main(String[] args) {
        NativeBlas.install();
        System.out.println("cpus " + Runtime.getRuntime().availableProcessors());
        System.out.println(digests());
    }

    /** Digests that must not depend on the machine. */
    static String digests() {
        StringBuilder out = new StringBuilder();
        GridNoise.GaussianPlan plan = GridNoise.gaussian(1, 3, 100_000);
        for (int length : new int[] {1, 5000, 40_000, 200_000}) {
            double[] f = new double[length];
            double[] noisy = new double[length];
            GridNoise.addGaussianParallel(plan, f, 0, length, noisy, TestNoiseSources.seeded(length));
            out.append("fill ").append(length).append(' ').append(Arrays.hashCode(noisy)).append('\n');
        }
        double[] sym = GridNoise.symmetricGaussian(plan, new double[64 * 64], 64, TestNoiseSources.seeded(64));
        out.append("symmetric 64 ").append(Arrays.hashCode(sym)).append('\n');
        int m = 3000;
        int d = 20;
        double[] x = new double[m * d];
        for (int i = 0; i < m; i++) {
            x[i * d + i % d] = 0.9;
        }
        Factorization f = RandomizedResponseMechanism.forRho(m, d, 2, 1, 5)
                .release(LowRankFixtures.stream(x, m, d, 700), TestNoiseSources.seeded(7));
        // BLAS may sum in another order on another thread count: compare the release to 7 digits
        // (different noise would change it in the first).
        out.append(String.format(java.util.Locale.ROOT, "rr s=%.7e,%.7e |u|=%.7e |v|=%.7e%n", f.s()[0], f.s()[1],
                Arrays.stream(f.u()).map(Math::abs).sum(), Arrays.stream(f.v()).map(Math::abs).sum()));
        return out.toString();
    }
}
