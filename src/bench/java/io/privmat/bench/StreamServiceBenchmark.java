package io.privmat.bench;

import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.window.WindowDefinition;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.window.WindowMechanism;
import io.privmat.plan.PlanDocuments;
import io.privmat.stream.StreamService;
import io.privmat.support.ApiTest;
import io.privmat.support.FashionMnist;
import io.privmat.support.Npy;
import java.net.http.HttpRequest;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Streams through the service (docs/benchmarks.md, "Streams"): append throughput in rows/s at d = 784
 * over HTTP (.npy and CSV batches, with 0 and 1 subscriptions), release latency per completed block
 * for each window mechanism (w = 10 and 100; warm and cold state cache), and the PostgreSQL state
 * of a subscription against W and T (stored slot bytes against the mechanism's declared bound). Rows
 * are Fashion-MNIST images (pixels ÷ 255, clipped to norm 1 by the service) when installed, else
 * seeded synthetic rows. Run: {@code ./mvnw -o test -Pbenchmark -Dtest=StreamServiceBenchmark}.
 * Writes target/benchmarks/streams.md.
 */
@Tag("benchmark")
class StreamServiceBenchmark extends ApiTest {

    static final int D = 784;

    @Autowired
    StreamService streams;

    private final StringBuilder out = new StringBuilder();
    private double[] rows;

    /** 20 000 rows of width 784. */
    private double[] rows() throws Exception {
        if (rows != null) {
            return rows;
        }
        int n = 20_000;
        rows = new double[n * D];
        if (FashionMnist.available()) {
            FashionMnist.forEachImage(n, (i, pixels) -> {
                for (int c = 0; c < D; c++) {
                    rows[i * D + c] = (pixels[c] & 0xFF) / 255.0;
                }
            });
            out.append("Rows: Fashion-MNIST training images (pixels ÷ 255; the service clips them to norm 1).\n\n");
        } else {
            SplittableRandom r = new SplittableRandom(1);
            for (int i = 0; i < rows.length; i++) {
                rows[i] = r.nextDouble() < 0.5 ? 0 : r.nextDouble() / 20;
            }
            out.append("Rows: synthetic (Fashion-MNIST not installed).\n\n");
        }
        return rows;
    }

    private String stream(int d, int blockRows, int window, long horizon) {
        Response r = postJson("/v1/datasets", "{\"name\":\"bench\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"REPLACE_ONE\",\"stream\":{\"columns\":" + d + ",\"blockRows\":" + blockRows
                + ",\"windowBlocks\":" + window + ",\"horizonBlocks\":" + horizon + "},\"budget\":{\"epsilon\":100,"
                + "\"delta\":1e-6}}");
        if (r.status() != 201) {
            throw new AssertionError(r.toString());
        }
        return r.json().get("id").asString();
    }

    private String subscribe(String dataset, String mechanism) {
        Response r = postJson("/v1/datasets/" + dataset + "/subscriptions", "{\"kind\":\"SKETCH\",\"mechanism\":\""
                + mechanism + "\",\"rho\":0.1}");
        if (r.status() != 201) {
            throw new AssertionError(r.toString());
        }
        return r.json().get("id").asString();
    }

    private static byte[] npy(double[] values, int from, int count, int d) {
        return Npy.bytes("<f8", "(" + count + ", " + d + ")", false, ByteOrder.LITTLE_ENDIAN, 8,
                Arrays.copyOfRange(values, from * d, (from + count) * d));
    }

    private Response append(String dataset, String contentType, byte[] body) {
        Response r = send(HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/rows")).header("Content-Type",
                contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)));
        if (r.status() != 200) {
            throw new AssertionError(r.toString());
        }
        return r;
    }

    @Test
    void streams() throws Exception {
        out.append("BLAS/LAPACK: ").append(LinearAlgebra.implementation()).append(", ")
                .append(Runtime.getRuntime().availableProcessors()).append(" CPUs, embedded PostgreSQL\n\n");
        throughput();
        latency();
        stateSize();
        System.out.println(out);
        Path report = Path.of("target/benchmarks/streams.md");
        Files.createDirectories(report.getParent());
        Files.writeString(report, out.toString());
    }

    /** Rows/s through POST /rows at d = 784: the whole request (transfer, parse, clip, Gram update, commit). */
    private void throughput() throws Exception {
        double[] x = rows();
        out.append("| append throughput, d = 784 | batch (rows) | subscriptions | rows/s (best of 2) |\n|---|---|---|---|\n");
        for (String format : List.of("npy", "csv")) {
            for (int batch : format.equals("npy") ? new int[] {100, 1000, 5000} : new int[] {1000}) {
                for (int subscriptions : new int[] {0, 1}) {
                    // Blocks of 10 000 rows: a 20 000-row run completes two blocks (their releases included).
                    String id = stream(D, 10_000, 10, 1_000_000);
                    if (subscriptions == 1) {
                        subscribe(id, "FACTORIZATION");
                    }
                    List<byte[]> bodies = new ArrayList<>();
                    for (int from = 0; from + batch <= 10_000; from += batch) {
                        bodies.add(format.equals("npy") ? npy(x, from, batch, D) : csv(x, from, batch));
                    }
                    double best = 0;
                    for (int rep = 0; rep < 2; rep++) {
                        long t0 = System.nanoTime();
                        for (byte[] body : bodies) {
                            append(id, format.equals("npy") ? "application/x-npy" : "text/csv", body);
                        }
                        best = Math.max(best, 10_000 / ((System.nanoTime() - t0) / 1e9));
                    }
                    out.append(String.format(Locale.ROOT, "| %s | %d | %d | %.0f |%n", format, batch, subscriptions,
                            best));
                }
            }
        }
        out.append('\n');
    }

    private static byte[] csv(double[] x, int from, int count) {
        StringBuilder s = new StringBuilder(count * D * 8);
        for (int i = from; i < from + count; i++) {
            for (int c = 0; c < D; c++) {
                if (c > 0) {
                    s.append(',');
                }
                double v = x[i * D + c];
                s.append(v == 0 ? "0" : Double.toString(v));
            }
            s.append('\n');
        }
        return s.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * The extra time of an append that completes a block (b = 100 rows, d = 784) over one that does
     * not: the release through one subscription (noise, window sum, slots written, release stored),
     * after w + 2 warm-up blocks; and the same with the state cache dropped (slots read back).
     */
    private void latency() throws Exception {
        double[] x = rows();
        int b = 100;
        out.append("| mechanism | w | append of 50 rows, no block completes (s) | append completing a block: median "
                + "/ max of 6 (s) | same, state read from PostgreSQL (s) | slots stored (MB) |\n|---|---|---|---|---|---|\n");
        for (int w : new int[] {10, 100}) {
            for (String mechanism : List.of("BLOCKS", "DYADIC_TREE", "FACTORIZATION")) {
                String id = stream(D, b, w, 1_000_000);
                String sub = subscribe(id, mechanism);
                byte[] half = npy(x, 0, b / 2, D);
                int warm = w + 2;
                List<Double> completing = new ArrayList<>();
                List<Double> partial = new ArrayList<>();
                for (int t = 0; t < warm + 6; t++) {
                    byte[] body = npy(x, (t * b) % 19_000, b, D);
                    if (t >= warm) {
                        long t0 = System.nanoTime();
                        append(id, "application/x-npy", half);
                        partial.add((System.nanoTime() - t0) / 1e9);
                        long t1 = System.nanoTime();
                        append(id, "application/x-npy", half);
                        completing.add((System.nanoTime() - t1) / 1e9);
                    } else {
                        append(id, "application/x-npy", body);
                    }
                }
                streams.clearCaches();
                append(id, "application/x-npy", half);
                long t0 = System.nanoTime();
                append(id, "application/x-npy", half);
                double cold = (System.nanoTime() - t0) / 1e9;
                completing.sort(null);
                partial.sort(null);
                out.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.3f / %.3f | %.3f | %.0f |%n", mechanism, w,
                        partial.get(partial.size() / 2), completing.get(completing.size() / 2),
                        completing.get(completing.size() - 1), cold, slotBytes(sub) / 1e6));
            }
        }
        out.append('\n');
    }

    private long slotBytes(String subscription) {
        Long n = jdbc.queryForObject("SELECT coalesce(sum(octet_length(payload)), 0) FROM subscription_slot "
                + "WHERE subscription_id = ?", Long.class, UUID.fromString(subscription));
        return n == null ? 0 : n;
    }

    /**
     * A subscription's stored state (bytes of slot payloads in PostgreSQL, and the rows they take with
     * TOAST) after T blocks, against W = w blocks and the mechanism's declared bound; d = 100, one row
     * per block (the state does not depend on b), plus the stream's open block d(d+1)/2·8 bytes.
     */
    private void stateSize() throws Exception {
        int d = 100;
        out.append("| d | w | T (blocks) | mechanism | slots | stored (MB) | on disk with TOAST (MB) | declared max "
                + "(MB) |\n|---|---|---|---|---|---|---|---|\n");
        SplittableRandom r = new SplittableRandom(3);
        for (int w : new int[] {10, 100}) {
            for (String mechanism : List.of("BLOCKS", "DYADIC_TREE", "FACTORIZATION")) {
                String id = stream(d, 1, w, 1_000_000);
                String sub = subscribe(id, mechanism);
                long done = 0;
                for (long horizon : new long[] {w / 2, w, 4L * w, 16L * w}) {
                    int add = (int) (horizon - done);
                    double[] batch = new double[add * d];
                    for (int i = 0; i < batch.length; i++) {
                        batch[i] = r.nextDouble(-0.1, 0.1);
                    }
                    append(id, "application/x-npy", Npy.bytes("<f8", "(" + add + ", " + d + ")", false,
                            ByteOrder.LITTLE_ENDIAN, 8, batch));
                    done = horizon;
                    long slots = jdbc.queryForObject("SELECT count(*) FROM subscription_slot WHERE subscription_id = ?",
                            Long.class, UUID.fromString(sub));
                    long disk = jdbc.queryForObject("SELECT coalesce(sum(pg_column_size(s.*)), 0) FROM subscription_slot s "
                            + "WHERE subscription_id = ?", Long.class, UUID.fromString(sub));
                    out.append(String.format(Locale.ROOT, "| %d | %d | %d | %s | %d | %.2f | %.2f | %.2f |%n", d, w,
                            horizon, mechanism, slots, slotBytes(sub) / 1e6, disk / 1e6, declaredMax(sub) / 1e6));
                }
            }
        }
        out.append(String.format(Locale.ROOT, "%nThe stream's open block at d = %d: %.2f MB; at d = 784: %.2f MB.%n",
                d, d * (d + 1) / 2 * 8 / 1e6, D * (D + 1) / 2 * 8 / 1e6));
    }

    private long declaredMax(String subscription) {
        String spec = jdbc.queryForObject("SELECT spec::text FROM subscription WHERE id = ?", String.class,
                UUID.fromString(subscription));
        MechanismCatalog catalog = MechanismCatalog.standard();
        WindowMechanism m = WindowDefinition.mechanism(catalog, new PlanDocuments(catalog).rebuild(spec).spec());
        return m.maxStateBytes();
    }
}
