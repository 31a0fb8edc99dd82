package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** SKETCH jobs, releases and the free queries on them, over HTTP. */
class SketchApiTest extends ApiTest {

    private String graph(int vertices, double p, long seed, String budget) {
        String id = postJson("/v1/datasets", "{\"name\":\"g\",\"kind\":\"GRAPH\",\"vertices\":"
                + vertices(labels("v", vertices)) + ",\"budget\":" + budget + "}").json()
                .get("id").asString();
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder csv = new StringBuilder();
        for (int u = 0; u < vertices; u++) {
            csv.append("v").append(u).append(",v").append((u + 1) % vertices).append(",1\n"); // a ring: every vertex appears
            for (int v = u + 2; v < vertices; v++) {
                if (random.nextDouble() < p && !(u == 0 && v == vertices - 1)) {
                    csv.append("v").append(u).append(",v").append(v).append(',').append(random.nextDouble()).append('\n');
                }
            }
        }
        Response r = put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        return id;
    }

    private long ledgerEntries(String dataset) {
        return jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?::uuid", Long.class, dataset);
    }

    @Test
    void graphSketchAnswersThousandsOfCutsForFree() {
        String g = graph(1500, 0.004, 1, "{\"epsilon\":10,\"delta\":1e-4}");
        JsonNode result = runQuery(g, "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":2,\"delta\":1e-6,"
                + "\"params\":{\"eta\":0.3,\"nu\":0.1}}");
        assertThat(result.get("releaseKind").asString()).isEqualTo("GRAPH_SKETCH");
        String release = result.get("releaseId").asString();
        JsonNode view = get("/v1/releases/" + release).json();
        assertThat(view.get("kind").asString()).isEqualTo("GRAPH_SKETCH");
        assertThat(view.get("cols").asInt()).isEqualTo(1500);
        assertThat(view.get("meta").get("r").asInt()).isEqualTo(267);
        long entries = ledgerEntries(g);
        String budget = get("/v1/datasets/" + g + "/budget").text();
        // 3000 cut queries in 30 requests of 100 sets each.
        SplittableRandom random = new SplittableRandom(2);
        for (int request = 0; request < 30; request++) {
            StringBuilder body = new StringBuilder("{\"sets\":[");
            for (int s = 0; s < 100; s++) {
                body.append(s == 0 ? "[" : ",[");
                int size = 1 + random.nextInt(50);
                for (int i = 0; i < size; i++) {
                    body.append(i == 0 ? "" : ",").append("\"v").append(random.nextInt(1500)).append('"');
                }
                body.append(']');
            }
            body.append("]}");
            Response r = postJson("/v1/releases/" + release + "/cuts", body.toString());
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
            JsonNode answers = r.json().get("answers");
            assertThat(answers).hasSize(100);
            for (JsonNode a : answers) {
                assertThat(a.get("lower").asDouble()).isLessThanOrEqualTo(a.get("upper").asDouble());
            }
            assertThat(r.json().get("confidence").asDouble()).isEqualTo(0.9);
        }
        assertThat(ledgerEntries(g)).isEqualTo(entries);
        assertThat(get("/v1/datasets/" + g + "/budget").text()).isEqualTo(budget);
        // Labels must exist; the error names the position.
        Response bad = postJson("/v1/releases/" + release + "/cuts", "{\"sets\":[[\"v1\"],[\"v2\",\"nope\"]]}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("parameter").asString()).isEqualTo("sets[1][1]");
        assertThat(postJson("/v1/releases/" + release + "/directional-variance", "{\"vectors\":[[1]]}").json()
                .get("type").asString()).isEqualTo("https://privmat.io/problems/wrong-dataset-kind");
    }

    @Test
    void smallGraphsAreRefusedClearly() {
        String g = graph(34, 0.1, 3, "{\"epsilon\":10,\"delta\":1e-4}");
        Response r = postJson("/v1/datasets/" + g + "/queries",
                "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":1,\"delta\":1e-6}");
        assertThat(r.status()).isEqualTo(422);
        assertThat(r.json().get("type").asString()).isEqualTo("https://privmat.io/problems/graph-too-small");
        assertThat(r.json().get("detail").asString()).contains("34 vertices");
        assertThat(ledgerEntries(g)).isZero();
    }

    private String matrix() {
        String id = postJson("/v1/datasets", "{\"name\":\"m\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"budget\":{\"epsilon\":20,\"delta\":1e-4}}").json().get("id").asString();
        SplittableRandom random = new SplittableRandom(4);
        StringBuilder csv = new StringBuilder();
        for (int r = 0; r < 3000; r++) {
            csv.append(0.6 * random.nextDouble()).append(',').append(0.3 * random.nextGaussian()).append(',')
                    .append(0.1 * random.nextGaussian()).append('\n');
        }
        put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        return id;
    }

    @Test
    void matrixSketchesAndCovarianceReleasesAnswerDirectionalVariance() {
        String m = matrix();
        long entries;
        for (String query : new String[] {
            "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":1,\"delta\":1e-6,\"params\":{\"eta\":0.1}}",
            "{\"kind\":\"SKETCH\",\"mechanism\":\"WISHART\",\"epsilon\":1,\"delta\":1e-6}",
            "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"epsilon\":1,\"delta\":1e-6}"}) {
            JsonNode result = runQuery(m, query);
            String release = result.get("releaseId").asString();
            entries = ledgerEntries(m);
            StringBuilder body = new StringBuilder("{\"vectors\":[[1,0,0],[0,2,0]");
            for (int i = 0; i < 200; i++) {
                body.append(",[").append(Math.cos(i)).append(',').append(Math.sin(i)).append(",0.1]");
            }
            body.append("]}");
            Response r = postJson("/v1/releases/" + release + "/directional-variance", body.toString());
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
            JsonNode first = r.json().get("answers").get(0);
            // True ‖Xe₁‖² = Σ x₀² ≈ 3000·0.12 = 360: the stated interval must contain it here.
            assertThat(first.get("lower").asDouble()).as(query).isLessThan(360 * 1.1);
            assertThat(first.get("upper").asDouble()).as(query).isGreaterThan(360 * 0.9);
            assertThat(ledgerEntries(m)).isEqualTo(entries);
            Response zero = postJson("/v1/releases/" + release + "/directional-variance", "{\"vectors\":[[0,0,0]]}");
            assertThat(zero.status()).isEqualTo(400);
            assertThat(zero.json().get("parameter").asString()).isEqualTo("vectors[0]");
            assertThat(postJson("/v1/releases/" + release + "/directional-variance", "{\"vectors\":[[1,2]]}")
                    .json().get("parameter").asString()).isEqualTo("vectors[0]");
            assertThat(postJson("/v1/releases/" + release + "/cuts", "{\"sets\":[[\"a\"]]}").status()).isEqualTo(409);
        }
    }

    @Test
    void releasesFollowTheirJobAndTheirDatasetsVisibility() {
        String m = matrix();
        JsonNode result = runQuery(m, "{\"kind\":\"SKETCH\",\"mechanism\":\"WISHART\",\"epsilon\":1,\"delta\":1e-6}");
        String release = result.get("releaseId").asString();
        // A release is visible like its job: to the dataset's owner and the job's submitter (if still
        // granted), not to other analysts of the dataset; others get 404.
        assertThat(sendAs(analystKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/releases/" + release)).GET())
                .status()).isEqualTo(404);
        postJson("/v1/datasets/" + m + "/grants", "{\"analyst\":\"" + ANALYST + "\"}");
        assertThat(sendAs(analystKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/releases/" + release)).GET())
                .status()).isEqualTo(404);
        Response own = sendAs(analystKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/datasets/" + m + "/queries"))
                .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                        "{\"kind\":\"SKETCH\",\"mechanism\":\"WISHART\",\"epsilon\":1,\"delta\":1e-6}")));
        String ownJob = own.json().get("id").asString();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!sendAs(analystKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/jobs/" + ownJob)).GET()).json()
                .get("state").asString().equals("DONE") && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        String ownRelease = sendAs(analystKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/jobs/" + ownJob
                + "/result")).GET()).json().get("releaseId").asString();
        assertThat(sendAs(analystKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/releases/" + ownRelease)).GET())
                .status()).isEqualTo(200);
        assertThat(get("/v1/releases/" + ownRelease).status()).isEqualTo(200);
        assertThat(sendAs(otherAnalystKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/releases/" + ownRelease))
                .GET()).status()).isEqualTo(404);
        assertThat(sendAs(otherOwnerKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/releases/" + release)).GET())
                .status()).isEqualTo(404);
        // A release whose job did not end DONE is never served.
        jdbc.update("UPDATE job SET state = 'CANCELLED' WHERE id = ?::uuid", result.get("jobId").asString());
        assertThat(get("/v1/releases/" + release).status()).isEqualTo(404);
        assertThat(get("/v1/releases/" + java.util.UUID.randomUUID()).status()).isEqualTo(404);
    }

    @Test
    void invalidSketchRequests() {
        String m = matrix();
        String[][] cases = {
            {"{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"rho\":0.1}", "rho"},
            {"{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":1}", "delta"},
            {"{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":1,\"delta\":1e-6,\"params\":{\"eta\":1.5}}", "params.eta"},
            {"{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":1,\"delta\":1e-6,\"params\":{\"eta\":0.0001}}", "params.eta"},
            {"{\"kind\":\"SKETCH\",\"mechanism\":\"WISHART\",\"epsilon\":1,\"delta\":1e-6,\"params\":{\"eta\":0.1}}", "params.eta"},
            {"{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":1,\"delta\":1e-6,\"params\":{\"k\":3}}", "params.k"},
            {"{\"kind\":\"SKETCH\",\"mechanism\":\"LAPLACE\",\"epsilon\":1}", "mechanism"}
        };
        for (String[] c : cases) {
            Response r = postJson("/v1/datasets/" + m + "/queries/quote", c[0]);
            assertThat(r.status()).as(c[0] + " → " + r).isEqualTo(400);
            assertThat(r.json().get("parameter").asString()).as(c[0]).isEqualTo(c[1]);
        }
    }
}
