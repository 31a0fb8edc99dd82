package io.privmat.bench;

import io.privmat.config.NativeBlas;
import io.privmat.mechanism.linalg.FixedPointWeightedSums;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.catalog.RowStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What Hardt–Roth's two row passes cost now that they are defined row by row (so that the Spark
 * executors and the service give the same bits, docs/scale-out.md): XΩ by
 * {@link RowStream#projectRows} (plain Java, a fixed order per row) against the BLAS product over
 * 4 096-row blocks it replaced, and Q̃ᵀX̃ by {@link FixedPointWeightedSums} (exact integer blocks)
 * against the floating BLAS product it replaced; 60 000 × 784 rows (half zeros, like pixels),
 * ℓ = 20, in-process, rounds alternating. Run:
 * {@code ./mvnw -o test -Pbenchmark -Dtest=RowSketchKernelBenchmark}. Prints medians and writes
 * target/benchmarks/row-sketch-kernels.txt.
 */
@Tag("benchmark")
class RowSketchKernelBenchmark {

    private static final int M = 60_000;
    private static final int D = 784;
    private static final int L = 20;
    private static final int BLOCK = 4096;
    private static final int ROUNDS = 5;

    @Test
    void kernels() throws Exception {
        NativeBlas.install();
        SplittableRandom r = new SplittableRandom(1);
        double[] x = new double[M * D];
        for (int i = 0; i < x.length; i++) {
            x[i] = r.nextDouble() < 0.5 ? 0 : r.nextDouble() / 28;
        }
        double[] w = new double[D * L];
        for (int i = 0; i < w.length; i++) {
            w[i] = r.nextGaussian();
        }
        double[] a = new double[M * L];
        for (int i = 0; i < a.length; i++) {
            a[i] = FixedPointWeightedSums.onGrid(r.nextGaussian() / Math.sqrt(M));
        }
        String before = load();
        List<Double> blasProject = new ArrayList<>();
        List<Double> rowProject = new ArrayList<>();
        List<Double> blasSums = new ArrayList<>();
        List<Double> exactSums = new ArrayList<>();
        double check = 0;
        for (int round = -1; round < ROUNDS; round++) { // round −1: warm-up
            double[] y = new double[M * L];
            long t0 = System.nanoTime();
            for (int f = 0; f < M; f += BLOCK) {
                int c = Math.min(BLOCK, M - f);
                LinearAlgebraOps.multiply(Arrays.copyOfRange(x, f * D, (f + c) * D), c, D, w, L, y, f * L);
            }
            long t1 = System.nanoTime();
            RowStream.projectRows(x, 0, M, w, L, y, 0);
            long t2 = System.nanoTime();
            double[] b = new double[L * D];
            for (int f = 0; f < M; f += BLOCK) {
                int c = Math.min(BLOCK, M - f);
                LinearAlgebraOps.addMultiplyTransA(a, f * L, c, L, Arrays.copyOfRange(x, f * D, (f + c) * D), D, b);
            }
            long t3 = System.nanoTime();
            FixedPointWeightedSums s = new FixedPointWeightedSums(D, L, 1.0);
            s.addRows(a, 0, x, 0, M);
            double[] exact = s.result();
            long t4 = System.nanoTime();
            check += y[0] + b[0] + exact[0];
            if (round >= 0) {
                blasProject.add((t1 - t0) / 1e9);
                rowProject.add((t2 - t1) / 1e9);
                blasSums.add((t3 - t2) / 1e9);
                exactSums.add((t4 - t3) / 1e9);
            }
        }
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "Hardt-Roth row passes, %d x %d rows, l = %d, %d rounds alternating; BLAS: %s; load average before: %s, after: %s (checksum %.3g)%n",
                M, D, L, ROUNDS, LinearAlgebra.implementation(), before, load(), check));
        line(report, "X*Omega, BLAS dgemm per 4096-row block (before)", blasProject);
        line(report, "X*Omega, row by row (RowStream.projectRows)", rowProject);
        line(report, "Q^T X, BLAS per 4096-row block (before)", blasSums);
        line(report, "Q^T X, exact (FixedPointWeightedSums)", exactSums);
        System.out.println(report);
        Path out = Path.of("target/benchmarks/row-sketch-kernels.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
    }

    private static void line(StringBuilder report, String what, List<Double> times) {
        report.append(String.format(Locale.ROOT, "  %-50s median %.3f s (min %.3f, max %.3f)%n", what,
                BenchStats.median(times), times.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                times.stream().mapToDouble(Double::doubleValue).max().orElseThrow()));
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "n/a";
        }
    }
}
