package io.privmat.bench;

import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.lowrank.RandomizedResponseMechanism;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.support.FashionMnist;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * RANDOMIZED_RESPONSE's one-draw release (k = 10, ε = 1, δ = 1e-6) on Fashion-MNIST 60 000 × 784 held
 * in memory as the service's 90 stored chunks (668 rows; pixels ÷ 255, rows clipped to norm 1), without
 * PostgreSQL or Spring, so the release's own parts can be told apart: rounds alternating between the
 * whole release, its noise alone (the same per-block parallel fills), the Gram of 90 blocks alone and
 * the eigendecomposition alone. Then the exact sampler on one thread for the release's grid plan
 * (production ChaCha20 source), and the least time its m·d samples take on two such cores.
 * Run: {@code ./mvnw -o test -Pbenchmark -Dtest=RandomizedResponseInMemoryBenchmark}
 * ({@code -Dprivmat.bench.rounds=…}, default 5). docs/benchmarks.md, "Randomized response end to end".
 */
@Tag("benchmark")
class RandomizedResponseInMemoryBenchmark {

    private static final int ROWS = 60_000;
    private static final int D = 784;
    private static final int K = 10;
    private static final int CHUNK_ROWS = 668;

    @Test
    void releaseAndSampler() throws Exception {
        Assumptions.assumeTrue(FashionMnist.available(), "Fashion-MNIST is not installed");
        int rounds = Integer.getInteger("privmat.bench.rounds", 5);
        List<double[]> blocks = fashionMnistBlocks();
        RowStream rows = visitor -> {
            long first = 0;
            for (double[] b : blocks) {
                visitor.block(b, b.length / D, first);
                first += b.length / D;
            }
        };
        RandomizedResponseMechanism rr = RandomizedResponseMechanism.forApproxDp(ROWS, D, K, 1, 1, 1e-6);
        GridNoise.GaussianPlan plan = rr.plan();
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%d cores; load average before: %s%n",
                Runtime.getRuntime().availableProcessors(), GramKernelBenchmark.loadAverage()));
        rr.releaseHoldingNoise(rows, NoiseSources.secure()); // warm-up
        List<String> names = List.of("one-draw release (releaseHoldingNoise)", "its exact noise alone (2 cores)",
                "the Gram of the 90 blocks alone (dsyrk)", "eigendecomposition 784 × 784 alone");
        List<List<Double>> times = new ArrayList<>();
        names.forEach(n -> times.add(new ArrayList<>()));
        double[] buffer = new double[CHUNK_ROWS * D];
        for (int r = 0; r < rounds; r++) {
            long t = System.nanoTime();
            rr.releaseHoldingNoise(rows, NoiseSources.secure());
            times.get(0).add(seconds(t));
            t = System.nanoTime();
            NoiseSource first = NoiseSources.secure().replayable().open();
            for (double[] b : blocks) {
                GridNoise.addGaussianParallel(plan, b, 0, b.length, buffer, first.split());
            }
            times.get(1).add(seconds(t));
            t = System.nanoTime();
            GramAccumulator gram = new GramAccumulator(D);
            for (double[] b : blocks) {
                gram.addRows(b, 0, b.length / D);
            }
            double[] c = gram.result();
            times.get(2).add(seconds(t));
            t = System.nanoTime();
            LinearAlgebra.eigen(c, D).topVectors(K);
            times.get(3).add(seconds(t));
        }
        out.append(String.format(Locale.ROOT, "%nin memory, %d rounds alternating, seconds, median [all]:%n", rounds));
        for (int v = 0; v < names.size(); v++) {
            out.append(String.format(Locale.ROOT, "  %-44s %6.2f  %s%n", names.get(v), BenchStats.median(times.get(v)),
                    rounded(times.get(v))));
        }
        sampler(plan, rounds, out);
        out.append(String.format(Locale.ROOT, "load average after: %s%n", GramKernelBenchmark.loadAverage()));
        System.out.println(out);
        java.nio.file.Path file = java.nio.file.Path.of("target/benchmarks/rr-in-memory.txt");
        java.nio.file.Files.createDirectories(file.getParent());
        java.nio.file.Files.writeString(file, out.toString());
    }

    /** The exact sampler on one thread for the release's plan, production source: ns per sample. */
    private static void sampler(GridNoise.GaussianPlan plan, int rounds, StringBuilder out) {
        int n = 4_000_000;
        long[] samples = new long[n];
        List<Double> perSample = new ArrayList<>();
        for (int r = 0; r < rounds + 1; r++) {
            NoiseSource source = NoiseSources.secure().split();
            long t = System.nanoTime();
            GridNoise.sampler(plan, source).fill(samples, 0, n);
            if (r > 0) {
                perSample.add(seconds(t) / n * 1e9);
            }
        }
        double ns = BenchStats.median(perSample);
        out.append(String.format(Locale.ROOT, "%nexact sampler, one thread, the release's grid plan (σ² = %d steps²), %d "
                + "samples, %d rounds (load %s): %.1f ns/sample (%.2f M/s per core)  %s%n", plan.sigmaSquaredNum(), n,
                rounds, GramKernelBenchmark.loadAverage(), ns, 1e3 / ns, rounded(perSample)));
        out.append(String.format(Locale.ROOT, "  so the release's %d samples need at least %.2f s on 2 such cores%n",
                (long) ROWS * D, (double) ROWS * D * ns / 1e9 / 2));
    }

    /** Fashion-MNIST's training rows, ÷ 255 and clipped to norm 1, in blocks of the stored chunks' 668 rows. */
    static List<double[]> fashionMnistBlocks() throws Exception {
        List<double[]> blocks = new ArrayList<>();
        double[][] current = {null};
        FashionMnist.forEachImage(ROWS, (i, pixels) -> {
            int r = i % CHUNK_ROWS;
            if (r == 0) {
                current[0] = new double[Math.min(CHUNK_ROWS, ROWS - i) * D];
                blocks.add(current[0]);
            }
            double norm = 0;
            for (int c = 0; c < D; c++) {
                double v = (pixels[c] & 0xFF) / 255.0;
                norm += v * v;
            }
            double scale = Math.sqrt(norm) > 1 ? 1 / Math.sqrt(norm) : 1;
            for (int c = 0; c < D; c++) {
                current[0][r * D + c] = (pixels[c] & 0xFF) / 255.0 * scale;
            }
        });
        return blocks;
    }

    private static String rounded(List<Double> times) {
        return RandomizedResponseBreakdownBenchmark.rounded(times);
    }

    private static double seconds(long start) {
        return RandomizedResponseBreakdownBenchmark.seconds(start);
    }
}
