package io.privmat.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.ingest.IngestStages;
import io.privmat.dataset.storage.DatasetRepository;
import io.privmat.support.ApiTest;
import io.privmat.support.FashionMnist;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Upload throughput benchmark (not a timed test: it prints numbers and asserts only correctness).
 * Run: {@code ./mvnw test -Pbenchmark -Dtest=FashionMnistUploadBenchmark} (needs the Debian package
 * dataset-fashion-mnist; {@code -Dprivmat.bench.rows=…} and {@code -Dprivmat.bench.rounds=…} change
 * the size and the number of measured rounds). Writes the training images once under target/bench/
 * as CSV and as float64 .npy, then, per round after a warm-up round: the stages one at a time (the
 * file read from disk, the same CSV through {@code Double.parseDouble}, parsing, parsing with
 * clipping and chunk encoding, the PostgreSQL write of as many 4 MiB chunks, rolled back) and the
 * end-to-end uploads through HTTP. Prints every round, the medians, the ratios against the disk
 * read measured in the same run, the heap (the peak of all pools during an upload, and the
 * largest live set after a GC, which should not grow with the file) and the load average.
 */
@Tag("benchmark")
class FashionMnistUploadBenchmark extends ApiTest {

    private static final int COLS = 784;

    @Autowired
    DatasetRepository repository;

    @Autowired
    PlatformTransactionManager transactions;

    private final Map<String, List<Double>> seconds = new LinkedHashMap<>();
    private final Map<String, Double> megabytes = new LinkedHashMap<>();
    private final StringBuilder report = new StringBuilder();

