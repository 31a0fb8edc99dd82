package io.privmat.bench;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.lowrank.FactorizationFacts;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.lowrank.HardtRothMechanism;
import io.privmat.mechanism.lowrank.NoisyPowerMechanism;
import io.privmat.mechanism.lowrank.OrbitSamplingMechanism;
import io.privmat.mechanism.lowrank.PrivateOjaMechanism;
import io.privmat.mechanism.lowrank.RandomizedResponseMechanism;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.support.FashionMnist;
import io.privmat.support.LowRankFixtures;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Hardt–Roth versus randomized response (the claim of Hardt and Roth, "Beating randomized response on incoherent matrices", 2012) on tall low-rank matrices, incoherent
 * and coherent, plus timings of every low-rank mechanism on Fashion-MNIST (60 000 × 784, k = 10).
 * Run: {@code ./mvnw test -Pbenchmark -Dtest=LowRankAccuracyBenchmark}. Writes
 * target/benchmarks/low-rank.md and docs/accuracy/low-rank-*.png.
 */
@Tag("benchmark")
class LowRankAccuracyBenchmark {

    static final int M = 50_000;
    static final int N = 200;
    static final int K = 5;
    static final double[] EPSILONS = {1, 4, 16, 64, 256};
    static final int TRIALS = 2;

    /**
     * Rank-5 plus small noise (row norm ≈ 0.07 whatever n), every row of norm ≤ 1. Incoherent: the mass is spread over all rows.
     * Coherent: 1% of the rows carry the signal at full norm, the rest are tiny.
     */
    static double[] matrix(boolean coherent, long seed) {
        return matrix(coherent, seed, M, N);
    }

    static double[] matrix(boolean coherent, long seed, int M, int N) {
        return matrix(coherent ? 100 : 1, seed, M, N);
    }

    /** As above; one row in {@code every} carries the signal at full size (μ ≈ every), the rest at 2%. */
    static double[] matrix(int every, long seed, int M, int N) {
        SplittableRandom random = new SplittableRandom(seed);
        double[][] basis = new double[K][N];
        for (int t = 0; t < K; t++) {
            double norm = 0;
            for (int j = 0; j < N; j++) {
                basis[t][j] = random.nextGaussian();
                norm += basis[t][j] * basis[t][j];
            }
            for (int j = 0; j < N; j++) {
                basis[t][j] /= Math.sqrt(norm);
            }
        }
        double[] x = new double[M * N];
        for (int i = 0; i < M; i++) {
            double scale = i % every == 0 ? 1 : 0.02;
            double norm = 0;
            for (int t = 0; t < K; t++) {
                double c = (K - t) * 0.15 * random.nextGaussian() * scale;
                for (int j = 0; j < N; j++) {
                    x[i * N + j] += c * basis[t][j];
                }
            }
            for (int j = 0; j < N; j++) {
                x[i * N + j] += 0.005 * Math.sqrt(200.0 / N) * scale * random.nextGaussian();
                norm += x[i * N + j] * x[i * N + j];
            }
            norm = Math.sqrt(norm);
            if (norm > 1) {
                for (int j = 0; j < N; j++) {
                    x[i * N + j] /= norm;
                }
            }
        }
        return x;
    }

    /** The rows in blocks of about 4 MiB, like stored chunks. */
    static RowStream stream(double[] x, int m, int d) {
        return LowRankFixtures.stream(x, m, d, Math.max(1, (4 << 20) / (8 * d)));
    }

    /** ‖A − u·diag(s)·vᵀ‖_F / ‖A‖_F. */
    /** The optimum: ‖A − A_k‖_F / ‖A‖_F from the exact spectrum. */
    static double optimum(double[] x, int m, int d, int k) {
        double[] values;
        if (d > m) {
            double[] g = new double[m * m];
            LinearAlgebraOps.multiplyTransB(x, m, d, x, m, g);
            values = LinearAlgebra.eigen(g, m).values();
        } else {
            GramAccumulator acc = new GramAccumulator(d);
            acc.addRows(x, 0, m);
            values = LinearAlgebra.eigen(acc.result(), d).values();
        }
        double total = 0;
        double tail = 0;
        for (int j = 0; j < values.length; j++) {
            total += Math.max(values[j], 0);
            if (j >= k) {
                tail += Math.max(values[j], 0);
            }
        }
        return Math.sqrt(tail / total);
    }

    @Test
    void hardtRothVersusRandomizedResponse() throws Exception {
        compare(M, N, "low-rank-hr-vs-rr", "low-rank.md");
    }

