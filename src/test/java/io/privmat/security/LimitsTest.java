package io.privmat.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/** Per-key rate limits (429) and request-size limits (413), in a context with tight limits. */
@TestPropertySource(properties = {"privmat.security.requests-per-second=1", "privmat.security.burst=30",
        "privmat.security.max-json-body=2KB"})
class LimitsTest extends ApiTest {

    @Test
    void aKeyOverItsRateGets429WithRetryAfterAndOtherKeysAreUnaffected() {
        String key = createKey("rate-limited-" + System.nanoTime(), "ANALYST");
        int limited = 0;
        Response last = null;
        for (int i = 0; i < 40; i++) {
            Response r = sendAs(key, HttpRequest.newBuilder(uri("/v1/datasets")).GET());
            if (r.status() == 429) {
                limited++;
                last = r;
            }
        }
        assertThat(limited).isGreaterThanOrEqualTo(8);
        assertThat(last.json().get("type").asString()).isEqualTo("https://privmat.io/problems/rate-limited");
        assertThat(last.json().get("retryAfterSeconds").asLong()).isPositive();
        String other = createKey("fresh-" + System.nanoTime(), "ANALYST");
        assertThat(sendAs(other, HttpRequest.newBuilder(uri("/v1/datasets")).GET()).status()).isEqualTo(200);
    }

    @Test
    void oversizedJsonBodiesAre413() {
        String key = createKey("big-body-" + System.nanoTime(), "OWNER");
        String big = "{\"name\":\"" + "x".repeat(4000) + "\",\"kind\":\"GRAPH\",\"budget\":{\"epsilon\":1,\"delta\":1e-6}}";
        Response r = sendAs(key, HttpRequest.newBuilder(uri("/v1/datasets")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(big)));
        assertThat(r.status()).isEqualTo(413);
        assertThat(r.json().get("type").asString()).isEqualTo("https://privmat.io/problems/payload-too-large");
        // Streamed without a length: cut off while reading.
        Response streamed = sendAs(key, HttpRequest.newBuilder(uri("/v1/datasets")).header("Content-Type",
                "application/json").POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new java.io.ByteArrayInputStream(big.getBytes()))));
        assertThat(streamed.status()).isEqualTo(413);
    }
}
