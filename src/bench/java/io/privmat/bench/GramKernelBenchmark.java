package io.privmat.bench;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.JavaBLAS;
import io.privmat.config.NativeBlas;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Gram kernel XᵀX of a 60 000 × 784 float64 matrix, three ways in the same run, rounds
 * alternating: the native backend the service binds ({@link NativeBlas}; on a machine without
 * system OpenBLAS the bundled one) through {@link GramAccumulator} over 4 MiB chunks as streamed;
 * the pure-Java fallback as the service ran it before (netlib's Java BLAS dsyrk, rows split over
 * two threads); and numpy {@code X.T @ X} (src/bench/python/gram_numpy.py), if python3 with numpy
 * is available. Run: {@code ./mvnw test -Pbenchmark -Dtest=GramKernelBenchmark}. Prints medians
 * and writes target/benchmarks/gram.txt.
 */
@Tag("benchmark")
class GramKernelBenchmark {

    private static final int N = 60_000;
    private static final int D = 784;
    private static final int CHUNK_ROWS = (4 << 20) / (8 * D);
    private static final int ROUNDS = 5;

    @Test
    void gram() throws Exception {
        NativeBlas.Selection selection = NativeBlas.install();
        double[] x = new double[N * D];
        long state = 1;
        for (int i = 0; i < x.length; i++) {
            state = state * 6364136223846793005L + 1442695040888963407L;
            x[i] = (state >>> 11) * 0x1.0p-53;
        }
        boolean numpy = numpyAvailable();
        List<Double> nativeTimes = new ArrayList<>();
        List<Double> javaTimes = new ArrayList<>();
        List<Double> numpyTimes = new ArrayList<>();
        nativeGram(x); // warm-up
        javaGram(x);
        for (int round = 0; round < ROUNDS; round++) {
            nativeTimes.add(time(() -> nativeGram(x)));
            javaTimes.add(time(() -> javaGram(x)));
            if (numpy) {
                numpyTimes.add(numpyGram());
            }
        }
        StringBuilder report = new StringBuilder();
        report.append(String.format(Locale.ROOT, "Gram X^T X, %d x %d float64, %d rounds alternating; load average before: %s%n",
                N, D, ROUNDS, loadAverage()));
        report.append(String.format(Locale.ROOT, "backend: %s (%s %s)%n", LinearAlgebra.implementation(),
                selection.source(), selection.library()));
        line(report, "native dsyrk via GramAccumulator (668-row chunks)", nativeTimes);
        line(report, "pure-Java dsyrk (netlib JavaBLAS, 2 threads)", javaTimes);
        if (numpy) {
            line(report, "numpy X.T @ X (src/bench/python/gram_numpy.py)", numpyTimes);
            report.append(String.format(Locale.ROOT, "ratio native / numpy (medians): %.2f; pure Java / numpy: %.2f%n",
                    BenchStats.median(nativeTimes) / BenchStats.median(numpyTimes), BenchStats.median(javaTimes) / BenchStats.median(numpyTimes)));
        } else {
            report.append("numpy: not available\n");
        }
        report.append(String.format(Locale.ROOT, "ratio pure Java / native (medians): %.1f; load average after: %s%n",
                BenchStats.median(javaTimes) / BenchStats.median(nativeTimes), loadAverage()));
        System.out.println(report);
        Path out = Path.of("target/benchmarks/gram.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
    }

    private static double[] nativeGram(double[] x) {
        GramAccumulator gram = new GramAccumulator(D);
        for (int row = 0; row < N; row += CHUNK_ROWS) {
            gram.addRows(x, row * D, Math.min(CHUNK_ROWS, N - row));
        }
        return gram.result();
    }

    private static double[] javaGram(double[] x) {
        BLAS java = JavaBLAS.getInstance();
        double[] c1 = new double[D * D];
        double[] c2 = new double[D * D];
        for (int row = 0; row < N; row += CHUNK_ROWS) {
            int count = Math.min(CHUNK_ROWS, N - row);
            int half = count / 2;
            int offset = row * D;
            CompletableFuture<Void> other = CompletableFuture.runAsync(
                    () -> java.dsyrk("U", "N", D, count - half, 1.0, x, offset + half * D, D, 1.0, c2, 0, D));
            java.dsyrk("U", "N", D, half, 1.0, x, offset, D, 1.0, c1, 0, D);
            other.join();
        }
        return c1;
    }

    private static double time(Runnable r) {
        long start = System.nanoTime();
        r.run();
        return (System.nanoTime() - start) / 1e9;
    }

    private static boolean numpyAvailable() {
        try {
            return new ProcessBuilder("python3", "-c", "import numpy").start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    private static double numpyGram() throws Exception {
        Process p = new ProcessBuilder("python3", "src/bench/python/gram_numpy.py", Integer.toString(N),
                Integer.toString(D)).redirectErrorStream(true).start();
        String seconds = null;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null;) {
                if (line.startsWith("seconds ")) {
                    seconds = line.substring(8).trim();
                }
            }
        }
        if (p.waitFor() != 0 || seconds == null) {
            throw new IllegalStateException("gram_numpy.py failed");
        }
        return Double.parseDouble(seconds);
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static void line(StringBuilder report, String label, List<Double> times) {
        double[] sorted = times.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        report.append(String.format(Locale.ROOT, "%-55s median %.3f s (min %.3f, max %.3f) %s%n", label,
                BenchStats.median(times), sorted[0], sorted[sorted.length - 1], Arrays.toString(sorted)));
    }

}
