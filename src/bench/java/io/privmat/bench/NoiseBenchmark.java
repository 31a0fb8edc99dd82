package io.privmat.bench;

import io.privmat.mechanism.noise.ExactSamplers;
import io.privmat.mechanism.noise.GaussianMatrices;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.NoiseSources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Throughput of the noise samplers on one thread (= per core), production CSPRNG source.
 * Run: {@code ./mvnw test -Pbenchmark -Dtest=NoiseBenchmark}. Each line: best of 5 timed rounds of
 * at least 0.5 s after a 2 s warm-up. Prints and writes target/benchmarks/noise.txt.
 */
@Tag("benchmark")
class NoiseBenchmark {

    private static final StringBuilder REPORT = new StringBuilder();

    @Test
    void samplers() throws Exception {
        NoiseSource random = NoiseSources.secure();
        line("ChaCha20 nextLong (raw keystream, 8 B)", random::nextLong);
        line("uniform below 1e9", () -> random.nextLong(1_000_000_000L));
        line("Bernoulli(exp(-1/3))", () -> ExactSamplers.bernoulliExpMinus(random, 1, 3) ? 1 : 0);
        for (long t : new long[] {1, 10, 1000}) {
            line("discrete Laplace t=" + t, () -> ExactSamplers.discreteLaplace(random, 1, t));
        }
        long[][] sigmas = {{1, 4}, {1, 1}, {100, 1}, {10_000, 1}, {1_000_000, 1}, {100_000_000, 1}};
        for (long[] s : sigmas) {
            line(String.format(Locale.ROOT, "discrete Gaussian sigma=%s", fmt(Math.sqrt((double) s[0] / s[1]))),
                    () -> ExactSamplers.discreteGaussian(random, s[0], s[1]));
        }
        // Grid plans as releases use them: σ_grid ≥ 2^12; the covariance-sized plan forces the BigInteger path.
        GridNoise.GaussianPlan scalar = GridNoise.gaussian(1, 3.73, 1);
        line("discrete Gaussian, grid plan p=1 (sigma_grid=" + fmt(scalar.sigma() / scalar.granularity()) + ")",
                () -> ExactSamplers.discreteGaussian(random, scalar.sigmaSquaredNum(), scalar.sigmaSquaredDen()));
        GridNoise.GaussianPlan cov = GridNoise.gaussian(1, 5, 784L * 784);
        line("discrete Gaussian, grid plan p=784^2 (sigma_grid=" + fmt(cov.sigma() / cov.granularity()) + ", 128-bit path)",
                () -> ExactSamplers.discreteGaussian(random, cov.sigmaSquaredNum(), cov.sigmaSquaredDen()));
        line("discrete Gaussian sigma^2=(2^40+1)/4 (BigInteger fallback)",
                () -> ExactSamplers.discreteGaussian(random, (1L << 40) + 1, 4));
        double[] normals = new double[1024];
        line("standard normal (polar, projections only) per value", () -> {
            GaussianMatrices.fillStandardNormal(normals, random);
            return (long) normals[0];
        }, 1024);
        double[] c = new double[784 * 784];
        long start = System.nanoTime();
        int fills = 0;
        while (System.nanoTime() - start < 4e9 || fills < 2) {
            GridNoise.symmetricGaussian(cov, c, 784, random);
            fills++;
        }
        double perFill = (System.nanoTime() - start) / 1e9 / fills;
        REPORT.append(String.format(Locale.ROOT, "%-75s %10.3f s per matrix (%d fills)%n",
                "symmetric (G+G^T)/2 noise, 784x784, plan p=784^2", perFill, fills));
        GridNoise.GaussianPlan upper = GridNoise.gaussian(1, 5, 784L * 785 / 2);
        start = System.nanoTime();
        fills = 0;
        while (System.nanoTime() - start < 4e9 || fills < 2) {
            GridNoise.upperTriangleGaussian(upper, c, 784, random);
            fills++;
        }
        perFill = (System.nanoTime() - start) / 1e9 / fills;
        REPORT.append(String.format(Locale.ROOT, "%-75s %10.3f s per matrix (%d fills)%n",
                "upper-triangle mirrored noise, 784x784, plan p=784*785/2", perFill, fills));
        System.out.println(REPORT);
        Path out = Path.of("target/benchmarks/noise.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, REPORT.toString());
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && v < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.4g", v);
    }

    private static void line(String label, LongSupplier op) {
        line(label, op, 1);
    }

    private static void line(String label, LongSupplier op, int perCall) {
        long sink = 0;
        long warm = System.nanoTime();
        while (System.nanoTime() - warm < 2e9) {
            sink += op.getAsLong();
        }
        double best = 0;
        for (int round = 0; round < 5; round++) {
            long n = 0;
            long start = System.nanoTime();
            long elapsed;
            do {
                for (int i = 0; i < 1000; i++) {
                    sink += op.getAsLong();
                }
                n += 1000;
                elapsed = System.nanoTime() - start;
            } while (elapsed < 5e8);
            best = Math.max(best, n * perCall / (elapsed / 1e9));
        }
        REPORT.append(String.format(Locale.ROOT, "%-75s %12.0f samples/s%s%n", label, best,
                sink == 42 ? " " : ""));
    }
}
