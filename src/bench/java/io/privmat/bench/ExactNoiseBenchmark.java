package io.privmat.bench;

import io.privmat.mechanism.noise.DiscreteGaussianSampler;
import io.privmat.mechanism.noise.ExactSamplers;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.NoiseSources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Exact discrete Gaussian throughput, the sampler before (ExactSamplers.discreteGaussian,
 * one call per sample: what every fill ran before the per-stripe sampler, kept unchanged as its
 * fallback) against now
 * (DiscreteGaussianSampler), in the same run with rounds alternating; per thread and as a bulk fill
 * on all cores; plus the keystream bytes each consumes per sample. Production CSPRNG source. Run:
 * {@code ./mvnw test -Pbenchmark -Dtest=ExactNoiseBenchmark}; writes target/benchmarks/exact-noise.txt.
 */
@Tag("benchmark")
class ExactNoiseBenchmark {

    private static final int ROUNDS = 7;
    private static final StringBuilder REPORT = new StringBuilder();

    @Test
    void exactGaussian() throws Exception {
        REPORT.append(String.format(Locale.ROOT, "cores %d; load average before: %s%n",
                Runtime.getRuntime().availableProcessors(), GramKernelBenchmark.loadAverage()));
        GridNoise.GaussianPlan scalar = GridNoise.gaussian(1, 3.73, 1);
        GridNoise.GaussianPlan cov = GridNoise.gaussian(1, 5, 784L * 784);
        long[][] plans = {{1, 1}, {scalar.sigmaSquaredNum(), scalar.sigmaSquaredDen()},
                {cov.sigmaSquaredNum(), cov.sigmaSquaredDen()}};
        String[] names = {"sigma=1", "grid plan p=1 (sigma 15279 steps)", "grid plan p=784^2 (128-bit path)"};
        for (int i = 0; i < plans.length; i++) {
            long num = plans[i][0];
            long den = plans[i][1];
            NoiseSource random = NoiseSources.secure();
            DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(random, num, den);
            compare("one thread, " + names[i],
                    () -> ExactSamplers.discreteGaussian(random, num, den),
                    sampler::next);
            CountingSource before = new CountingSource(NoiseSources.secure());
            CountingSource after = new CountingSource(NoiseSources.secure());
            DiscreteGaussianSampler counted = new DiscreteGaussianSampler(after, num, den);
            int n = 1_000_000;
            for (int k = 0; k < n; k++) {
                sink += ExactSamplers.discreteGaussian(before, num, den) + counted.next();
            }
            REPORT.append(String.format(Locale.ROOT, "%-55s keystream bytes per sample: before %.2f, after %.2f%n", "",
                    before.bytes / (double) n, after.bytes / (double) n));
        }
        long[] out = new long[4 << 20];
        for (int i = 1; i < plans.length; i++) {
            long num = plans[i][0];
            long den = plans[i][1];
            compareBulk("bulk fill 4M on all cores, " + names[i], out,
                    () -> bitwiseFill(NoiseSources.secure(), num, den, out),
                    () -> ExactSamplers.fillDiscreteGaussian(NoiseSources.secure(), num, den, out));
        }
        REPORT.append(String.format(Locale.ROOT, "load average after: %s%n", GramKernelBenchmark.loadAverage()));
        System.out.println(REPORT);
        Path file = Path.of("target/benchmarks/exact-noise.txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, REPORT.toString());
    }

    /** The old sampler on the same stripes. */
    private static void bitwiseFill(NoiseSource random, long num, long den, long[] out) {
        int parts = GridNoise.stripes(out.length);
        NoiseSource[] sources = new NoiseSource[parts];
        for (int p = 0; p < parts; p++) {
            sources[p] = random.split();
        }
        IntStream.range(0, parts).parallel().forEach(p -> {
            int from = (int) ((long) p * out.length / parts);
            int to = (int) ((long) (p + 1) * out.length / parts);
            for (int i = from; i < to; i++) {
                out[i] = ExactSamplers.discreteGaussian(sources[p], num, den);
            }
        });
    }

    private static void compare(String label, LongSupplier before, LongSupplier after) {
        rate(before, 1e9);
        rate(after, 1e9);
        double[] b = new double[ROUNDS];
        double[] a = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            b[r] = rate(before, 3e8);
            a[r] = rate(after, 3e8);
        }
        report(label, b, a);
    }

    private static void compareBulk(String label, long[] out, Runnable before, Runnable after) {
        before.run();
        after.run();
        double[] b = new double[ROUNDS];
        double[] a = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            b[r] = out.length / seconds(before);
            a[r] = out.length / seconds(after);
        }
        report(label, b, a);
    }

    private static void report(String label, double[] before, double[] after) {
        REPORT.append(String.format(Locale.ROOT, "load average now: %s%n", GramKernelBenchmark.loadAverage()));
        double[] ratios = new double[before.length];
        for (int r = 0; r < before.length; r++) {
            ratios[r] = after[r] / before[r];
        }
        REPORT.append(String.format(Locale.ROOT,
                "%-55s before median %6.2f M/s  after median %6.2f M/s (min %.2f, max %.2f)  ratio median %.2f%n",
                label, BenchStats.median(before) / 1e6, BenchStats.median(after) / 1e6, Arrays.stream(after).min().orElse(0) / 1e6,
                Arrays.stream(after).max().orElse(0) / 1e6, BenchStats.median(ratios)));
    }

    private static double seconds(Runnable r) {
        long start = System.nanoTime();
        r.run();
        return (System.nanoTime() - start) / 1e9;
    }

    private static long sink;

    private static double rate(LongSupplier op, double nanos) {
        long n = 0;
        long start = System.nanoTime();
        long elapsed;
        do {
            for (int i = 0; i < 1000; i++) {
                sink += op.getAsLong();
            }
            n += 1000;
            elapsed = System.nanoTime() - start;
        } while (elapsed < nanos);
        return n / (elapsed / 1e9);
    }

    /** Counts the keystream bytes drawn (8 per nextLong, 4 per nextInt, 1/8 per nextBit). */
    static final class CountingSource implements NoiseSource {
        private final NoiseSource source;
        private double bytes;

        double bytes() {
            return bytes;
        }

        CountingSource(NoiseSource source) {
            this.source = source;
        }

        @Override
        public long nextLong() {
            bytes += 8;
            return source.nextLong();
        }

        @Override
        public int nextInt() {
            bytes += 4;
            return source.nextInt();
        }

        @Override
        public boolean nextBit() {
            bytes += 1.0 / 8;
            return source.nextBit();
        }

        @Override
        public NoiseSource split() {
            return source.split();
        }

        @Override
        public Replayable replayable() {
            return source.replayable();
        }
    }

}
