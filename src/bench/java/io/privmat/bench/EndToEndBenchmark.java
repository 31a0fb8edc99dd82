package io.privmat.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.config.NativeBlas;
import io.privmat.support.ApiTest;
import io.privmat.support.FashionMnist;
import io.privmat.support.Python;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * Whole queries through the service against numpy doing the same work on the same file, measured
 * in the same run (issue 21's table): Fashion-MNIST 60 000 × 784 uploaded once as float64 .npy
 * (rows clipped to norm 1), then PCA with ANALYZE_GAUSS (k = 10, ε = 1, δ = 1e-6) — the first ten
 * jobs after start one after another (cold), then rounds alternating a job with numpy
 * (src/bench/python/end_to_end_numpy.py: load + clip + Gram + noise + eigh) — and LOW_RANK with
 * RANDOMIZED_RESPONSE (k = 10) alternating with numpy's input perturbation by the same Gram route.
 * A job is timed from the submit to its result document received (status polled every 20 ms); the
 * numpy round from before its load to its result (the interpreter's start excluded).
 *
 * <p>Run: {@code ./mvnw test -Pbenchmark -Dtest=EndToEndBenchmark}; the backend the service uses
 * is printed (with system OpenBLAS installed the service uses it; {@code PRIVMAT_BLAS_BACKEND=bundled}
 * makes it load the OpenBLAS from its jar, as on a fresh machine; numpy always uses its own).
 * {@code -Dprivmat.bench.rounds=…} changes the alternating rounds (default 5 PCA, 3 RR). Each of the
 * first ten jobs is also split by its own timestamps (queued, running, and the rest: submit, polling
 * and the result's download). {@code -Dprivmat.bench.vacuum=true} runs {@code VACUUM data_chunk}
 * after the upload (the first reads then find the hint bits set). Writes
 * target/benchmarks/end-to-end.txt.
 */
@Tag("benchmark")
@TestPropertySource(properties = "privmat.embedded-postgres.database=bench_end_to_end")
class EndToEndBenchmark extends ApiTest {

    private static final int ROWS = 60_000;
    private static final String PCA = "{\"kind\":\"PCA\",\"mechanism\":\"ANALYZE_GAUSS\",\"epsilon\":1,"
            + "\"delta\":1e-6,\"params\":{\"k\":10}}";
    private static final String RR = "{\"kind\":\"LOW_RANK\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"epsilon\":1,"
            + "\"delta\":1e-6,\"params\":{\"k\":10}}";

    /** Each job's time split by the job's own timestamps, in submission order. */
    private final List<String> phases = new ArrayList<>();

    @Test
    void endToEnd() throws Exception {
        Assumptions.assumeTrue(FashionMnist.available(), "Fashion-MNIST is not installed");
        Python.assumeAvailable();
        int rounds = Integer.getInteger("privmat.bench.rounds", 5);
        StringBuilder report = new StringBuilder();
        Path npy = FashionMnistUploadBenchmark.writeNpy(ROWS).toAbsolutePath();
        NativeBlas.Selection blas = NativeBlas.status();
        report.append(String.format(Locale.ROOT, "%d cores; BLAS: %s; load average before: %s%n",
                Runtime.getRuntime().availableProcessors(), blas, GramKernelBenchmark.loadAverage()));
        Response created = postJson("/v1/datasets", "{\"name\":\"fmnist\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"REPLACE_ONE\",\"budget\":{\"epsilon\":100,\"delta\":1e-6}}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        long start = System.nanoTime();
        Response up = send(HttpRequest.newBuilder(uri("/v1/datasets/" + id + "/data"))
                .header("Content-Type", "application/x-npy").PUT(HttpRequest.BodyPublishers.ofFile(npy)));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        report.append(String.format(Locale.ROOT, "upload of %s (%.1f MB): %.2f s%n", npy.getFileName(),
                Files.size(npy) / 1e6, seconds(start)));

        if (Boolean.getBoolean("privmat.bench.vacuum")) {
            long v = System.nanoTime();
            jdbc.execute("VACUUM data_chunk");
            report.append(String.format(Locale.ROOT, "VACUUM data_chunk after the upload: %.2f s%n", seconds(v)));
        }
        List<Double> cold = new ArrayList<>();
        for (int j = 0; j < 10; j++) {
            cold.add(job(id, PCA));
        }
        for (int j = 0; j < cold.size(); j++) {
            report.append("  job ").append(j + 1).append(": ").append(phases.get(j)).append('\n');
        }
        List<Double> pca = new ArrayList<>();
        List<Double> pcaNumpy = new ArrayList<>();
        numpy("pca", npy); // warm-up: page cache, numpy's import
        for (int r = 0; r < rounds; r++) {
            pca.add(job(id, PCA));
            pcaNumpy.add(numpy("pca", npy));
        }
        List<Double> rr = new ArrayList<>();
        List<Double> rrNumpy = new ArrayList<>();
        job(id, RR); // warm-up
        for (int r = 0; r < Math.max(1, rounds * 3 / 5); r++) {
            rr.add(job(id, RR));
            rrNumpy.add(numpy("rr", npy));
        }
        report.append("PCA ANALYZE_GAUSS, jobs 1-10 after start (s): ").append(list(cold)).append('\n');
        line(report, "PCA ANALYZE_GAUSS through the service, warm", pca);
        line(report, "numpy: load + clip + Gram + noise + eigh", pcaNumpy);
        line(report, "LOW_RANK RANDOMIZED_RESPONSE through the service", rr);
        line(report, "numpy: load + clip + noise + Gram + eigh + U", rrNumpy);
        report.append(String.format(Locale.ROOT, "ratios of medians against numpy: PCA warm %.2f, PCA cold (jobs 1-10) "
                        + "%.2f (slowest cold job %.2f), RANDOMIZED_RESPONSE %.2f%n",
                BenchStats.median(pca) / BenchStats.median(pcaNumpy), BenchStats.median(cold) / BenchStats.median(pcaNumpy),
                cold.stream().mapToDouble(Double::doubleValue).max().orElseThrow() / BenchStats.median(pcaNumpy),
                BenchStats.median(rr) / BenchStats.median(rrNumpy)));
        report.append("load average after: ").append(GramKernelBenchmark.loadAverage()).append('\n');
        System.out.println(report);
        Path out = Path.of("target/benchmarks/end-to-end.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
    }

    /** One query, submit → result document received, in seconds. */
    private double job(String dataset, String query) {
        long start = System.nanoTime();
        Response submitted = postJson("/v1/datasets/" + dataset + "/queries", query);
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        String job = submitted.json().get("id").asString();
        long deadline = start + Duration.ofMinutes(10).toNanos();
        String state;
        tools.jackson.databind.JsonNode view;
        do {
            assertThat(System.nanoTime()).as("job %s unfinished after 10 minutes", job).isLessThan(deadline);
            pause();
            view = get("/v1/jobs/" + job).json();
            state = view.get("state").asString();
        } while (!state.equals("DONE") && !state.equals("FAILED") && !state.equals("CANCELLED"));
        long seen = System.nanoTime();
        assertThat(state).as(job).isEqualTo("DONE");
        Response result = get("/v1/jobs/" + job + "/result");
        double s = seconds(start);
        assertThat(result.status()).as(result.toString()).isEqualTo(200);
        Instant created = Instant.parse(view.get("createdAt").asString());
        Instant started = Instant.parse(view.get("startedAt").asString());
        Instant finished = Instant.parse(view.get("finishedAt").asString());
        phases.add(String.format(Locale.ROOT, "%.2f s = queued %d ms + run %d ms + rest %d ms (of which the result %d ms)",
                s, Duration.between(created, started).toMillis(), Duration.between(started, finished).toMillis(),
                Math.round(s * 1000) - Duration.between(created, finished).toMillis(),
                Math.round((System.nanoTime() - seen) / 1e6)));
        return s;
    }

    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static double numpy(String mode, Path npy) {
        Python.Run run = Python.run(Path.of("src/bench/python"), Map.of(), Duration.ofMinutes(5),
                "end_to_end_numpy.py", mode, npy.toString(), "10", "5");
        assertThat(run.exitCode()).as(run.output()).isZero();
        String line = run.output().lines().filter(l -> l.startsWith("seconds ")).findFirst().orElseThrow();
        return Double.parseDouble(line.substring("seconds ".length()).trim());
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    private static String list(List<Double> times) {
        return times.stream().map(t -> String.format(Locale.ROOT, "%.2f", t)).toList().toString();
    }

    private static void line(StringBuilder report, String label, List<Double> times) {
        double[] sorted = times.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        report.append(String.format(Locale.ROOT, "%-50s median %.3f s, all %s%n", label, BenchStats.median(times),
                Arrays.toString(sorted)));
    }

}
