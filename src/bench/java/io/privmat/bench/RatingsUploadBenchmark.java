package io.privmat.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.DatasetRows;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.support.ApiTest;
import io.privmat.support.BenchFiles;
import io.privmat.support.HeapPeaks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * RATINGS upload benchmark (not a timed test: it prints numbers and asserts only correctness). Run:
 * {@code ./mvnw -o test -Pbenchmark -Dtest=RatingsUploadBenchmark}. Uploads synthetic
 * {@code user,item,rating} CSVs of 400 items, 84 lines per user with a cap of 80 (so 4 of each user's
 * lines are dropped), users interleaved (the line order that makes grouping by user work hardest):
 * 5 000 users (420 000 lines, the reference) and 50 000 users (4 200 000 lines). Reports the time end to
 * end, the time of one {@link RatingsSource} pass over what was stored, and the heap: the peak of the heap
 * pools, the old generation's peak (what the upload holds survives young collections and ends there) and
 * the largest live set after a GC, with the ratios of the large upload to the reference.
 */
@Tag("benchmark")
class RatingsUploadBenchmark extends ApiTest {

    private static final int ITEMS = 400;
    private static final int LINES_PER_USER = 84;
    private static final int CAP = 80;

    @Autowired
    DatasetRows rows;

    @Test
    void uploadFourMillionRatings() throws Exception {
        Path small = writeCsv(5_000);
        Path large = writeCsv(50_000);
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT, "JVM max heap %d MiB, %d cores%n",
                Runtime.getRuntime().maxMemory() >> 20, Runtime.getRuntime().availableProcessors()));
        upload(small, 5_000); // warm-up
        double[] reference = upload(small, 5_000);
        double[] measured = upload(large, 50_000);
        report.append(line("reference", 5_000, reference)).append(line("large", 50_000, measured));
        report.append(String.format(Locale.ROOT, "ratios large/reference (10x the lines): upload time %.1fx, pass time "
                        + "%.1fx, heap peak %.1fx, old-generation peak %.1fx%n", measured[0] / reference[0],
                measured[1] / reference[1], measured[2] / reference[2], measured[4] / reference[4]));
        System.out.println(report);
        Path out = Path.of("target/benchmarks/ratings-upload.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
    }

    private static String line(String label, int users, double[] m) {
        long lines = (long) users * LINES_PER_USER;
        return String.format(Locale.ROOT, "%s: %d users, %d lines (%d kept): upload %.2f s (%.2f µs/line), one "
                        + "RatingsSource pass %.2f s; heap peak %.0f MiB (all pools, garbage included), old-generation peak "
                        + "%.0f MiB, max live after GC %.0f MiB%n", label, users, lines, (long) users * CAP, m[0],
                m[0] * 1e6 / lines, m[1], m[2], m[4], m[3]);
    }

    /** [upload seconds, pass seconds, heap peak MiB, live after GC MiB, old-generation peak MiB]. */
    private double[] upload(Path csv, int users) throws IOException {
        String id = postJson("/v1/datasets", "{\"name\":\"bench\",\"kind\":\"RATINGS\",\"ratings\":{\"items\":" + ITEMS
                + ",\"min\":1,\"max\":5,\"perUserCap\":" + CAP + "},\"budget\":{\"epsilon\":1,\"delta\":1e-6}}")
                .json().get("id").asString();
        HeapPeaks.Measured<Response> upload = measuredCsvUpload(id, csv);
        Response r = upload.value();
        double seconds = upload.seconds();
        long[] heap = upload.heap();
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.json().get("rows").asLong()).isEqualTo(users);
        assertThat(r.json().get("nnz").asLong()).isEqualTo((long) users * CAP);
        assertThat(r.json().get("droppedRatings").asLong()).isEqualTo((long) users * (LINES_PER_USER - CAP));
        long passStart = System.nanoTime();
        long[] seen = new long[2];
        rows.ratings(UUID.fromString(id)).forEachUser((user, items, ratings, count) -> {
            seen[0]++;
            seen[1] += count;
        });
        double pass = (System.nanoTime() - passStart) / 1e9;
        assertThat(seen).containsExactly(users, (long) users * CAP);
        delete("/v1/datasets/" + id);
        return new double[] {seconds, pass, heap[0] / 1048576.0, heap[1] / 1048576.0, heap[2] / 1048576.0};
    }

    /**
     * Line j of user u (round j, all users in turn): item (7u + 13j) mod 400 (distinct over j < 400, since
     * 13 is invertible mod 400), rating 1 … 5 from a fixed formula.
     */
    private static Path writeCsv(int users) throws IOException {
        return BenchFiles.once("ratings-" + users + ".csv", out -> {
            out.write("user,item,rating\n");
            for (int j = 0; j < LINES_PER_USER; j++) {
                for (int u = 0; u < users; u++) {
                    int item = (int) ((7L * u + 13L * j) % ITEMS);
                    out.write("user-" + u + "," + item + "," + (1 + (u * 31 + j * 17) % 9 * 0.5) + "\n");
                }
            }
        });
    }
}
