package io.privmat.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.sketch.JlParameters;
import io.privmat.support.ApiTest;
import io.privmat.support.DebianGraph;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
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
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Cut queries on the Debian package dependency graph through the service: upload, SKETCH job
 * (time, heap), cut answers over HTTP (queries/s), relative error against the exact cuts, and the
 * Laplace baseline that answers each of Q cuts with budget ε/Q. Run:
 * {@code ./mvnw test -Pbenchmark -Dtest=CutsAccuracyBenchmark} (after apt-get update).
 */
@Tag("benchmark")
@TestPropertySource(properties = {"privmat.embedded-postgres.database=bench_cuts",
        "privmat.security.max-json-body=256MB"})
class CutsAccuracyBenchmark extends ApiTest {

    private static final double[] EPSILONS = {0.5, 1, 2};
    private static final int[] SIZES = {10, 100, 1000, 10000};
    private static final int SETS = 200;
    private static final double ETA = 0.3;
    private static final double NU = 0.05;

    @Test
    void debianDependencyGraph() throws Exception {
        Assumptions.assumeFalse(DebianGraph.lists().isEmpty(), "no apt lists: run apt-get update");
        DebianGraph.Graph g = DebianGraph.load();
        int n = g.vertices();
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Debian dependency graph: %d vertices (isolated packages excluded), "
                + "%d edges%n%n", n, g.edges()));
        StringBuilder csv = new StringBuilder();
        for (int i = 0; i < g.edges(); i++) {
            csv.append(g.labels().get(g.u()[i])).append(',').append(g.labels().get(g.v()[i])).append('\n');
        }
        // The vertex universe is declared: every package name of the lists (about 1.2 MB of JSON).
        String dataset = postJson("/v1/datasets", "{\"name\":\"debian\",\"kind\":\"GRAPH\",\"vertices\":"
                + vertices(g.labels().toArray(String[]::new)) + ","
                + "\"budget\":{\"epsilon\":20,\"delta\":1e-4,\"accounting\":\"BASIC\"}}").json().get("id").asString();
        long t0 = System.nanoTime();
        Response up = put("/v1/datasets/" + dataset + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        out.append(String.format(Locale.ROOT, "Upload of the %.1f MB edge list: %.2f s%n%n", csv.length() / 1e6,
                (System.nanoTime() - t0) / 1e9));

        // Random query sets per size, and their exact cuts.
        SplittableRandom random = new SplittableRandom(42);
        Map<Integer, List<int[]>> sets = new LinkedHashMap<>();
        Map<Integer, double[]> truth = new LinkedHashMap<>();
        for (int s : SIZES) {
            List<int[]> list = new ArrayList<>();
            double[] cuts = new double[SETS];
            for (int q = 0; q < SETS; q++) {
                int[] set = random.ints(0, n).distinct().limit(s).toArray();
                boolean[] in = new boolean[n];
                for (int v : set) {
                    in[v] = true;
                }
                double cut = 0;
                for (int e = 0; e < g.edges(); e++) {
                    if (in[g.u()[e]] != in[g.v()[e]]) {
                        cut++;
                    }
                }
                list.add(set);
                cuts[q] = cut;
            }
            sets.put(s, list);
            truth.put(s, cuts);
        }

        out.append("| ε | r | w | sketch job (created → done) | peak heap during the job | cut answers/s (HTTP, batches of 100) |\n|---|---|---|---|---|---|\n");
        Map<Double, Map<Integer, double[]>> errors = new LinkedHashMap<>();
        StringBuilder throughput = new StringBuilder("\n| ε | |S| | cut answers/s (HTTP, batches of 100, parsing included) |\n|---|---|---|\n");
        StringBuilder accuracy = new StringBuilder("\n| ε | |S| | median cut | median relative error | 90th pct relative error | "
                + "interval coverage |\n|---|---|---|---|---|---|\n");
        for (double eps : EPSILONS) {
            resetPeaks();
            Response submitted = postJson("/v1/datasets/" + dataset + "/queries", String.format(Locale.ROOT,
                    "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":%s,\"delta\":1e-6,\"params\":{\"eta\":%s,\"nu\":%s}}",
                    eps, ETA, NU));
            assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
            String job = submitted.json().get("id").asString();
            JsonNode done = awaitJobLong(job);
            assertThat(done.get("state").asString()).isEqualTo("DONE");
            double jobSeconds = jdbc.queryForObject("SELECT extract(epoch FROM finished_at - created_at) FROM job "
                    + "WHERE id = ?::uuid", Double.class, job);
            long heap = peakHeap();
            JsonNode result = get("/v1/jobs/" + job + "/result").json();
            String release = result.get("releaseId").asString();
            JsonNode meta = result.get("meta");
            // First query loads the sketch and the label index into the cache: timed separately.
            long cold = System.nanoTime();
            assertThat(postJson("/v1/releases/" + release + "/cuts", "{\"sets\":[[\"" + g.labels().get(0) + "\"]]}")
                    .status()).isEqualTo(200);
            throughput.append(String.format(Locale.ROOT, "| %s | first query (loads the %d MB sketch) | %.2f s |%n", eps,
                    (long) meta.get("r").asInt() * n * 4 / 1_000_000, (System.nanoTime() - cold) / 1e9));
            Map<Integer, double[]> relErr = new LinkedHashMap<>();
            long answered = 0;
            long queryNanos = 0;
            for (int s : SIZES) {
                long sizeNanos = 0;
                List<int[]> list = sets.get(s);
                double[] est = new double[SETS];
                double[] lo = new double[SETS];
                double[] hi = new double[SETS];
                for (int from = 0; from < SETS; from += 100) {
                    StringBuilder body = new StringBuilder("{\"sets\":[");
                    for (int q = from; q < from + 100; q++) {
                        body.append(q == from ? "[" : ",[");
                        int[] set = list.get(q);
                        for (int i = 0; i < set.length; i++) {
                            body.append(i == 0 ? "\"" : ",\"").append(g.labels().get(set[i])).append('"');
                        }
                        body.append(']');
                    }
                    body.append("]}");
                    long q0 = System.nanoTime();
                    Response r = postJson("/v1/releases/" + release + "/cuts", body.toString());
                    queryNanos += System.nanoTime() - q0;
                    sizeNanos += System.nanoTime() - q0;
                    assertThat(r.status()).as(r.toString()).isEqualTo(200);
                    JsonNode answers = r.json().get("answers");
                    for (int q = from; q < from + 100; q++) {
                        JsonNode a = answers.get(q - from);
                        est[q] = a.get("estimate").asDouble();
                        lo[q] = a.get("lower").asDouble();
                        hi[q] = a.get("upper").asDouble();
                    }
                    answered += 100;
                }
                throughput.append(String.format(Locale.ROOT, "| %s | %d | %.0f |%n", eps, s, SETS / (sizeNanos / 1e9)));
                double[] t = truth.get(s);
                double[] rel = new double[SETS];
                int covered = 0;
                for (int q = 0; q < SETS; q++) {
                    rel[q] = Math.abs(est[q] - t[q]) / Math.max(1, t[q]);
                    if (lo[q] <= t[q] && t[q] <= hi[q]) {
                        covered++;
                    }
                }
                relErr.put(s, rel);
                accuracy.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.3g | %.3g | %.2f |%n", eps, s,
                        percentile(t, 0.5), percentile(rel, 0.5), percentile(rel, 0.9), covered / (double) SETS));
            }
            errors.put(eps, relErr);
            out.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.2f s | %d MiB | %.0f |%n", eps,
                    meta.get("r").asInt(), meta.get("floor").asDouble(), jobSeconds, heap >> 20,
                    answered / (queryNanos / 1e9)));
        }
        out.append(accuracy).append(throughput);

        // Laplace baseline: Q cut queries, each with ε/Q (basic composition, pure ε-DP: δ = 0), sensitivity 1.
        out.append("\nLaplace baseline at the same total ε: each of Q cuts gets Lap(Q/ε), median |error| = "
                + "ln 2·Q/ε. Median relative error (median over the same 200 sets of (ln 2·Q/ε)/Φ(S)):\n\n"
                + "| ε | |S| | sketch (any Q) | Laplace Q = 10 | Q = 100 | Q = 1 000 | Q = 10 000 | crossover Q |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (double eps : EPSILONS) {
            for (int s : SIZES) {
                double sketch = percentile(errors.get(eps).get(s), 0.5);
                double[] t = truth.get(s);
                double medianInverse = percentile(Arrays.stream(t).map(x -> 1 / Math.max(1, x)).toArray(), 0.5);
                double[] lap = new double[4];
                for (int i = 0; i < 4; i++) {
                    lap[i] = Math.log(2) * Math.pow(10, i + 1) / eps * medianInverse;
                }
                double crossover = sketch / (Math.log(2) / eps * medianInverse);
                out.append(String.format(Locale.ROOT, "| %s | %d | %.3g | %.3g | %.3g | %.3g | %.3g | %.0f |%n", eps, s,
                        sketch, lap[0], lap[1], lap[2], lap[3], crossover));
            }
        }
        // Where the method stops applying: the overlay weight w must not exceed n.
        out.append("\nOverlay weight w (the graph needs n ≥ w) at δ = 1e-6, ν = 0.05:\n\n| ε | η = 0.1 | η = 0.3 | η = 0.5 |\n|---|---|---|---|\n");
        for (double eps : new double[] {0.1, 0.5, 1, 2, 5, 10}) {
            out.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f |%n", eps,
                    JlParameters.of(eps, 1e-6, 0.1, NU, 2).floor(), JlParameters.of(eps, 1e-6, 0.3, NU, 2).floor(),
                    JlParameters.of(Math.min(eps, 10), 1e-6, 0.5, NU, 2).floor()));
        }
        plot(errors, truth);
        System.out.println(out);
        Path report = Path.of("target/benchmarks/cuts.md");
        Files.createDirectories(report.getParent());
        Files.writeString(report, out.toString());
    }

    private JsonNode awaitJobLong(String job) throws InterruptedException {
        long deadline = System.nanoTime() + 600_000_000_000L;
        while (System.nanoTime() < deadline) {
            JsonNode j = get("/v1/jobs/" + job).json();
            String state = j.get("state").asString();
            if (!state.equals("QUEUED") && !state.equals("RUNNING")) {
                return j;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("sketch job did not finish");
    }

    private static void plot(Map<Double, Map<Integer, double[]>> errors, Map<Integer, double[]> truth) throws Exception {
        XYChart chart = new XYChartBuilder().width(900).height(560)
                .title("Cut queries on the Debian dependency graph (ε = 1, δ = 1e-6): sketch vs Laplace")
                .xAxisTitle("number of cut queries Q").yAxisTitle("median relative error").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        double[] q = {1, 10, 100, 1000, 10000, 100000};
        for (int s : new int[] {100, 1000}) {
            double sketch = percentile(errors.get(1.0).get(s), 0.5);
            double medianInverse = percentile(Arrays.stream(truth.get(s)).map(x -> 1 / Math.max(1, x)).toArray(), 0.5);
            double[] sk = new double[q.length];
            double[] lap = new double[q.length];
            for (int i = 0; i < q.length; i++) {
                sk[i] = sketch;
                lap[i] = Math.log(2) * q[i] * medianInverse;
            }
            chart.addSeries("JL sketch, |S| = " + s, q, sk).setMarker(SeriesMarkers.CIRCLE);
            chart.addSeries("Laplace ε/Q per query, |S| = " + s, q, lap).setMarker(SeriesMarkers.DIAMOND);
        }
        Files.createDirectories(Path.of("docs/accuracy"));
        BitmapEncoder.saveBitmap(chart, "docs/accuracy/cuts-sketch-vs-laplace", BitmapEncoder.BitmapFormat.PNG);
        XYChart bySize = new XYChartBuilder().width(900).height(560)
                .title("JL sketch: median relative cut error by |S| (Debian dependency graph, δ = 1e-6)")
                .xAxisTitle("|S|").yAxisTitle("median relative error").build();
        bySize.getStyler().setXAxisLogarithmic(true);
        bySize.getStyler().setYAxisLogarithmic(true);
        bySize.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        for (var e : errors.entrySet()) {
            double[] x = Arrays.stream(SIZES).asDoubleStream().toArray();
            double[] y = Arrays.stream(SIZES).mapToDouble(s -> percentile(e.getValue().get(s), 0.5)).toArray();
            bySize.addSeries("ε = " + e.getKey(), x, y).setMarker(SeriesMarkers.CIRCLE);
        }
        BitmapEncoder.saveBitmap(bySize, "docs/accuracy/cuts-error-by-size", BitmapEncoder.BitmapFormat.PNG);
    }

    private static double percentile(double[] values, double p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * (sorted.length - 1)))];
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    private static long peakHeap() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