    /** Hardt and Roth say the gain needs unbalanced dimensions: here the matrix is wide (n ≫ m). */
    @Test
    void hardtRothVersusRandomizedResponseWide() throws Exception {
        compare(1000, 20_000, "low-rank-hr-vs-rr-wide", "low-rank-wide.md");
    }

    private static void compare(int m, int n, String png, String md) throws Exception {
        StringBuilder out = new StringBuilder();
        Map<String, double[]> curves = new LinkedHashMap<>();
        for (boolean coherent : new boolean[] {false, true}) {
            String shape = coherent ? "coherent" : "incoherent";
            double[] x = matrix(coherent, 7, m, n);
            out.append(String.format(Locale.ROOT, "%n%s: m = %d, n = %d, rank %d, optimal rank-%d error %.4f%n%n"
                    + "| ε (δ = 1e-6) | randomized response | Hardt–Roth | HR pruned fraction |%n|---|---|---|---|%n",
                    shape, m, n, K, K, optimum(x, m, n, K)));
            double[] rr = new double[EPSILONS.length];
            double[] hr = new double[EPSILONS.length];
            for (int e = 0; e < EPSILONS.length; e++) {
                double pruned = 0;
                for (int t = 0; t < TRIALS; t++) {
                    Factorization a = RandomizedResponseMechanism.forApproxDp(m, n, K, 1, EPSILONS[e], 1e-6)
                            .release(stream(x, m, n), TestNoiseSources.seeded(100 + 10L * e + t));
                    rr[e] += LowRankFixtures.relativeError(x, a) / TRIALS;
                    Factorization b = HardtRothMechanism.of(m, n, K, 5, 1, 4, BigDecimal.valueOf(EPSILONS[e]),
                            new BigDecimal("1e-6")).release(stream(x, m, n), TestNoiseSources.seeded(200 + 10L * e + t));
                    hr[e] += LowRankFixtures.relativeError(x, b) / TRIALS;
                    pruned += b.facts().get(FactorizationFacts.PRUNED_FRACTION) / TRIALS;
                }
                out.append(String.format(Locale.ROOT, "| %s | %.4f | %.4f | %.4f |%n", EPSILONS[e], rr[e], hr[e], pruned));
            }
            curves.put("randomized response, " + shape, rr);
            curves.put("Hardt–Roth, " + shape, hr);
        }
        XYChart chart = new XYChartBuilder().width(900).height(560)
                .title(String.format(Locale.ROOT, "Rank-5 approximation, m = %,d, n = %,d: relative Frobenius error", m, n))
                .xAxisTitle("ε (δ = 1e-6)").yAxisTitle("‖A − Âₖ‖_F / ‖A‖_F").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        for (var c : curves.entrySet()) {
            chart.addSeries(c.getKey(), EPSILONS, c.getValue()).setMarker(SeriesMarkers.CIRCLE);
        }
        Files.createDirectories(Path.of("docs/accuracy"));
        BitmapEncoder.saveBitmap(chart, "docs/accuracy/" + png, BitmapEncoder.BitmapFormat.PNG);
        report(md, out);
    }

