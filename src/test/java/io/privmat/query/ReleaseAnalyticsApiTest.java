package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The free analytics on covariance-type releases (regression, sparse and non-negative PCA, rank-k
 * approximation) and the ADASSP regression query, over HTTP.
 */
class ReleaseAnalyticsApiTest extends ApiTest {

    /** 3000 rows (x₀, x₁, x₂, y), y = x₀ − 2x₁ + 0.5x₂ + noise, norm ≤ 1. */
    private String regressionDataset() {
        String id = postJson("/v1/datasets", "{\"name\":\"r\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"budget\":{\"epsilon\":30,\"delta\":1e-4}}").json().get("id").asString();
        SplittableRandom random = new SplittableRandom(21);
        StringBuilder csv = new StringBuilder();
        for (int r = 0; r < 3000; r++) {
            double a = 0.3 * random.nextGaussian();
            double b = 0.15 * random.nextGaussian();
            double c = 0.1 * random.nextGaussian();
            double y = a - 2 * b + 0.5 * c + 0.05 * random.nextGaussian();
            csv.append(a).append(',').append(b).append(',').append(c).append(',').append(y).append('\n');
        }
        Response up = put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        return id;
    }

    private long ledgerEntries(String dataset) {
        return jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?::uuid", Long.class, dataset);
    }

    @Test
    void everyCovarianceTypeReleaseAnswersEveryAnalyticForFree() {
        String m = regressionDataset();
        String[] queries = {
            "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"epsilon\":2,\"delta\":1e-6}",
            "{\"kind\":\"COVARIANCE\",\"mechanism\":\"WISHART\",\"epsilon\":2,\"delta\":1e-6}",
            "{\"kind\":\"SKETCH\",\"mechanism\":\"WISHART\",\"epsilon\":2,\"delta\":1e-6}",
            "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":2,\"delta\":1e-6,\"params\":{\"eta\":0.1}}"};
        for (String query : queries) {
            String release = runQuery(m, query).get("releaseId").asString();
            long entries = ledgerEntries(m);
            String budget = get("/v1/datasets/" + m + "/budget").text();

            Response reg = postJson("/v1/releases/" + release + "/regression",
                    "{\"response\":3,\"predictors\":[0,1,2],\"level\":0.9}");
            assertThat(reg.status()).as(query + " → " + reg).isEqualTo(200);
            JsonNode r = reg.json();
            assertThat(r.get("level").asDouble()).isEqualTo(0.9);
            assertThat(r.get("coefficients")).hasSize(3);
            assertThat(r.get("intervals").asString()).isEqualTo(query.contains("JL") ? "EXACT_T" : "SIMULTANEOUS_BOUND");
            assertThat(r.get("estimand").asString()).contains("λ = ");
            for (JsonNode c : r.get("coefficients")) {
                double estimate = c.get("estimate").asDouble();
                assertThat(c.get("lower").isNull() || c.get("lower").asDouble() <= estimate).isTrue();
                assertThat(c.get("upper").isNull() || c.get("upper").asDouble() >= estimate).isTrue();
                assertThat(c.get("approximateLower").asDouble()).isLessThanOrEqualTo(estimate);
            }
            // Ridge regression with a large ridge shrinks towards 0; the signs of the strong coefficients survive.
            assertThat(r.get("coefficients").get(1).get("estimate").asDouble()).as(query).isNegative();
            // Default predictors: all other columns.
            assertThat(postJson("/v1/releases/" + release + "/regression", "{\"response\":0}").json()
                    .get("predictors")).hasSize(3);

            Response sparse = postJson("/v1/releases/" + release + "/sparse-pca", "{\"k\":2,\"s\":2}");
            assertThat(sparse.status()).as(sparse.toString()).isEqualTo(200);
            assertThat(sparse.json().get("components")).hasSize(4);
            assertThat(sparse.json().get("components").get(0)).hasSize(2);
            assertThat(sparse.json().get("supports").get(0)).hasSize(2);
            JsonNode explained = sparse.json().get("explainedVariance").get(0);
            assertThat(explained.get("lower").asDouble()).isLessThanOrEqualTo(explained.get("estimate").asDouble());

            Response nonNegative = postJson("/v1/releases/" + release + "/nonnegative-pca", "{}");
            assertThat(nonNegative.status()).as(nonNegative.toString()).isEqualTo(200);
            for (JsonNode row : nonNegative.json().get("components")) {
                assertThat(row.get(0).asDouble()).isGreaterThanOrEqualTo(0);
            }

            Response low = postJson("/v1/releases/" + release + "/low-rank", "{\"k\":2,\"vectors\":[[1,0,0,0]]}");
            assertThat(low.status()).as(low.toString()).isEqualTo(200);
            assertThat(low.json().get("eigenvalues")).hasSize(2);
            assertThat(low.json().get("projections").get(0).get("coordinates")).hasSize(2);
            assertThat(low.json().get("subspaceSinThetaBound").asDouble()).isBetween(0.0, 1.0);

            assertThat(ledgerEntries(m)).as("free: no ledger entry").isEqualTo(entries);
            assertThat(get("/v1/datasets/" + m + "/budget").text()).isEqualTo(budget);
        }
    }

