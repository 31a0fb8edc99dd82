package io.privmat.bench;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.covariance.AnalyzeGaussMechanism;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.mechanism.window.WindowMechanism;
import io.privmat.mechanism.window.WindowMechanismKind;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.window.WindowRelease;
import io.privmat.mechanism.window.WindowState;
import io.privmat.mechanism.window.WindowStream;
import io.privmat.support.FashionMnist;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.netlib.util.intW;

/**
 * Accuracy of the sliding-window mechanisms over time (docs/accuracy/windows.md): W = 10 000 rows,
 * b ∈ {W/100, W/10}, ρ = 0.1 (ADD_REMOVE, B = 1) for the whole stream, on Fashion-MNIST streamed in
 * order (60 000 × 784, pixels ÷ 255, rows clipped to norm 1) and on a synthetic stream (d = 50) whose
 * principal direction turns by 90° halfway. Disjoint blocks, the dyadic tree, the banded Toeplitz
 * factorisation, and the naive baseline that re-runs Analyze Gauss on every window with ρ/w (each
 * row is in w windows). One seeded stream key per run. Run:
 * {@code ./mvnw -o test -Pbenchmark -Dtest=WindowAccuracyBenchmark#accuracy} (about 30 min on 2
 * cores; {@code -Dwindows.syntheticOnly=true} for the synthetic stream alone, 2 min) and
 * {@code ...#throughput}. Writes target/benchmarks/windows*.md and plots under docs/accuracy/.
 */
@Tag("benchmark")
class WindowAccuracyBenchmark {

    static final int WINDOW_ROWS = 10_000;
    static final double RHO = 0.1;
    static final NeighbouringRelation AR = NeighbouringRelation.ADD_REMOVE;
    static final String NAIVE = "NAIVE (Analyze Gauss per window, ρ/w)";

    /** A stream of rows produced on demand (the data are kept compactly: bytes or a seed). */
    interface Rows {
        int n();

        int d();

        /** Writes row i (clipped to norm ≤ 1) into out[offset ..]. */
        void row(int i, double[] out, int offset);
    }

    record Series(String mechanism, List<long[]> blocksAt, List<Double> spectral, List<Double> predicted,
            List<Double> dirTop, List<Double> dirRandom, List<Double> dirPredicted, List<double[]> pca) {}

    @Test
    void accuracy() throws Exception {
        StringBuilder out = new StringBuilder();
        out.append("BLAS/LAPACK: ").append(LinearAlgebra.implementation()).append("\n\n");
        out.append(String.format(Locale.ROOT, "W = %d rows, ρ = %s for the whole stream, ADD_REMOVE, B = 1.%n%n",
                WINDOW_ROWS, RHO));
        List<Rows> datasets = new ArrayList<>();
        if (Boolean.getBoolean("windows.syntheticOnly")) {
            out.append("Synthetic stream only (-Dwindows.syntheticOnly=true).\n\n");
        } else if (FashionMnist.available()) {
            datasets.add(fashionMnist());
        } else {
            out.append("dataset-fashion-mnist is not installed: Fashion-MNIST skipped.\n\n");
        }
        datasets.add(synthetic());
        StringBuilder summary = new StringBuilder("| data | b | w | mechanism | mean ‖E‖₂ (full windows) | predicted τ√(2d) "
                + "| ratio | max ‖E‖₂ | mean abs dir. error, top dir. | … random dir. | predicted τ√(2/π) "
                + "| PCA top-5 captured / optimum (mean) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Rows data : datasets) {
            String name = data.d() == 784 ? "Fashion-MNIST" : "synthetic d=50";
            for (int b : new int[] {WINDOW_ROWS / 100, WINDOW_ROWS / 10}) {
                int w = WINDOW_ROWS / b;
                Map<String, Series> all = new LinkedHashMap<>();
                for (WindowMechanismKind kind : WindowMechanismKind.values()) {
                    all.put(kind.name(), run(data, b, w, kind.name()));
                }
                all.put(NAIVE, run(data, b, w, NAIVE));
                for (Series s : all.values()) {
                    double spectralMean = meanFull(s.spectral(), s.blocksAt(), w);
                    double predictedMean = meanFull(s.predicted(), s.blocksAt(), w);
                    double max = s.spectral().stream().mapToDouble(Double::doubleValue).max().orElse(0);
                    double pcaMean = s.pca().stream().mapToDouble(v -> v[1]).average().orElse(Double.NaN);
                    summary.append(String.format(Locale.ROOT,
                            "| %s | %d | %d | %s | %.1f | %.1f | %.3f | %.1f | %.2f | %.2f | %.2f | %.4f |%n", name, b, w,
                            s.mechanism(), spectralMean, predictedMean, spectralMean / predictedMean, max,
                            meanFull(s.dirTop(), s.blocksAt(), w), meanFull(s.dirRandom(), s.blocksAt(), w),
                            meanFull(s.dirPredicted(), s.blocksAt(), w), pcaMean));
                }
                out.append(timeTable(name, b, w, all));
                plot(name, b, all, data.d());
                System.out.println(summary);
            }
        }
        out.append("\n").append(summary);
        System.out.println(out);
        Path report = Path.of("target/benchmarks/windows.md");
        Files.createDirectories(report.getParent());
        Files.writeString(report, out.toString());
    }

