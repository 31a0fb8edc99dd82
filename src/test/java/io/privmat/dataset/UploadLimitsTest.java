package io.privmat.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * Size limits and concurrent uploads (a separate context with a 64 KiB upload limit, and a 1 KiB
 * prefetch so that an upload takes its dataset's lock after its first kilobyte).
 */
@TestPropertySource(properties = {"privmat.ingest.max-upload-size=64KB", "privmat.ingest.prefetch-size=1KB"})
class UploadLimitsTest extends ApiTest {

    @Test
    void declaredOversizeIsRefusedWith413() {
        String id = createMatrix(1);
        Response r = put("/v1/datasets/" + id + "/data", "text/csv", "1,2\n".repeat(20_000).getBytes(StandardCharsets.UTF_8));
        assertThat(r.status()).isEqualTo(413);
        assertThat(r.json().get("type").asString()).isEqualTo("https://privmat.io/problems/payload-too-large");
        assertThat(get("/v1/datasets/" + id).json().get("status").asString()).isEqualTo("EMPTY");
    }

    @Test
    void streamedOversizeWithoutLengthIsRefusedWith413AndLeavesNothing() {
        String id = createMatrix(1);
        // No Content-Length (chunked transfer): the limit is enforced while streaming.
        Response r = send(HttpRequest.newBuilder(uri("/v1/datasets/" + id + "/data")).header("Content-Type", "text/csv")
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> repeat("1,2\n", 40_000))));
        assertThat(r.status()).isEqualTo(413);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM data_chunk WHERE dataset_id = ?::uuid", Long.class, id))
                .isZero();
    }

    @Test
    void secondConcurrentUploadIsAConflict() throws Exception {
        String id = createMatrix(1);
        byte[] first = "1,2\n".repeat(512).getBytes(StandardCharsets.US_ASCII);
        byte[] rest = "3,4\n".getBytes(StandardCharsets.US_ASCII);
        // A raw HTTP/1.1 request whose body arrives in two parts: past the prefetch, the upload holds
        // the dataset's lock while it waits for the second part.
        try (Socket socket = new Socket("localhost", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("PUT /v1/datasets/" + id + "/data HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/csv\r\n"
                    + "Authorization: Bearer " + key() + "\r\n"
                    + "Content-Length: " + (first.length + rest.length) + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(first);
            out.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline && jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity "
                    + "WHERE query LIKE '%FOR UPDATE NOWAIT%' AND state = 'idle in transaction'", Long.class) == 0) {
                Thread.sleep(20);
            }
            Response second = put("/v1/datasets/" + id + "/data", "text/csv", "5,6\n".getBytes(StandardCharsets.UTF_8));
            assertThat(second.status()).as(second.toString()).isEqualTo(409);
            assertThat(second.json().get("type").asString()).isEqualTo("https://privmat.io/problems/upload-in-progress");
            out.write(rest);
            out.flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 200").contains("\"rows\":513");
        }
    }

    /**
     * After an early 413 the server reads at most a little of the unread body and then closes the
     * connection (server.tomcat.max-swallow-size), instead of draining up to the declared length.
     */
    @Test
    void aRefusedUploadCannotKeepStreaming() throws Exception {
        String id = createMatrix(1);
        long declared = 512L << 20;
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("PUT /v1/datasets/" + id + "/data HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/csv\r\n"
                    + "Authorization: Bearer " + key() + "\r\nContent-Length: " + declared + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] status = socket.getInputStream().readNBytes(12);
            assertThat(new String(status, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 413");
            byte[] block = "1,2\n".repeat(16 << 10).getBytes(StandardCharsets.US_ASCII);
            long sent = 0;
            try {
                while (sent < declared) {
                    out.write(block);
                    sent += block.length;
                }
            } catch (IOException closedByServer) {
                // expected: the server stopped reading
            }
            assertThat(sent).as("bytes the client could still send after the 413").isLessThan(64L << 20);
        }
    }

    private static InputStream repeat(String line, int times) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return new InputStream() {
            long remaining = (long) bytes.length * times;

            @Override
            public int read() throws IOException {
                if (remaining <= 0) {
                    return -1;
                }
                return bytes[(int) (--remaining % bytes.length)];
            }
        };
    }
}
