package io.privmat.bench;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.covariance.AnalyzeGaussMechanism;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.covariance.EigenSamplingMechanism;
import io.privmat.mechanism.covariance.PostProcessing;
import io.privmat.mechanism.covariance.WishartMechanism;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.support.FashionMnist;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Accuracy and speed of the covariance mechanisms on Fashion-MNIST (60 000 × 784, pixels ÷ 255,
 * every row clipped to L2 norm ≤ 1 — which normalises them all, as every row is longer than 2.15).
 * Run: {@code ./mvnw test -Pbenchmark -Dtest=CovarianceAccuracyBenchmark}. Writes
 * target/benchmarks/covariance.md and the plots under docs/accuracy/.
 */
@Tag("benchmark")
class CovarianceAccuracyBenchmark {

    private static final int D = 784;
    private static final int K = 10;
    private static final double[] EPSILONS = {0.1, 0.5, 1, 2};
    private static final int TRIALS = 3;

    @Test
    void fashionMnist() throws Exception {
        Assumptions.assumeTrue(FashionMnist.available(), "dataset-fashion-mnist is not installed");
        int n = 60_000;
        double[] x = new double[n * D];
        FashionMnist.forEachImage(n, (index, pixels) -> {
            double norm = 0;
            for (int c = 0; c < D; c++) {
                double v = (pixels[c] & 0xff) / 255.0;
                x[index * D + c] = v;
                norm += v * v;
            }
            double scale = Math.min(1, 1 / Math.sqrt(norm));
            for (int c = 0; c < D; c++) {
                x[index * D + c] *= scale;
            }
        });
        StringBuilder out = new StringBuilder();
        out.append("BLAS/LAPACK: ").append(LinearAlgebra.implementation()).append("\n\n");

        // Gram matrix: native (if present) and the pure-Java fallback, in 4 MiB chunks as streamed.
        int chunkRows = (4 << 20) / (8 * D);
        double[] gram = null;
        double best = Double.MAX_VALUE;
        for (int rep = 0; rep < 3; rep++) {
            long t0 = System.nanoTime();
            GramAccumulator acc = new GramAccumulator(D);
            for (int s = 0; s < n; s += chunkRows) {
                acc.addRows(x, s * D, Math.min(chunkRows, n - s));
            }
            gram = acc.result();
            best = Math.min(best, (System.nanoTime() - t0) / 1e9);
        }
        double flops = (double) n * D * (D + 1);
        out.append(String.format(Locale.ROOT, "Gram XᵀX, %d×%d, dsyrk over %d-row chunks: %.3f s (%.1f GFLOP/s)%n",
                n, D, chunkRows, best, flops / best / 1e9));
        double[] javaC = new double[D * D];
        long tj = System.nanoTime();
        var javaBlas = dev.ludovic.netlib.blas.JavaBLAS.getInstance();
        for (int s = 0; s < n; s += chunkRows) {
            javaBlas.dsyrk("U", "N", D, Math.min(chunkRows, n - s), 1.0, x, s * D, D, 1.0, javaC, 0, D);
        }
        double javaSeconds = (System.nanoTime() - tj) / 1e9;
        out.append(String.format(Locale.ROOT, "Gram with the pure-Java fallback (%s): %.3f s (%.1f GFLOP/s)%n%n",
                javaBlas.getClass().getSimpleName(), javaSeconds, flops / javaSeconds / 1e9));

        SymmetricEigen exact = LinearAlgebra.eigen(gram, D);
        double optimum = 0;
        for (int i = 0; i < K; i++) {
            optimum += exact.values()[i];
        }
        double frob = frobenius(gram, null);

        // Timings of each mechanism end to end after the Gram (release + post-processing), production noise.
        NoiseSource secure = NoiseSources.secure();
        out.append("| mechanism (ε = 1, δ = 1e-6, add/remove) | release + post-processing | end to end incl. Gram |\n|---|---|---|\n");
        for (String mech : List.of("ANALYZE_GAUSS", "WISHART", "EIGEN_SAMPLING")) {
            double s = Double.MAX_VALUE;
            for (int rep = 0; rep < 3; rep++) {
                long t0 = System.nanoTime();
                run(mech, 1.0, gram, secure);
                s = Math.min(s, (System.nanoTime() - t0) / 1e9);
            }
            out.append(String.format(Locale.ROOT, "| %s | %.3f s | %.3f s |%n", mech, s, s + best));
        }

        // Accuracy: captured top-10 variance relative to the optimum, and relative Frobenius error.
        Map<String, double[][]> captured = new LinkedHashMap<>();
        Map<String, double[][]> frobError = new LinkedHashMap<>();
        out.append("\n| mechanism | ε | captured top-10 variance / optimum | relative Frobenius error ‖Ĉ − C‖_F / ‖C‖_F |\n|---|---|---|---|\n");
        for (String mech : List.of("ANALYZE_GAUSS", "WISHART", "EIGEN_SAMPLING")) {
            double[][] cap = new double[EPSILONS.length][TRIALS];
            double[][] fro = new double[EPSILONS.length][TRIALS];
            for (int e = 0; e < EPSILONS.length; e++) {
                for (int t = 0; t < TRIALS; t++) {
                    CovarianceRelease r = run(mech, EPSILONS[e], gram, TestNoiseSources.seeded(1000L * e + t + mech.hashCode()));
                    cap[e][t] = captured(gram, r.components(), K) / optimum;
                    fro[e][t] = frobenius(gram, r.covariance()) / frob;
                }
                out.append(String.format(Locale.ROOT, "| %s | %s | %.4f ± %.4f | %.4f ± %.4f |%n", mech,
                        EPSILONS[e], mean(cap[e]), sd(cap[e]), mean(fro[e]), sd(fro[e])));
            }
            captured.put(mech, cap);
            frobError.put(mech, fro);
        }
        out.append(String.format(Locale.ROOT, "%nOptimal top-10 captured variance tr(V₁₀ᵀ C V₁₀) = %.1f; ‖C‖_F = %.1f; "
                + "%d trials per cell (seeded), mean ± sd.%n", optimum, frob, TRIALS));
        plot("Captured top-10 variance / optimum (Fashion-MNIST, δ = 1e-6)", "captured / optimum", captured,
                Path.of("docs/accuracy/covariance-captured-variance.png"), false);
        plot("Relative Frobenius error of the covariance (Fashion-MNIST, δ = 1e-6)", "‖Ĉ − C‖_F / ‖C‖_F", frobError,
                Path.of("docs/accuracy/covariance-frobenius.png"), true);
        System.out.println(out);
        Path report = Path.of("target/benchmarks/covariance.md");
        Files.createDirectories(report.getParent());
        Files.writeString(report, out.toString());
    }

