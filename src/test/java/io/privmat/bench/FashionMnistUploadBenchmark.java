package io.privmat.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import io.privmat.support.BenchFiles;
import io.privmat.support.HeapPeaks;
import io.privmat.support.FashionMnist;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Upload throughput benchmark (not a timed test: it prints numbers and asserts only correctness).
 * Run: {@code ./mvnw test -Pbenchmark -Dtest=FashionMnistUploadBenchmark} (needs the Debian package
 * dataset-fashion-mnist). Writes the CSV once under target/bench/, then uploads a 10 000-row prefix and the
 * full 60 000 rows, reporting MB/s end to end and the heap: the peak of any heap pool and the largest
 * live set after a GC (collection usage), which should not grow with the file.
 */
@Tag("benchmark")
class FashionMnistUploadBenchmark extends ApiTest {

    @Test
    void uploadFashionMnistCsv() throws Exception {
        Assumptions.assumeTrue(FashionMnist.available(), "dataset-fashion-mnist is not installed");
        Path small = writeCsv(10_000);
        Path full = writeCsv(60_000);
        StringBuilder report = new StringBuilder();
        report.append(String.format(Locale.ROOT, "JVM max heap %d MiB, %d cores%n",
                Runtime.getRuntime().maxMemory() >> 20, Runtime.getRuntime().availableProcessors()));
        for (int round = 0; round < 2; round++) {
            for (Path file : List.of(small, full)) {
                report.append(upload(file, round == 0 ? "warm-up " : "")).append('\n');
            }
        }
        System.out.println(report);
        Path out = Path.of("target/benchmarks/upload.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
    }

    private String upload(Path csv, String label) throws IOException {
        String id = createMatrix(1.0);
        HeapPeaks.Measured<Response> upload = measuredCsvUpload(id, csv);
        Response r = upload.value();
        double seconds = upload.seconds();
        long[] heap = upload.heap();
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        long rows = r.json().get("rows").asLong();
        long clipped = r.json().get("clippedRows").asLong();
        double mb = Files.size(csv) / 1e6;
        delete("/v1/datasets/" + id);
        return String.format(Locale.ROOT,
                "%s%d rows x 784, %.1f MB CSV: %.2f s, %.1f MB/s, clipped %d rows; heap peak %d MiB, "
                        + "max live after GC %d MiB", label, rows, mb, seconds, mb / seconds, clipped, heap[0] >> 20,
                heap[1] >> 20);
    }

    private static Path writeCsv(int rows) throws IOException {
        return BenchFiles.once("fashion-mnist-" + rows + ".csv", out -> {
            for (int c = 0; c < 784; c++) {
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
        });
    }
}