    /** One mechanism over one stream: errors at (most) block ends. */
    static Series run(Rows data, int b, int w, String mechanism) {
        int d = data.d();
        int blocks = data.n() / b;
        WindowParameters p = WindowParameters.rows(d, 1, b, w, blocks, AR);
        boolean naive = mechanism.equals(NAIVE);
        WindowMechanism m = naive ? null
                : WindowMechanism.forRho(WindowMechanismKind.valueOf(mechanism), p, RHO, WindowMechanism.Options.DEFAULT);
        AnalyzeGaussMechanism ag = naive ? AnalyzeGaussMechanism.forRho(d, 1, AR, RHO / w) : null;
        byte[] key = new byte[32];
        new SplittableRandom(mechanism.hashCode() * 31L + b).nextBytes(key);
        WindowStream stream = naive ? null : WindowStream.start(m, key);

        double[] top = topDirection(data);
        double[] random = randomUnit(d, 99);
        // Every block: the tree's error depends on the block's position in the dyadic grid (a sawtooth).
        int evalEvery = 1;
        // PCA checkpoints (4 eigendecompositions each): about 30 at d = 784, 60 at d = 50.
        int pcaEvery = Math.max(1, blocks / (d > 100 ? 30 : 60));
        double[][] exactBlocks = new double[w][];
        double[] rows = new double[b * d];
        Series s = new Series(naive ? NAIVE : mechanism, new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
                new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        long start = System.nanoTime();
        for (int t = 0; t < blocks; t++) {
            for (int r = 0; r < b; r++) {
                data.row(t * b + r, rows, r * d);
            }
            GramAccumulator acc = new GramAccumulator(d);
            acc.addRows(rows, 0, b);
            exactBlocks[t % w] = acc.result();
            double[] estimate;
            double tau2;
            if (naive) {
                double[] window = exactWindow(exactBlocks, t, w, d);
                estimate = ag.release(window, NoiseSources.keyed(key, t));
                tau2 = ag.sigma() * ag.sigma();
            } else {
                WindowRelease rel = stream.appendRows(rows, b).releases().get(0);
                estimate = rel.window();
                tau2 = rel.noiseVariance();
            }
            boolean eval = t % evalEvery == 0 || t == blocks - 1;
            if (!eval) {
                continue;
            }
            double[] exact = exactWindow(exactBlocks, t, w, d);
            double[] error = new double[d * d];
            for (int i = 0; i < d * d; i++) {
                error[i] = estimate[i] - exact[i];
            }
            s.blocksAt().add(new long[] {t, (long) (t + 1) * b});
            s.spectral().add(spectralNorm(error, d));
            s.predicted().add(Math.sqrt(2.0 * d * tau2));
            s.dirTop().add(Math.abs(quadratic(error, d, top)));
            s.dirRandom().add(Math.abs(quadratic(error, d, random)));
            s.dirPredicted().add(Math.sqrt(tau2 * 2 / Math.PI));
            if ((t % pcaEvery == 0 && t >= w - 1) || t == blocks - 1) {
                double[] u = LinearAlgebra.eigen(exact, d).topVectors(1);
                double[] v = LinearAlgebra.eigen(estimate, d).topVectors(1);
                double dot = 0;
                for (int i = 0; i < d; i++) {
                    dot += u[i] * v[i];
                }
                // {block, top-5 captured / optimum, |⟨û₁, u₁⟩|, |û₁·e₂|, |u₁·e₂|}
                s.pca().add(new double[] {t, captured(exact, estimate, d, 5), Math.abs(dot), Math.abs(v[1]),
                        Math.abs(u[1])});
            }
            if (t % 50 == 0) {
                System.out.printf(Locale.ROOT, "%s b=%d %s block %d/%d ‖E‖=%.1f (%.0f s)%n", data.d(), b, mechanism, t,
                        blocks, s.spectral().get(s.spectral().size() - 1), (System.nanoTime() - start) / 1e9);
            }
        }
        return s;
    }

    static double[] exactWindow(double[][] ring, int t, int w, int d) {
        double[] sum = new double[d * d];
        for (int s = Math.max(0, t - w + 1); s <= t; s++) {
            double[] g = ring[s % w];
            for (int i = 0; i < sum.length; i++) {
                sum[i] += g[i];
            }
        }
        return sum;
    }

    /** tr(V̂ᵀCV̂) / Σ top-k λ(C) for the top-k eigenvectors V̂ of the PSD-projected estimate. */
    static double captured(double[] exact, double[] estimate, int d, int k) {
        SymmetricEigen e = LinearAlgebra.eigen(exact, d);
        double optimum = 0;
        for (int i = 0; i < k; i++) {
            optimum += e.values()[i];
        }
        double[] v = LinearAlgebra.eigen(estimate, d).topVectors(k);
        double[] cv = new double[d * k];
        LinearAlgebraOps.multiply(exact, d, d, v, k, cv);
        double total = 0;
        for (int i = 0; i < d * k; i++) {
            total += v[i] * cv[i];
        }
        return total / optimum;
    }

    /** max |λ| of a symmetric matrix (LAPACK dsyev, eigenvalues only). */
    static double spectralNorm(double[] sym, int d) {
        double[] a = sym.clone();
        double[] w = new double[d];
        double[] work = new double[1];
        intW info = new intW(0);
        var lapack = dev.ludovic.netlib.lapack.LAPACK.getInstance();
        lapack.dsyev("N", "U", d, a, d, w, work, -1, info);
        work = new double[(int) work[0]];
        lapack.dsyev("N", "U", d, a, d, w, work, work.length, info);
        if (info.val != 0) {
            throw new IllegalStateException("dsyev failed");
        }
        return Math.max(Math.abs(w[0]), Math.abs(w[d - 1]));
    }

    static double quadratic(double[] m, int d, double[] x) {
        double total = 0;
        for (int i = 0; i < d; i++) {
            double row = 0;
            for (int j = 0; j < d; j++) {
                row += m[i * d + j] * x[j];
            }
            total += x[i] * row;
        }
        return total;
    }

    static double[] randomUnit(int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[d];
        double n = 0;
        for (int i = 0; i < d; i++) {
            x[i] = r.nextDouble(-1, 1);
            n += x[i] * x[i];
        }
        for (int i = 0; i < d; i++) {
            x[i] /= Math.sqrt(n);
        }
        return x;
    }

    /** Top eigenvector of the whole stream's Gram (a fixed, data-relevant direction). */
    static double[] topDirection(Rows data) {
        int d = data.d();
        GramAccumulator acc = new GramAccumulator(d);
        double[] chunk = new double[1000 * d];
        for (int s = 0; s < data.n(); s += 1000) {
            int c = Math.min(1000, data.n() - s);
            for (int r = 0; r < c; r++) {
                data.row(s + r, chunk, r * d);
            }
            acc.addRows(chunk, 0, c);
        }
        return LinearAlgebra.eigen(acc.result(), d).topVectors(1);
    }

    static double meanFull(List<Double> v, List<long[]> at, int w) {
        double s = 0;
        int n = 0;
        for (int i = 0; i < v.size(); i++) {
            if (at.get(i)[0] >= w - 1) {
                s += v.get(i);
                n++;
            }
        }
        return s / Math.max(1, n);
    }

    static String timeTable(String name, int b, int w, Map<String, Series> all) {
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT,
                "%n### %s, b = %d (w = %d blocks): ‖Ĉ_W − C_W‖₂ over time (measured / predicted τ√(2d))%n%n| block | rows seen |",
                name, b, w));
        for (String m : all.keySet()) {
            t.append(' ').append(m).append(" |");
        }
        t.append("\n|---|---|").append("---|".repeat(all.size())).append('\n');
        Series first = all.values().iterator().next();
        int n = first.blocksAt().size();
        int step = Math.max(1, n / 12);
        for (int i = 0; i < n; i += step) {
            long[] at = first.blocksAt().get(i);
            t.append(String.format(Locale.ROOT, "| %d | %d |", at[0], at[1]));
            for (Series s : all.values()) {
                t.append(String.format(Locale.ROOT, " %.0f / %.0f |", s.spectral().get(i), s.predicted().get(i)));
            }
            t.append('\n');
        }
        t.append("\nTop-1 alignment |⟨û₁, u₁(C_W)⟩| and top-5 captured variance / optimum at sampled blocks:\n\n| block |");
        for (String m : all.keySet()) {
            t.append(' ').append(m).append(" |");
        }
        t.append("\n|---|").append("---|".repeat(all.size())).append('\n');
        int np = first.pca().size();
        for (int i = 0; i < np; i += Math.max(1, np / 10)) {
            t.append(String.format(Locale.ROOT, "| %.0f |", first.pca().get(i)[0]));
            for (Series s : all.values()) {
                double[] v = s.pca().get(i);
                t.append(String.format(Locale.ROOT, " %.3f, %.4f |", v[2], v[1]));
            }
            t.append('\n');
        }
        if (name.startsWith("synthetic")) {
            t.append("\nTracking the rotation (principal direction e₁ → e₂ at row 30 000): |û₁·e₂| of each estimate "
                    + "and |u₁·e₂| of the exact window:\n\n| block | rows seen | exact |");
            for (String m : all.keySet()) {
                t.append(' ').append(m).append(" |");
            }
            t.append("\n|---|---|---|").append("---|".repeat(all.size())).append('\n');
            for (int i = 0; i < np; i++) {
                double block = first.pca().get(i)[0];
                long rows = (long) (block + 1) * b;
                if (rows < 28_000 || rows > 42_000) {
                    continue;
                }
                t.append(String.format(Locale.ROOT, "| %.0f | %d | %.3f |", block, rows, first.pca().get(i)[4]));
                for (Series s : all.values()) {
                    t.append(String.format(Locale.ROOT, " %.3f |", s.pca().get(i)[3]));
                }
                t.append('\n');
            }
        }
        return t.toString();
    }

    static void plot(String name, int b, Map<String, Series> all, int d) throws Exception {
        XYChart chart = new XYChartBuilder().width(900).height(520)
                .title(String.format(Locale.ROOT, "%s, W = %d, b = %d, ρ = %s: spectral error", name, WINDOW_ROWS, b,
                        RHO))
                .xAxisTitle("rows streamed").yAxisTitle("‖Ĉ_W − C_W‖₂").build();
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        for (Series s : all.values()) {
            double[] x = s.blocksAt().stream().mapToDouble(a -> a[1]).toArray();
            double[] y = s.spectral().stream().mapToDouble(Double::doubleValue).toArray();
            chart.addSeries(s.mechanism(), x, y).setMarker(SeriesMarkers.NONE);
        }
        String file = String.format(Locale.ROOT, "docs/accuracy/windows-%s-b%d",
                d == 784 ? "fashion-mnist" : "synthetic", b);
        Files.createDirectories(Path.of("docs/accuracy"));
        BitmapEncoder.saveBitmap(chart, file, BitmapEncoder.BitmapFormat.PNG);
        if (d != 784) {
            XYChart track = new XYChartBuilder().width(900).height(520)
                    .title(String.format(Locale.ROOT, "Synthetic rotation, W = %d, b = %d, ρ = %s: top direction",
                            WINDOW_ROWS, b, RHO))
                    .xAxisTitle("rows streamed").yAxisTitle("|û₁·e₂|").build();
            track.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
            Series first = all.values().iterator().next();
            track.addSeries("exact window", first.pca().stream().mapToDouble(v -> (v[0] + 1) * b).toArray(),
                    first.pca().stream().mapToDouble(v -> v[4]).toArray()).setMarker(SeriesMarkers.NONE);
            for (Series s : all.values()) {
                track.addSeries(s.mechanism(), s.pca().stream().mapToDouble(v -> (v[0] + 1) * b).toArray(),
                        s.pca().stream().mapToDouble(v -> v[3]).toArray()).setMarker(SeriesMarkers.NONE);
            }
            BitmapEncoder.saveBitmap(track, file + "-tracking", BitmapEncoder.BitmapFormat.PNG);
        }
    }

    /** Fashion-MNIST training images in order, kept as bytes. */
    static Rows fashionMnist() throws Exception {
        int n = 60_000;
        int d = 784;
        byte[] pixels = new byte[n * d];
        FashionMnist.forEachImage(n, (i, px) -> System.arraycopy(px, 0, pixels, i * d, d));
        return new Rows() {
            public int n() {
                return n;
            }

            public int d() {
                return d;
            }

            public void row(int i, double[] out, int offset) {
                double norm = 0;
                for (int c = 0; c < d; c++) {
                    double v = (pixels[i * d + c] & 0xff) / 255.0;
                    out[offset + c] = v;
                    norm += v * v;
                }
                double scale = Math.min(1, 1 / Math.sqrt(norm));
                for (int c = 0; c < d; c++) {
                    out[offset + c] *= scale;
                }
            }
        };
    }

    /**
     * 60 000 rows, d = 50: a_t = z·u + 0.3·ξ/√d (z, ξ standard normal, seeded per row), u = e₁ for the
     * first half and e₂ for the second; rows clipped to norm 1.
     */
    static Rows synthetic() {
        int n = 60_000;
        int d = 50;
        return new Rows() {
            public int n() {
                return n;
            }

            public int d() {
                return d;
            }

            public void row(int i, double[] out, int offset) {
                SplittableRandom r = new SplittableRandom(1_000_003L * i + 17);
                double norm = 0;
                for (int c = 0; c < d; c++) {
                    out[offset + c] = 0.3 * gaussian(r) / Math.sqrt(d);
                }
                out[offset + (i < n / 2 ? 0 : 1)] += 0.7 * gaussian(r);
                for (int c = 0; c < d; c++) {
                    norm += out[offset + c] * out[offset + c];
                }
                double scale = Math.min(1, 1 / Math.sqrt(norm));
                for (int c = 0; c < d; c++) {
                    out[offset + c] *= scale;
                }
            }
        };
    }

    static double gaussian(SplittableRandom r) {
        double u = r.nextDouble();
        double v = r.nextDouble();
        return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
    }

    /**
     * Throughput and sizes at d = 784: rows/s of the block update (batches of 1, 100 and 1 000
     * Fashion-MNIST-sized rows), release latency per block per mechanism (w = 10 and 100, steady
     * state, production-keyed noise), and the state's size against W/b and T.
     */
    @Test
    void throughput() {
        int d = 784;
        StringBuilder out = new StringBuilder();
        out.append("BLAS/LAPACK: ").append(LinearAlgebra.implementation()).append(", ")
                .append(Runtime.getRuntime().availableProcessors()).append(" CPUs\n\n");
        double[] rows = new double[1000 * d];
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < rows.length; i++) {
            rows[i] = r.nextDouble() < 0.5 ? 0 : r.nextDouble() / 20;
        }
        out.append("| block update (append, no release) | rows/s |\n|---|---|\n");
        WindowParameters big = WindowParameters.rows(d, 1, 1_000_000, 10, 1000, AR);
        WindowMechanism blocks = WindowMechanism.forRho(WindowMechanismKind.BLOCKS, big, RHO,
                WindowMechanism.Options.DEFAULT);
        for (int batch : new int[] {1, 100, 1000}) {
            WindowStream s = WindowStream.start(blocks, NoiseSources.newStreamKey());
            double best = 0;
            for (int rep = 0; rep < 3; rep++) {
                int total = batch == 1 ? 2000 : 20_000;
                long t0 = System.nanoTime();
                for (int done = 0; done < total; done += batch) {
                    s.appendRows(Arrays.copyOf(rows, batch * d), batch);
                }
                best = Math.max(best, total / ((System.nanoTime() - t0) / 1e9));
            }
            out.append(String.format(Locale.ROOT, "| batches of %d rows | %.0f |%n", batch, best));
        }

        out.append("\n| mechanism | w | release latency per block: median / max of 8 (s) | releases per block | "
                + "state after the run (MB) | declared max (MB) |\n|---|---|---|---|---|---|\n");
        for (int w : new int[] {10, 100}) {
            for (WindowMechanismKind kind : WindowMechanismKind.values()) {
                WindowParameters p = WindowParameters.rows(d, 1, 1, w, 1_000_000, AR);
                WindowMechanism m = WindowMechanism.forRho(kind, p, RHO, WindowMechanism.Options.DEFAULT);
                byte[] key = NoiseSources.newStreamKey();
                WindowState state = m.initialState();
                double[] block = new double[p.packedSize()];
                int warm = w + 2;
                List<Double> times = new ArrayList<>();
                for (int t = 0; t < warm + 8; t++) {
                    WindowState full = new WindowState(state.mechanism(), d, state.completedBlocks(), 1, block,
                            state.secret(), state.published());
                    long t0 = System.nanoTime();
                    state = m.release(full, key).next();
                    if (t >= warm) {
                        times.add((System.nanoTime() - t0) / 1e9);
                    }
                }
                times.sort(null);
                out.append(String.format(Locale.ROOT, "| %s | %d | %.3f / %.3f | %s | %.0f | %.0f |%n", kind, w,
                        times.get(times.size() / 2), times.get(times.size() - 1),
                        kind == WindowMechanismKind.DYADIC_TREE ? "1 to " + m.releasesPerRow() + " (2 on average)" : "1",
                        state.doubles() * 8 / 1e6, m.maxStateBytes() / 1e6));
            }
        }

        out.append("\n| d | w = W/b | T (blocks) | BLOCKS (MB) | DYADIC_TREE (MB) | FACTORIZATION (MB) |\n|---|---|---|---|---|---|\n");
        for (int dd : new int[] {50, 784}) {
            for (int w : new int[] {10, 100, 1000}) {
                for (long horizon : new long[] {1000, 1_000_000}) {
                    WindowParameters p = WindowParameters.rows(dd, 1, 1, w, horizon, AR);
                    out.append(String.format(Locale.ROOT, "| %d | %d | %d |", dd, w, horizon));
                    for (WindowMechanismKind kind : WindowMechanismKind.values()) {
                        WindowMechanism m = WindowMechanism.forRho(kind, p, RHO, WindowMechanism.Options.DEFAULT);
                        out.append(String.format(Locale.ROOT, " %.1f |", m.maxStateBytes() / 1e6));
                    }
                    out.append('\n');
                }
            }
        }
        System.out.println(out);
        try {
            Path report = Path.of("target/benchmarks/windows-throughput.md");
            Files.createDirectories(report.getParent());
            Files.writeString(report, out.toString());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