    private static CovarianceRelease run(String mech, double epsilon, double[] gram, NoiseSource random) {
        NeighbouringRelation rel = NeighbouringRelation.ADD_REMOVE;
        return switch (mech) {
            case "ANALYZE_GAUSS" -> PostProcessing.psdAndTopK(
                    AnalyzeGaussMechanism.forApproxDp(D, 1, rel, epsilon, 1e-6).release(gram, random), D, K,
                    Double.POSITIVE_INFINITY, true);
            case "WISHART" -> PostProcessing.psdAndTopK(WishartMechanism.of(D, 1, BigDecimal.valueOf(epsilon),
                    new BigDecimal("1e-6")).release(gram, random), D, K, Double.POSITIVE_INFINITY, true);
            default -> EigenSamplingMechanism.of(D, K, 1, rel, BigDecimal.valueOf(epsilon))
                    .release(gram, Double.POSITIVE_INFINITY, true, random);
        };
    }

    private static void plot(String title, String yLabel, Map<String, double[][]> series, Path file, boolean logY)
            throws Exception {
        XYChart chart = new XYChartBuilder().width(900).height(560).title(title).xAxisTitle("ε").yAxisTitle(yLabel).build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(logY);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        for (var entry : series.entrySet()) {
            double[] y = new double[EPSILONS.length];
            double[] err = new double[EPSILONS.length];
            for (int e = 0; e < EPSILONS.length; e++) {
                y[e] = mean(entry.getValue()[e]);
                err[e] = sd(entry.getValue()[e]);
            }
            chart.addSeries(entry.getKey(), EPSILONS, y, logY ? null : err).setMarker(SeriesMarkers.CIRCLE);
        }
        Files.createDirectories(file.getParent());
        BitmapEncoder.saveBitmap(chart, file.toString().replace(".png", ""), BitmapEncoder.BitmapFormat.PNG);
    }

    static double captured(double[] c, double[] v, int k) {
        double[] cv = new double[D * k];
        LinearAlgebraOps.multiply(c, D, D, v, k, cv);
        double total = 0;
        for (int i = 0; i < D; i++) {
            for (int a = 0; a < k; a++) {
                total += v[i * k + a] * cv[i * k + a];
            }
        }
        return total;
    }

    private static double frobenius(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            double diff = a[i] - (b == null ? 0 : b[i]);
            s += diff * diff;
        }
        return Math.sqrt(s);
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    private static double sd(double[] v) {
        double m = mean(v);
        double s = 0;
        for (double x : v) {
            s += (x - m) * (x - m);
        }
        return Math.sqrt(s / Math.max(1, v.length - 1));
    }

    static List<Double> unused() {
        return new ArrayList<>();
    }
}