    @Test
    void badAnalyticsRequestsAreProblemsNamingTheParameter() {
        String m = regressionDataset();
        String ag = runQuery(m, "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"epsilon\":1,\"delta\":1e-6}")
                .get("releaseId").asString();
        String jl = runQuery(m, "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":1,\"delta\":1e-6}")
                .get("releaseId").asString();
        String[][] cases = {
            {ag, "regression", "{\"predictors\":[0]}", "response"},
            {ag, "regression", "{\"response\":9}", "response"},
            {ag, "regression", "{\"response\":3,\"predictors\":[0,0]}", "predictors[1]"},
            {ag, "regression", "{\"response\":3,\"predictors\":[3]}", "predictors[0]"},
            {ag, "regression", "{\"response\":3,\"predictors\":[]}", "predictors"},
            {ag, "regression", "{\"response\":3,\"predictors\":[0,null]}", "predictors[1]"},
            {ag, "regression", "{\"response\":3,\"ridge\":-1}", "ridge"},
            {ag, "regression", "{\"response\":3,\"level\":0.2}", "level"},
            {jl, "regression", "{\"response\":3,\"ridge\":1}", "ridge"},
            {ag, "sparse-pca", "{\"k\":1}", "s"},
            {ag, "sparse-pca", "{\"s\":5}", "s"},
            {ag, "sparse-pca", "{\"s\":2,\"k\":5}", "k"},
            {ag, "sparse-pca", "{\"s\":2,\"iterations\":0}", "iterations"},
            {ag, "nonnegative-pca", "{\"iterations\":1001}", "iterations"},
            {ag, "low-rank", "{}", "k"},
            {ag, "low-rank", "{\"k\":5}", "k"},
            {ag, "low-rank", "{\"k\":1,\"vectors\":[[1,0]]}", "vectors[0]"},
            {ag, "low-rank", "{\"k\":1,\"vectors\":[[1,0,0,null]]}", "vectors[0]"},
        };
        for (String[] c : cases) {
            Response r = postJson("/v1/releases/" + c[0] + "/" + c[1], c[2]);
            assertThat(r.status()).as(c[1] + " " + c[2] + " → " + r).isEqualTo(400);
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(r.json().get("parameter").asString()).as(c[1] + " " + c[2]).isEqualTo(c[3]);
        }
        // Visibility: like the release itself (other analysts and owners see nothing).
        assertThat(sendAs(otherOwnerKey(), HttpRequest.newBuilder(uri("/v1/releases/" + ag + "/low-rank"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"k\":1}")))
                .status()).isEqualTo(404);
        postJson("/v1/datasets/" + m + "/grants", "{\"analyst\":\"" + ANALYST + "\"}");
        assertThat(sendAs(analystKey(), HttpRequest.newBuilder(uri("/v1/releases/" + ag + "/regression"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"response\":3}"))).status()).isEqualTo(404);
        assertThat(postJson("/v1/releases/" + java.util.UUID.randomUUID() + "/sparse-pca", "{\"s\":1}").status())
                .isEqualTo(404);
    }

