package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 36, item 6: every user's row can be fetched one by one, whatever its label — by label in
 * the query (percent-encoded: '/', '..', '%', control characters) or by position in the export —
 * and a 404 for an unknown user does not repeat the label it was asked for.
 */
class PredictionAddressingTest extends ApiTest {

    /** Labels a path segment cannot carry: a slash, a dot-segment, a percent, a control character. */
    private static final List<String> LABELS = List.of("a/b", "..", "50%", "x\u0001y", "plain");

    private String completionJob() {
        Response created = postJson("/v1/datasets", "{\"name\":\"r\",\"kind\":\"RATINGS\",\"neighbouring\":"
                + "\"REPLACE_ONE\",\"ratings\":{\"items\":4,\"min\":1,\"max\":5,\"perUserCap\":4,\"relation\":\"USER\"},"
                + "\"budget\":{\"epsilon\":100,\"delta\":1e-6}}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        StringBuilder csv = new StringBuilder("user,item,rating\n");
        for (int u = 0; u < LABELS.size(); u++) {
            for (int j = 0; j < 3; j++) {
                csv.append('"').append(LABELS.get(u)).append("\",").append((u + j) % 4).append(',').append(1 + (u + j) % 5)
                        .append('\n');
            }
        }
        Response up = put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        assertThat(up.json().get("rows").asLong()).isEqualTo(LABELS.size());
        // The owner may query its own dataset.
        Response job = postJson("/v1/datasets/" + id + "/queries", "{\"kind\":\"COMPLETION\",\"mechanism\":"
                + "\"PRIVATE_FRANK_WOLFE\",\"epsilon\":8,\"delta\":1e-6,\"params\":{\"iterations\":2}}");
        assertThat(job.status()).as(job.toString()).isEqualTo(202);
        String jobId = job.json().get("id").asString();
        assertThat(awaitJob(jobId).get("state").asString()).isEqualTo("DONE");
        return jobId;
    }

    private Response byLabel(String job, String label) {
        return send(HttpRequest.newBuilder(uri("/v1/jobs/" + job + "/user-predictions?label="
                + URLEncoder.encode(label, StandardCharsets.UTF_8))).GET());
    }

    @Test
    void everyLabelIsAddressableAndUnknownOnesAreNotEchoed() {
        String job = completionJob();
        Response csv = get("/v1/jobs/" + job + "/predictions");
        assertThat(csv.status()).isEqualTo(200);
        String[] lines = csv.text().split("\r\n");
        for (int u = 0; u < LABELS.size(); u++) {
            Response one = byLabel(job, LABELS.get(u));
            assertThat(one.status()).as(LABELS.get(u) + ": " + one).isEqualTo(200);
            JsonNode body = one.json();
            assertThat(body.get("user").asString()).isEqualTo(LABELS.get(u));
            assertThat(body.get("index").asInt()).isEqualTo(u);
            Response same = get("/v1/jobs/" + job + "/user-predictions?index=" + u);
            assertThat(same.json().get("user").asString()).isEqualTo(LABELS.get(u));
            assertThat(same.json().get("predictions").toString()).isEqualTo(body.get("predictions").toString());
            // The same numbers as the export's row (label, then one value per item).
            String[] fields = lines[u + 1].split(",");
            assertThat(fields[0]).isEqualTo(LABELS.get(u));
            for (int j = 0; j < 4; j++) {
                assertThat(body.get("predictions").get(j).asDouble()).isEqualTo(Double.parseDouble(fields[j + 1]));
            }
        }
        assertThat(get("/v1/jobs/" + job + "/users/plain/predictions").json().get("index").asInt()).isEqualTo(4);

        String secret = "no-such-user-" + "s3cr3t";
        for (Response missing : List.of(byLabel(job, secret), get("/v1/jobs/" + job + "/users/" + secret + "/predictions"),
                get("/v1/jobs/" + job + "/user-predictions?index=" + LABELS.size()),
                get("/v1/jobs/" + job + "/user-predictions?index=-1"))) {
            assertThat(missing.status()).as(missing.toString()).isEqualTo(404);
            // Only the problem's instance (the request's own path) may hold what the client sent.
            JsonNode problem = missing.json();
            ((tools.jackson.databind.node.ObjectNode) problem).remove("instance");
            assertThat(problem.toString()).as("the 404 does not repeat the label").doesNotContain(secret);
        }
        assertThat(get("/v1/jobs/" + job + "/user-predictions").status()).isEqualTo(400);
        assertThat(get("/v1/jobs/" + job + "/user-predictions?index=0&label=plain").status()).isEqualTo(400);
        // Repeated, a parameter is refused (Spring would have joined the labels as "plain,plain").
        Response twice = get("/v1/jobs/" + job + "/user-predictions?label=plain&label=plain");
        assertThat(twice.status()).as(twice.toString()).isEqualTo(400);
        assertThat(twice.json().get("detail").asString()).contains("label is given 2 times");
        assertThat(get("/v1/jobs/" + job + "/user-predictions?index=0&index=1").status()).isEqualTo(400);
        // Analysts are refused, as for the other prediction endpoints.
        assertThat(sendAs(analystKey(), HttpRequest.newBuilder(uri("/v1/jobs/" + job + "/user-predictions?index=0"))
                .GET()).status()).isIn(403, 404);
    }
}
