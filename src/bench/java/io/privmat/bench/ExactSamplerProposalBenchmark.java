package io.privmat.bench;

import io.privmat.mechanism.lowrank.RandomizedResponseMechanism;
import io.privmat.mechanism.noise.DiscreteGaussianSampler;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.NoiseSources;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The exact sampler's two proposals at the randomized-response release's grid plan (Fashion-MNIST,
 * k = 10, ε = 1, δ = 1e-6; σ = 141 825 918 steps), production ChaCha20 source, rounds alternating
 * (the order rotates every round): CKS's discrete Laplace proposal with its two acceptances merged
 * ({@link DiscreteGaussianSampler#withLaplaceProposal}; what σ ≥ 2^28 still uses) against the binned
 * proposal (what every grid plan with 2^12 ≤ σ &lt; 2^28 uses now). One thread: wall and the thread's
 * CPU time per sample, and keystream bytes per sample; then the release's 47 040 000 samples on all
 * cores in GridNoise's stripes: wall and the process's CPU time. Run:
 * {@code ./mvnw -o test -Pbenchmark -Dtest=ExactSamplerProposalBenchmark} ({@code -Dprivmat.bench.rounds=…},
 * default 7). docs/benchmarks.md, "A cheaper exact sample".
 */
@Tag("benchmark")
class ExactSamplerProposalBenchmark {

    private static final long RELEASE_SAMPLES = 60_000L * 784;

    /** A sampler of N_ℤ(0, num/den) on a source. */
    interface Variant {
        Sampler make(NoiseSource source, long num, long den);
    }

    interface Sampler {
        void fill(long[] out, int from, int to);
    }

    @Test
    void proposals() {
        Map<String, Variant> variants = new LinkedHashMap<>();
        variants.put("Laplace proposal", (source, num, den) -> DiscreteGaussianSampler.withLaplaceProposal(source, num, den)::fill);
        variants.put("binned proposal", (source, num, den) -> new DiscreteGaussianSampler(source, num, den)::fill);
        int rounds = Integer.getInteger("privmat.bench.rounds", 7);
        GridNoise.GaussianPlan plan = RandomizedResponseMechanism.forApproxDp(60_000, 784, 10, 1, 1, 1e-6).plan();
        long num = plan.sigmaSquaredNum();
        long den = plan.sigmaSquaredDen();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "%d cores; σ² = %d/%d grid steps²; load average before: %s%n",
                Runtime.getRuntime().availableProcessors(), num, den, loadAverage()));
        List<String> names = new ArrayList<>(variants.keySet());
        int k = names.size();
        int n = 4_000_000;
        long[] samples = new long[n];
        long[] bulk = new long[(int) RELEASE_SAMPLES];
        double[][][] results = new double[4][k][rounds];
        double[] bytes = new double[k];
        for (int r = 0; r <= rounds; r++) {
            for (int step = 0; step < k; step++) {
                int v = (step + r) % k; // rotate which goes first
                Variant variant = variants.get(names.get(v));
                ExactNoiseBenchmark.CountingSource source = new ExactNoiseBenchmark.CountingSource(NoiseSources.secure().split());
                long wall = System.nanoTime();
                long cpu = threads.getCurrentThreadCpuTime();
                variant.make(source, num, den).fill(samples, 0, n);
                double w = (System.nanoTime() - wall) / (double) n;
                double c = (threads.getCurrentThreadCpuTime() - cpu) / (double) n;
                bytes[v] = source.bytes() / n;
                wall = System.nanoTime();
                cpu = os.getProcessCpuTime();
                fill(bulk, num, den, variant);
                double bw = (System.nanoTime() - wall) / 1e9;
                double bc = (os.getProcessCpuTime() - cpu) / 1e9;
                if (r > 0) { // round 0 warms up
                    results[0][v][r - 1] = w;
                    results[1][v][r - 1] = c;
                    results[2][v][r - 1] = bw;
                    results[3][v][r - 1] = bc;
                }
            }
        }
        out.append(String.format(Locale.ROOT, "%d rounds, medians [all]:%n", rounds));
        for (int v = 0; v < k; v++) {
            out.append(String.format(Locale.ROOT, "  one thread, %-17s: %6.1f ns/sample wall %s, %6.1f ns/sample thread CPU %s, %.2f keystream bytes/sample%n",
                    names.get(v), median(results[0][v]), rounded(results[0][v]), median(results[1][v]), rounded(results[1][v]), bytes[v]));
        }
        for (int v = 0; v < k; v++) {
            out.append(String.format(Locale.ROOT, "  %d samples on all cores, %-17s: %6.2f s wall %s, %6.2f s process CPU %s%n",
                    RELEASE_SAMPLES, names.get(v), median(results[2][v]), rounded(results[2][v]),
                    median(results[3][v]), rounded(results[3][v])));
        }
        out.append(String.format(Locale.ROOT, "load average after: %s%n", loadAverage()));
        System.out.println(out);
    }

    /** The release's samples in GridNoise's stripes over the common pool, one sampler per stripe. */
    private static void fill(long[] out, long num, long den, Variant variant) {
        NoiseSource random = NoiseSources.secure();
        int parts = GridNoise.stripes(out.length);
        NoiseSource[] sources = new NoiseSource[parts];
        for (int p = 0; p < parts; p++) {
            sources[p] = random.split();
        }
        IntStream.range(0, parts).parallel().forEach(p -> variant.make(sources[p], num, den)
                .fill(out, (int) ((long) p * out.length / parts), (int) ((long) (p + 1) * out.length / parts)));
    }

    private static double median(double[] values) {
        return BenchStats.median(values);
    }

    private static String rounded(double[] values) {
        return java.util.Arrays.stream(values).mapToObj(v -> String.format(Locale.ROOT, "%.2f", v)).toList().toString();
    }

    private static String loadAverage() {
        return GramKernelBenchmark.loadAverage();
    }
}