    @Test
    void uploadFashionMnist() throws Exception {
        Assumptions.assumeTrue(FashionMnist.available(), "dataset-fashion-mnist is not installed");
        int rows = Integer.getInteger("privmat.bench.rows", 60_000);
        int rounds = Integer.getInteger("privmat.bench.rounds", 3);
        Path csv = writeCsv(rows);
        Path npy = writeNpy(rows);
        double csvMb = Files.size(csv) / 1e6;
        double npyMb = Files.size(npy) / 1e6;
        int chunks = (int) Math.ceil(rows * (double) COLS * 8 / (4 << 20));
        report.append(String.format(Locale.ROOT, "JVM max heap %d MiB, %d cores, load average before: %s%n"
                        + "%d rows x %d: CSV %.1f MB, .npy %.1f MB; %d chunks of 4 MiB%n",
                Runtime.getRuntime().maxMemory() >> 20, Runtime.getRuntime().availableProcessors(), loadAverage(),
                rows, COLS, csvMb, npyMb, chunks));
        for (int round = 0; round <= rounds; round++) {
            boolean warmUp = round == 0;
            report.append(warmUp ? "warm-up round\n" : "round " + round + "\n");
            stage(warmUp, "disk read CSV", csvMb, () -> IngestStages.readBytes(csv));
            stage(warmUp, "disk read .npy", npyMb, () -> IngestStages.readBytes(npy));
            stage(warmUp, "Double.parseDouble of the CSV fields", csvMb, () -> IngestStages.jdkParse(csv));
            stage(warmUp, "parse CSV", csvMb, () -> IngestStages.parse(csv, false));
            stage(warmUp, "parse + clip + encode CSV", csvMb, () -> IngestStages.parseClipEncode(csv, false));
            stage(warmUp, "parse .npy", npyMb, () -> IngestStages.parse(npy, true));
            stage(warmUp, "parse + clip + encode .npy", npyMb, () -> IngestStages.parseClipEncode(npy, true));
            stage(warmUp, "PostgreSQL write of the chunks", npyMb, () -> writeChunks(chunks));
            upload(warmUp, "upload CSV (HTTP, end to end)", csv, "text/csv", rows);
            upload(warmUp, "upload .npy (HTTP, end to end)", npy, "application/x-npy", rows);
        }
        report.append("load average after: ").append(loadAverage()).append('\n');
        report.append(String.format(Locale.ROOT, "%nmedians of %d rounds%n", rounds));
        for (Map.Entry<String, List<Double>> e : seconds.entrySet()) {
            double median = BenchStats.median(e.getValue());
            report.append(String.format(Locale.ROOT, "%-40s %7.2f s %8.1f MB/s%n", e.getKey(), median,
                    megabytes.get(e.getKey()) / median));
        }
        ratio("upload CSV (HTTP, end to end)", "disk read CSV");
        ratio("upload .npy (HTTP, end to end)", "disk read .npy");
        ratio("parse CSV", "Double.parseDouble of the CSV fields");
        System.out.println(report);
        Path out = Path.of("target/benchmarks/upload.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
    }

    private void stage(boolean warmUp, String name, double mb, LongSupplier work) {
        long start = System.nanoTime();
        long checksum = work.getAsLong();
        record(warmUp, name, mb, (System.nanoTime() - start) / 1e9, " (checksum " + (checksum & 0xff) + ")");
    }

    private void record(boolean warmUp, String name, double mb, double s, String note) {
        String line = String.format(Locale.ROOT, "  %-40s %7.2f s %8.1f MB/s%s%n", name, s, mb / s, note);
        System.out.print(line); // progress: a round takes minutes on a busy machine
        report.append(line);
        megabytes.put(name, mb);
        if (!warmUp) {
            seconds.computeIfAbsent(name, k -> new ArrayList<>()).add(s);
        }
    }

    private void ratio(String name, String reference) {
        report.append(String.format(Locale.ROOT, "%s / %s: %.3f of its speed%n", name, reference,
                BenchStats.median(seconds.get(reference)) / BenchStats.median(seconds.get(name))));
    }


    /** Writes {@code chunks} dense 4 MiB chunks to a new dataset in one transaction, then rolls it back. */
    private long writeChunks(int chunks) {
        UUID id = UUID.fromString(createMatrix(1.0));
        byte[] payload = new byte[4 << 20];
        Arrays.fill(payload, (byte) 0x3f);
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            for (int c = 0; c < chunks; c++) {
                repository.insertChunk(id, c, (long) c * (payload.length / 8 / COLS), payload.length / 8 / COLS, "DENSE",
                        payload.length / 8, payload);
            }
            status.setRollbackOnly();
        });
        delete("/v1/datasets/" + id);
        return chunks;
    }

    private void upload(boolean warmUp, String name, Path file, String contentType, int rows) throws IOException {
        String id = createMatrix(1.0);
        System.gc();
        resetPeaks();
        long start = System.nanoTime();
        Response r = send(HttpRequest.newBuilder(uri("/v1/datasets/" + id + "/data"))
                .header("Content-Type", contentType).PUT(HttpRequest.BodyPublishers.ofFile(file)));
        double s = (System.nanoTime() - start) / 1e9;
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.json().get("rows").asLong()).isEqualTo(rows);
        assertThat(r.json().get("clippedRows").asLong()).isEqualTo(rows);
        long[] heap = heapPeaks();
        delete("/v1/datasets/" + id);
        record(warmUp, name, Files.size(file) / 1e6, s, String.format(Locale.ROOT,
                "; heap peak %d MiB, max live after GC %d MiB", heap[0] >> 20, heap[1] >> 20));
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    /** [sum of heap pool peaks, largest old-generation usage right after a collection]. */
    private static long[] heapPeaks() {
        long peak = 0;
        long live = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
                if (pool.getCollectionUsage() != null && pool.getName().toLowerCase(Locale.ROOT).contains("old")) {
                    live = Math.max(live, pool.getCollectionUsage().getUsed());
                }
            }
        }
        return new long[] {peak, live};
    }

    private static Path writeCsv(int rows) throws IOException {
        Path path = Path.of("target/bench/fashion-mnist-" + rows + ".csv");
        if (Files.exists(path)) {
            return path;
        }
        Files.createDirectories(path.getParent());
        try (BufferedWriter out = Files.newBufferedWriter(path, StandardCharsets.US_ASCII)) {
            for (int c = 0; c < COLS; c++) {
                out.write(c == 0 ? "p0" : ",p" + c);
            }
            out.write('\n');
            String[] scaled = new String[256];
            for (int v = 0; v < 256; v++) {
                scaled[v] = v == 0 ? "0" : Double.toString(v / 255.0);
            }
            FashionMnist.forEachImage(rows, (index, pixels) -> {
                for (int c = 0; c < pixels.length; c++) {
                    if (c > 0) {
                        out.write(',');
                    }
                    out.write(scaled[pixels[c] & 0xff]);
                }
                out.write('\n');
            });
        }
        return path;
    }

    /** The same values as the CSV, as a C-order float64 .npy (format 1.0, little-endian). */
    static Path writeNpy(int rows) throws IOException {
        Path path = Path.of("target/bench/fashion-mnist-" + rows + ".npy");
        if (Files.exists(path)) {
            return path;
        }
        Files.createDirectories(path.getParent());
        StringBuilder header = new StringBuilder("{'descr': '<f8', 'fortran_order': False, 'shape': (" + rows + ", "
                + COLS + "), }");
        while ((10 + header.length() + 1) % 64 != 0) {
            header.append(' ');
        }
        header.append('\n');
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(path), 1 << 16)) {
            out.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
            out.write(header.length() & 0xff);
            out.write(header.length() >> 8);
            out.write(header.toString().getBytes(StandardCharsets.US_ASCII));
            ByteBuffer row = ByteBuffer.allocate(COLS * 8).order(ByteOrder.LITTLE_ENDIAN);
            FashionMnist.forEachImage(rows, (index, pixels) -> {
                row.clear();
                for (byte p : pixels) {
                    row.putDouble((p & 0xff) / 255.0);
                }
                out.write(row.array());
            });
        }
        return path;
    }
}