    /**
     * Where Hardt–Roth wins: (1) the aspect ratio n/m at fixed m = 1000 (Hardt and Roth need n ≫ m in
     * its orientation, rows = privacy units = the coherence side); (2) the oversampling p on the
     * wide matrix; (3) coherence (one row in 1, 10, 100 carries the signal) at large ε.
     * Writes target/benchmarks/low-rank-where.md and docs/accuracy/low-rank-aspect.png.
     */
    @Test
    void whereHardtRothWins() throws Exception {
        StringBuilder out = new StringBuilder();
        int m = 1000;
        int[] widths = {100, 300, 1000, 3000, 10_000, 20_000};
        double[] sweepEps = {16, 256};
        double[] aspect = new double[widths.length];
        Map<String, double[]> ratios = new LinkedHashMap<>();
        out.append(String.format(Locale.ROOT, "%n(1) Aspect ratio, m = %d, rank %d, incoherent, p = 10, δ = 1e-6, "
                + "mean of %d trials%n%n| n | n/m | ε | RR | HR | RR/HR |%n|---|---|---|---|---|---|%n", m, K, TRIALS));
        for (double eps : sweepEps) {
            ratios.put("ε = " + (int) eps, new double[widths.length]);
        }
        for (int w = 0; w < widths.length; w++) {
            int n = widths[w];
            aspect[w] = (double) n / m;
            double[] x = matrix(1, 7, m, n);
            for (int e = 0; e < sweepEps.length; e++) {
                double[] pair = pair(x, m, n, 10, 4, sweepEps[e], 300 + 10L * w + e);
                ratios.get("ε = " + (int) sweepEps[e])[w] = pair[0] / pair[1];
                out.append(String.format(Locale.ROOT, "| %d | %.2f | %s | %.4f | %.4f | %.2f |%n", n, aspect[w],
                        sweepEps[e], pair[0], pair[1], pair[0] / pair[1]));
            }
        }
        XYChart chart = new XYChartBuilder().width(900).height(560)
                .title("Randomized response error / Hardt–Roth error, m = 1000, rank 5, incoherent")
                .xAxisTitle("n / m").yAxisTitle("RR error / HR error (> 1: HR wins)").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        for (var c : ratios.entrySet()) {
            chart.addSeries(c.getKey(), aspect, c.getValue()).setMarker(SeriesMarkers.CIRCLE);
        }
        chart.addSeries("break-even", new double[] {aspect[0], aspect[aspect.length - 1]}, new double[] {1, 1})
                .setMarker(SeriesMarkers.NONE);
        Files.createDirectories(Path.of("docs/accuracy"));
        BitmapEncoder.saveBitmap(chart, "docs/accuracy/low-rank-aspect", BitmapEncoder.BitmapFormat.PNG);

        int n = 20_000;
        double[] wide = matrix(1, 7, m, n);
        out.append(String.format(Locale.ROOT, "%n(2) Oversampling, m = %d, n = %d, incoherent, HR error%n%n"
                + "| p | ε = 16 | ε = 256 | ε = 1000 |%n|---|---|---|---|%n", m, n));
        for (int p : new int[] {2, 5, 10, 20, 40, 80}) {
            out.append("| ").append(p);
            for (double eps : new double[] {16, 256, 1000}) {
                out.append(String.format(Locale.ROOT, " | %.4f", hardtRoth(wide, m, n, p, 4, eps, 400 + p)[0]));
            }
            out.append(" |\n");
        }

        out.append(String.format(Locale.ROOT, "%n(3) Coherence, m = %d, n = %d, one row in `every` carries the signal, "
                + "p = 10; μ₀ = 4 (τ ≥ 1: no pruning at this m) and μ₀ = 0.5%n%n"
                + "| every | ε | RR | HR μ₀ = 4 | HR μ₀ = 0.5 | pruned (μ₀ = 0.5) | RR/HR |%n|---|---|---|---|---|---|---|%n", m, n));
        for (int every : new int[] {1, 10, 100}) {
            double[] x = matrix(every, 7, m, n);
            for (double eps : new double[] {64, 256, 1000}) {
                double[] pair = pair(x, m, n, 10, 4, eps, 500 + every + (long) eps);
                double[] pruned = hardtRoth(x, m, n, 10, 0.5, eps, 600 + every + (long) eps);
                out.append(String.format(Locale.ROOT, "| %d | %s | %.4f | %.4f | %.4f | %.4f | %.2f |%n", every, eps,
                        pair[0], pair[1], pruned[0], pruned[1], pair[0] / Math.min(pair[1], pruned[0])));
            }
        }
        report("low-rank-where.md", out);
    }

