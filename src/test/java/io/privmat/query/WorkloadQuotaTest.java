package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.FairUseApiTest;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 2: a caller's workloads are bounded by a storage quota (bytes as stored, in full
 * for each caller whoever shares the content) and a count; deleting frees it. Another caller is not
 * affected.
 */
class WorkloadQuotaTest extends FairUseApiTest {

    private Response upload(String key, String csv) {
        return sendAs(key, HttpRequest.newBuilder(uri("/v1/workloads")).header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofString(csv, StandardCharsets.UTF_8)));
    }

    /** A dense row of {@code cols} non-zero values: 8 bytes each as stored. */
    private static String row(int cols, double v) {
        StringBuilder b = new StringBuilder();
        for (int j = 0; j < cols; j++) {
            b.append(j == 0 ? "" : ",").append(v + j);
        }
        return b.append('\n').toString();
    }

    @Test
    void aCallersStoredBytesAndCountAreBounded() {
        // Subjects of their own: other tests on this database store workloads as the shared owners.
        String key = createKey("quota-a-" + java.util.UUID.randomUUID(), "OWNER");
        String other = createKey("quota-b-" + java.util.UUID.randomUUID(), "OWNER");
        Response first = upload(key, row(64, 1)); // 512 bytes of 1 KiB
        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        Response second = upload(key, row(64, 100)); // 1 024 bytes: at the quota
        assertThat(second.status()).as(second.toString()).isEqualTo(201);
        Response over = upload(key, row(1, 7));
        assertThat(over.status()).as(over.toString()).isEqualTo(409);
        assertThat(over.json().get("type").asString()).endsWith("/storage-quota-exceeded");
        assertThat(over.json().get("maxStoredBytes").asLong()).isEqualTo(1024);
        assertThat(over.json().get("storedBytes").asLong()).isEqualTo(1024);
        // The same content again is no new storage: its workload comes back.
        assertThat(upload(key, row(64, 1)).status()).isEqualTo(200);
        // Another caller's quota is its own, even for content this caller stored.
        assertThat(upload(other, row(64, 1)).status()).isEqualTo(201);
        // Deleting frees the quota.
        assertThat(sendAs(key, HttpRequest.newBuilder(uri("/v1/workloads/" + second.json().get("id").asString()))
                .DELETE()).status()).isEqualTo(204);
        assertThat(upload(key, row(1, 7)).status()).isEqualTo(201);
        assertThat(upload(key, row(1, 8)).status()).isEqualTo(201);
        Response count = upload(key, row(1, 9));
        assertThat(count.status()).as("at most 3 workloads").isEqualTo(409);
        assertThat(count.json().get("maxWorkloads").asInt()).isEqualTo(3);
    }
}
