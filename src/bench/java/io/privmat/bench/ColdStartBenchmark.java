package io.privmat.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.storage.DatasetRepository;
import io.privmat.support.ApiTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

/**
 * Cold start of data-reading jobs: chunk reads on a fresh connection with pgJDBC's default
 * statement (unnamed for the first four executions per connection: bytea as hex text) against the
 * statement as DatasetRepository now configures it (server-prepared, binary, from the first
 * execution), and the first twelve COLUMN_SUMS jobs after start. 20 000 × 784 float64 (125 MB,
 * 30 chunks of 4 MiB) uploaded as .npy. Run: {@code ./mvnw test -Pbenchmark -Dtest=ColdStartBenchmark};
 * writes target/benchmarks/cold-start.txt.
 */
@Tag("benchmark")
class ColdStartBenchmark extends ApiTest {

    private static final int ROWS = 20_000;
    private static final int COLS = 784;
    private static final String SQL = "SELECT first_index, item_count, encoding, nnz, payload FROM data_chunk "
            + "WHERE dataset_id = ? ORDER BY chunk_no";

    @Autowired
    Environment environment;

    @Test
    void coldStart() throws Exception {
        StringBuilder report = new StringBuilder();
        report.append(String.format(Locale.ROOT, "load average before: %s%n", GramKernelBenchmark.loadAverage()));
        String id = createMatrix(1.0);
        Response up = put("/v1/datasets/" + id + "/data", "application/x-npy", npy());
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        // The first jobs after start: each pooled connection runs the chunk read for the first time.
        List<Double> jobs = new ArrayList<>();
        for (int j = 0; j < 12; j++) {
            long start = System.nanoTime();
            runQuery(id, "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.0005}");
            jobs.add((System.nanoTime() - start) / 1e9);
        }
        report.append("COLUMN_SUMS jobs 1-12 after start, submit -> result (s): ")
                .append(jobs.stream().map(t -> String.format(Locale.ROOT, "%.2f", t)).toList()).append('\n');
        // Raw chunk reads, alternating, each on a new connection.
        List<Double> textReads = new ArrayList<>();
        List<Double> binaryReads = new ArrayList<>();
        List<Double> warmReads = new ArrayList<>();
        UUID dataset = UUID.fromString(id);
        for (int round = 0; round < 7; round++) {
            try (Connection c = connect()) {
                textReads.add(read(c, dataset, false));
            }
            try (Connection c = connect()) {
                binaryReads.add(read(c, dataset, true));
                for (int warm = 0; warm < 5; warm++) {
                    read(c, dataset, true);
                }
                warmReads.add(read(c, dataset, true));
            }
        }
        double mb = ROWS * (double) COLS * 8 / 1e6;
        line(report, "fresh connection, default statement (first execution)", textReads, mb);
        line(report, "fresh connection, binaryFromFirstExecution", binaryReads, mb);
        line(report, "same connection, 7th execution (server-prepared)", warmReads, mb);
        report.append(String.format(Locale.ROOT, "ratio default / fixed (medians): %.2f; fixed first / warm: %.2f%n",
                BenchStats.median(textReads) / BenchStats.median(binaryReads), BenchStats.median(binaryReads) / BenchStats.median(warmReads)));
        report.append(String.format(Locale.ROOT, "load average after: %s%n", GramKernelBenchmark.loadAverage()));
        System.out.println(report);
        Path out = Path.of("target/benchmarks/cold-start.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
    }

    private Connection connect() throws Exception {
        return DriverManager.getConnection(environment.getRequiredProperty("spring.datasource.url"),
                environment.getRequiredProperty("spring.datasource.username"),
                environment.getProperty("spring.datasource.password", ""));
    }

    /** The repository's chunk read as the job sees it (cursor, one chunk per fetch), in seconds. */
    private static double read(Connection c, UUID dataset, boolean fixed) throws Exception {
        c.setAutoCommit(false);
        long start = System.nanoTime();
        long bytes = 0;
        try (PreparedStatement ps = c.prepareStatement(SQL)) {
            if (fixed) {
                DatasetRepository.binaryFromFirstExecution(ps);
            }
            ps.setFetchSize(1);
            ps.setObject(1, dataset);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    bytes += rs.getBytes(5).length;
                }
            }
        }
        c.commit();
        assertThat(bytes).isEqualTo((long) ROWS * COLS * 8);
        return (System.nanoTime() - start) / 1e9;
    }

    private static byte[] npy() {
        String dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + ROWS + ", " + COLS + "), }";
        int headerLength = 10 + dict.length() + 1;
        int padded = (headerLength + 63) / 64 * 64;
        String header = dict + " ".repeat(padded - headerLength) + "\n";
        ByteBuffer out = ByteBuffer.allocate(padded + ROWS * COLS * 8).order(ByteOrder.LITTLE_ENDIAN);
        out.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        out.putShort((short) header.length()).put(header.getBytes(StandardCharsets.US_ASCII));
        long state = 7;
        for (int i = 0; i < ROWS * COLS; i++) {
            state = state * 6364136223846793005L + 1442695040888963407L;
            out.putDouble((state >>> 11) * 0x1.0p-53);
        }
        return out.array();
    }

    private static void line(StringBuilder report, String label, List<Double> times, double mb) {
        double[] sorted = times.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        report.append(String.format(Locale.ROOT, "%-58s median %.3f s (%.0f MB/s), all %s%n", label, BenchStats.median(times),
                mb / BenchStats.median(times), Arrays.toString(sorted)));
    }

}