    /**
     * The tall case at growing m (n = 200): if Hardt–Roth's advantage were asymptotic in m it would
     * show here. Writes target/benchmarks/low-rank-tall-m.md.
     */
    @Test
    void tallMatricesAtGrowingM() throws Exception {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%nTall, n = %d, rank %d, incoherent, p = 10, "
                + "μ₀ = 4, δ = 1e-6, mean of %d trials%n%n| m | ε | RR | HR | RR/HR | HR pruned |%n"
                + "|---|---|---|---|---|---|%n", N, K, TRIALS));
        for (int m : new int[] {12_500, 50_000, 200_000}) {
            double[] x = matrix(1, 7, m, N);
            for (double eps : new double[] {64, 256, 1000}) {
                double[] pair = pair(x, m, N, 10, 4, eps, 700 + m / 1000 + (long) eps);
                out.append(String.format(Locale.ROOT, "| %d | %s | %.4f | %.4f | %.2f | %.4f |%n", m, eps, pair[0],
                        pair[1], pair[0] / pair[1], pair[2]));
            }
        }
        report("low-rank-tall-m.md", out);
    }

    /**
     * The shape with the paper's orientation (its Appendix C: rows = movies, the short side, are
     * the privacy units and the coherence side): m = 200 rows, n = 50 000 columns. Writes
     * target/benchmarks/low-rank-seed-orientation.md.
     */
    @Test
    void seedOrientation() throws Exception {
        int m = 200;
        int n = 50_000;
        StringBuilder out = new StringBuilder();
        for (int every : new int[] {1, 20}) {
            double[] x = matrix(every, 7, m, n);
            out.append(String.format(Locale.ROOT, "%nm = %d, n = %d, rank %d, one row in %d carries the signal, "
                    + "optimal %.4f; p = 10, μ₀ = 4, δ = 1e-6, mean of %d trials%n%n| ε | RR | HR | RR/HR |%n"
                    + "|---|---|---|---|%n", m, n, K, every, optimum(x, m, n, K), TRIALS));
            for (double eps : EPSILONS_WIDE) {
                double[] pair = pair(x, m, n, 10, 4, eps, 800 + every + (long) eps);
                out.append(String.format(Locale.ROOT, "| %s | %.4f | %.4f | %.2f |%n", eps, pair[0], pair[1],
                        pair[0] / pair[1]));
            }
        }
        report("low-rank-seed-orientation.md", out);
    }

    static final double[] EPSILONS_WIDE = {4, 16, 64, 256, 1000};

    /**
     * Randomized response with Gavish–Donoho shrinkage (free post-processing) next to plain RR and
     * HR, tall and wide. Writes target/benchmarks/low-rank-shrinkage.md.
     */
    @Test
    void shrinkage() throws Exception {
        StringBuilder out = new StringBuilder();
        for (int[] shape : new int[][] {{50_000, 200}, {1000, 20_000}}) {
            int m = shape[0];
            int n = shape[1];
            double[] x = matrix(1, 7, m, n);
            out.append(String.format(Locale.ROOT, "%nm = %d, n = %d, incoherent, p = 10, δ = 1e-6, mean of %d trials%n%n"
                    + "| ε | RR | RR shrunk | HR | HR shrunk |%n|---|---|---|---|---|%n", m, n, TRIALS));
            for (double eps : new double[] {1, 16, 64, 256, 1000}) {
                long seed = 900 + m / 1000 + (long) eps;
                double[] err = new double[4];
                for (int t = 0; t < TRIALS; t++) {
                    RandomizedResponseMechanism rr = RandomizedResponseMechanism.forApproxDp(m, n, K, 1, eps, 1e-6);
                    HardtRothMechanism hr = HardtRothMechanism.of(m, n, K, 10, 1, 4, BigDecimal.valueOf(eps),
                            new BigDecimal("1e-6"));
                    // Same seed with and without shrinkage: the same noise, only the released s differ.
                    err[0] += LowRankFixtures.relativeError(x, rr.release(stream(x, m, n), TestNoiseSources.seeded(seed * 100 + t)));
                    err[1] += LowRankFixtures.relativeError(x, rr.withShrinkage().release(stream(x, m, n),
                            TestNoiseSources.seeded(seed * 100 + t)));
                    err[2] += LowRankFixtures.relativeError(x, hr.release(stream(x, m, n), TestNoiseSources.seeded(seed * 100 + 50 + t)));
                    err[3] += LowRankFixtures.relativeError(x, hr.withShrinkage().release(stream(x, m, n),
                            TestNoiseSources.seeded(seed * 100 + 50 + t)));
                }
                out.append(String.format(Locale.ROOT, "| %s | %.4f | %.4f | %.4f | %.4f |%n", eps, err[0] / TRIALS,
                        err[1] / TRIALS, err[2] / TRIALS, err[3] / TRIALS));
            }
        }
        report("low-rank-shrinkage.md", out);
    }

    /** Prints the report and writes it to target/benchmarks/{@code name}. */
    private static void report(String name, StringBuilder out) throws java.io.IOException {
        System.out.println(out);
        Path report = Path.of("target/benchmarks/" + name);
        Files.createDirectories(report.getParent());
        Files.writeString(report, out.toString());
    }

    /** Mean relative error of RR and HR, and HR's pruned fraction, over {@link #TRIALS} seeded runs. */
    private static double[] pair(double[] x, int m, int n, int p, double mu0, double eps, long seed) {
        double[] b = hardtRoth(x, m, n, p, mu0, eps, seed);
        return new double[] {randomizedResponse(x, m, n, eps, seed), b[0], b[1]};
    }

    private static double randomizedResponse(double[] x, int m, int n, double eps, long seed) {
        double err = 0;
        for (int t = 0; t < TRIALS; t++) {
            Factorization a = RandomizedResponseMechanism.forApproxDp(m, n, K, 1, eps, 1e-6)
                    .release(stream(x, m, n), TestNoiseSources.seeded(seed * 100 + t));
            err += LowRankFixtures.relativeError(x, a) / TRIALS;
        }
        return err;
    }

    private static double[] hardtRoth(double[] x, int m, int n, int p, double mu0, double eps, long seed) {
        double[] r = new double[2];
        for (int t = 0; t < TRIALS; t++) {
            Factorization b = HardtRothMechanism.of(m, n, K, p, 1, mu0, BigDecimal.valueOf(eps),
                    new BigDecimal("1e-6")).release(stream(x, m, n), TestNoiseSources.seeded(seed * 100 + 50 + t));
            r[0] += LowRankFixtures.relativeError(x, b) / TRIALS;
            r[1] += b.facts().get(FactorizationFacts.PRUNED_FRACTION) / TRIALS;
        }
        return r;
    }

    @Test
    void fashionMnistTimingsAndAccuracy() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(FashionMnist.available());
        int m = 60_000;
        int d = 784;
        int k = 10;
        double[] x = new double[m * d];
        FashionMnist.forEachImage(m, (index, pixels) -> {
            double norm = 0;
            for (int c = 0; c < d; c++) {
                double v = (pixels[c] & 0xff) / 255.0;
                x[index * d + c] = v;
                norm += v * v;
            }
            for (int c = 0; c < d; c++) {
                x[index * d + c] /= Math.max(1, Math.sqrt(norm));
            }
        });
        GramAccumulator acc = new GramAccumulator(d);
        acc.addRows(x, 0, m);
        double[] gram = acc.result();
        var exact = LinearAlgebra.eigen(gram, d);
        double optimal = 0;
        for (int j = 0; j < k; j++) {
            optimal += exact.values()[j];
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "%nFashion-MNIST 60 000 × 784, k = 10, ε = 1, δ = 1e-6 (REPLACE_ONE); captured top-10 variance "
                        + "tr(VᵀCV)/optimum; time of the mechanism after the data is in memory (Gram-based ones get "
                        + "the Gram, 0.48 s, precomputed)%n%n| mechanism | time | captured variance / optimum |%n|---|---|---|%n"));
        List<String> names = List.of("RANDOMIZED_RESPONSE", "HARDT_ROTH", "NOISY_POWER", "PRIVATE_OJA (k = 1)",
                "ORBIT_SAMPLING (peeling)", "ORBIT_SAMPLING (projection, k = 1)");
        for (String name : names) {
            long t0 = System.nanoTime();
            Factorization f = switch (name) {
                case "RANDOMIZED_RESPONSE" -> RandomizedResponseMechanism.forApproxDp(m, d, k, 1, 1, 1e-6)
                        .release(stream(x, m, d), TestNoiseSources.seeded(11));
                case "HARDT_ROTH" -> HardtRothMechanism.of(m, d, k, 5, 1, 4, BigDecimal.ONE, new BigDecimal("1e-6"))
                        .release(stream(x, m, d), TestNoiseSources.seeded(12));
                case "NOISY_POWER" -> NoisyPowerMechanism.forApproxDp(d, k, 20, 1, 1, 1e-6).release(gram,
                        TestNoiseSources.seeded(13));
                case "PRIVATE_OJA (k = 1)" -> PrivateOjaMechanism.forApproxDp(d, 30, 1, 1, 1, 1e-6).release(gram,
                        TestNoiseSources.seeded(14));
                case "ORBIT_SAMPLING (projection, k = 1)" -> OrbitSamplingMechanism.of(d, 1, 1,
                        NeighbouringRelation.REPLACE_ONE, BigDecimal.ONE, OrbitSamplingMechanism.Spectrum.PROJECTION)
                        .release(gram, m, TestNoiseSources.seeded(16));
                default -> OrbitSamplingMechanism.of(d, k, 1, NeighbouringRelation.REPLACE_ONE, BigDecimal.ONE,
                        OrbitSamplingMechanism.Spectrum.PEELING).release(gram, m, TestNoiseSources.seeded(15));
            };
            double seconds = (System.nanoTime() - t0) / 1e9;
            int kk = f.k();
            double captured = 0;
            for (int t = 0; t < kk; t++) {
                for (int i = 0; i < d; i++) {
                    double row = 0;
                    for (int j = 0; j < d; j++) {
                        row += gram[i * d + j] * f.v()[j * kk + t];
                    }
                    captured += f.v()[i * kk + t] * row;
                }
            }
            double opt = kk == k ? optimal : exact.values()[0];
            out.append(String.format(Locale.ROOT, "| %s | %.2f s | %.4f |%n", name, seconds, captured / opt));
        }
        report("low-rank-fmnist.md", out);
    }
}