    @Test
    void graphSketchesHoldNoSecondMoment() {
        String g = postJson("/v1/datasets", "{\"name\":\"g\",\"kind\":\"GRAPH\",\"vertices\":"
                + vertices(labels("v", 1500)) + ",\"budget\":{\"epsilon\":10,"
                + "\"delta\":1e-4}}").json().get("id").asString();
        StringBuilder csv = new StringBuilder();
        for (int u = 0; u < 1500; u++) {
            csv.append('v').append(u).append(",v").append((u + 1) % 1500).append('\n');
        }
        assertThat(put("/v1/datasets/" + g + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8))
                .status()).isEqualTo(200);
        String release = runQuery(g, "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":2,\"delta\":1e-6,"
                + "\"params\":{\"eta\":0.5}}").get("releaseId").asString();
        String[][] calls = {{"regression", "{\"response\":1}"}, {"sparse-pca", "{\"s\":1}"}, {"nonnegative-pca", "{}"},
            {"low-rank", "{\"k\":1}"}};
        for (String[] call : calls) {
            String path = call[0];
            Response r = postJson("/v1/releases/" + release + "/" + path, call[1]);
            assertThat(r.status()).as(path).isEqualTo(409);
            assertThat(r.json().get("type").asString()).isEqualTo("https://privmat.io/problems/wrong-dataset-kind");
        }
    }

    @Test
    void adaSspIsARegressionQueryWithItsOwnBudget() {
        String m = regressionDataset();
        Response quote = postJson("/v1/datasets/" + m + "/queries/quote", "{\"kind\":\"REGRESSION\",\"mechanism\":"
                + "\"ADASSP\",\"epsilon\":1,\"delta\":1e-6,\"params\":{\"response\":3,\"predictors\":[0,1,2]}}");
        assertThat(quote.status()).as(quote.toString()).isEqualTo(200);
        assertThat(quote.json().get("noise").get("gramSigma").asDouble()).isPositive();
        long before = ledgerEntries(m);
        JsonNode result = runQuery(m, "{\"kind\":\"REGRESSION\",\"mechanism\":\"ADASSP\",\"epsilon\":1,"
                + "\"delta\":1e-6,\"params\":{\"response\":3,\"predictors\":[0,1,2]}}");
        assertThat(ledgerEntries(m)).as("charged").isGreaterThan(before);
        assertThat(result.get("kind").asString()).isEqualTo("REGRESSION");
        assertThat(result.get("coefficients")).hasSize(3);
        assertThat(result.get("released").get("eta").asDouble()).isPositive();
        double b1 = result.get("coefficients").get(1).get("estimate").asDouble();
        assertThat(b1).isBetween(-3.0, -0.5);
        // The result's main array as .npy: the three coefficients.
        Response npy = send(HttpRequest.newBuilder(uri("/v1/jobs/" + result.get("jobId").asString() + "/result"))
                .header("Accept", "application/x-npy").GET());
        assertThat(npy.status()).isEqualTo(200);
        assertThat(new String(npy.body(), 0, 128, StandardCharsets.ISO_8859_1)).contains("(3,)");
        // Defaults: response = last column, predictors = the others.
        JsonNode defaults = runQuery(m, "{\"kind\":\"REGRESSION\",\"mechanism\":\"ADASSP\",\"rho\":0.05}");
        assertThat(defaults.get("response").asInt()).isEqualTo(3);
        String[][] bad = {
            {"{\"kind\":\"REGRESSION\",\"mechanism\":\"ADASSP\",\"rho\":0.1,\"params\":{\"response\":4}}", "params.response"},
            {"{\"kind\":\"REGRESSION\",\"mechanism\":\"ADASSP\",\"rho\":0.1,\"params\":{\"predictors\":[0,3]}}",
                "params.predictors"},
            {"{\"kind\":\"REGRESSION\",\"mechanism\":\"ADASSP\",\"rho\":0.1,\"params\":{\"predictors\":[0,0]}}",
                "params.predictors"},
            {"{\"kind\":\"REGRESSION\",\"mechanism\":\"ADASSP\",\"rho\":0.1,\"params\":{\"predictors\":[]}}",
                "params.predictors"},
            {"{\"kind\":\"REGRESSION\",\"mechanism\":\"ADASSP\",\"rho\":0.1,\"params\":{\"predictors\":\"0\"}}",
                "params.predictors"},
            {"{\"kind\":\"REGRESSION\",\"mechanism\":\"ADASSP\",\"rho\":0.1,\"params\":{\"level\":1}}", "params.level"},
            {"{\"kind\":\"REGRESSION\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.1}", "mechanism"},
        };
        for (String[] c : bad) {
            Response r = postJson("/v1/datasets/" + m + "/queries/quote", c[0]);
            assertThat(r.status()).as(c[0] + " → " + r).isEqualTo(400);
            assertThat(r.json().get("parameter").asString()).as(c[0]).isEqualTo(c[1]);
        }
    }
}
