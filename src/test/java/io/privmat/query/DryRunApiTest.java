package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.problem.PrivmatException;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.privmat.support.ApiTest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * POST /v1/datasets/{id}/queries/dry-run (docs/dry-run.md): a result computed on synthetic stand-in
 * data from public facts only, labelled synthetic; it never reads the dataset's rows (a dataset whose
 * chunks are corrupted or gone still dry-runs, while a real query on it fails), and it leaves the
 * ledger, the jobs and the releases unchanged.
 */
class DryRunApiTest extends ApiTest {

    private static final String ZCDP = "{\"epsilon\":1,\"delta\":1e-6}";

    private long count(String table, String datasetId) {
        return jdbc.queryForObject("SELECT count(*) FROM " + table + " WHERE dataset_id = ?::uuid", Long.class,
                datasetId);
    }

    private String state(String datasetId) {
        return count("ledger_entry", datasetId) + "/" + count("job", datasetId) + "/" + count("release", datasetId)
                + "/" + get("/v1/datasets/" + datasetId + "/budget").json().get("spent");
    }

    private Response dryRun(String datasetId, String query, String parameters) {
        return postJson("/v1/datasets/" + datasetId + "/queries/dry-run" + parameters, query);
    }

    @Test
    void neverReadsTheRowsAndChargesNothing() {
        String id = readyMatrix(ZCDP, "REPLACE_ONE");
        String before = state(id);
        // The chunks are replaced by garbage: any read of the rows would fail.
        jdbc.update("UPDATE data_chunk SET payload = '\\x01'::bytea WHERE dataset_id = ?::uuid", id);
        String pca = "{\"kind\":\"PCA\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.01,\"params\":{\"k\":2}}";
        Response r = dryRun(id, pca, "");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode body = r.json();
        assertThat(body.get("synthetic").asBoolean()).isTrue();
        assertThat(body.get("standIn").get("note").asString()).contains("synthetic").contains("not read");
        assertThat(body.get("standIn").get("rows").asInt()).as("REPLACE_ONE: the public count").isEqualTo(4);
        assertThat(body.get("standIn").get("sizeRule").asString()).isEqualTo("the dataset's public count");
        JsonNode result = body.get("result");
        assertThat(result.get("kind").asString()).isEqualTo("PCA");
        assertThat(result.get("eigenvalues")).hasSize(2);
        assertThat(result.get("components")).hasSize(3); // d × k
        assertThat(result.has("jobId")).isFalse();
        assertThat(result.get("accuracy").get("intervals")).isNotEmpty();
        // Four rows at ρ = 0.01: the stand-in's answer is noise, and says so.
        assertThat(result.get("warnings").get(0).get("code").asString()).isEqualTo("NOISE_DOMINATED");
        assertThat(body.get("cost").get("rho").asDouble()).isPositive();
        assertThat(state(id)).as("ledger, jobs, releases and spent budget unchanged").isEqualTo(before);

        // A COVARIANCE release that a job would keep for free queries is not kept.
        Response cov = dryRun(id, "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.01}", "");
        assertThat(cov.status()).as(cov.toString()).isEqualTo(200);
        assertThat(cov.json().get("result").has("releaseId")).isFalse();
        assertThat(state(id)).isEqualTo(before);

        // The corruption is real: a query that reads the rows does not succeed.
        Response submitted = postJson("/v1/datasets/" + id + "/queries", pca);
        assertThat(submitted.status()).isEqualTo(202);
        assertThat(awaitJob(submitted.json().get("id").asString()).get("state").asString()).isEqualTo("FAILED");
    }

    @Test
    void aPrivateCountIsNeverUsedAndTheStandInSizeIsPublic() {
        String id = readyMatrix(ZCDP, "ADD_REMOVE");
        jdbc.update("DELETE FROM data_chunk WHERE dataset_id = ?::uuid", id);
        String sums = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.5}";
        Response r = dryRun(id, sums, "");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode standIn = r.json().get("standIn");
        assertThat(standIn.get("rows").asInt()).isEqualTo(1000);
        assertThat(standIn.get("sizeRule").asString()).contains("private").contains("ADD_REMOVE");
        assertThat(r.json().get("result").has("rows")).as("no row count in an ADD_REMOVE result").isFalse();
        assertThat(r.json().get("result").get("columnSums")).hasSize(3);

        Response fifty = dryRun(id, sums, "?standInSize=50");
        assertThat(fifty.status()).isEqualTo(200);
        assertThat(fifty.json().get("standIn").get("rows").asInt()).isEqualTo(50);
        assertThat(fifty.json().get("standIn").get("sizeRule").asString()).isEqualTo("requested");

        Response tooLarge = dryRun(id, sums, "?standInSize=100000000");
        assertThat(tooLarge.status()).isEqualTo(400);
        assertThat(tooLarge.json().get("parameter").asString()).isEqualTo("standInSize");
        Response badBudget = dryRun(id, "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":-1}", "");
        assertThat(badBudget.status()).isEqualTo(400);
        assertThat(count("ledger_entry", id)).isZero();
    }

    @Test
    void histogramsDryRunWithoutKeepingTheEstimate() {
        Response created = postJson("/v1/datasets", "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"neighbouring\":"
                + "\"REPLACE_ONE\",\"attributes\":[{\"name\":\"age\",\"size\":8}],\"budget\":" + ZCDP + "}");
        String id = created.json().get("id").asString();
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", "age\n0\n1\n1\n7\n".getBytes(StandardCharsets.UTF_8))
                .status()).isEqualTo(200);
        jdbc.update("DELETE FROM data_chunk WHERE dataset_id = ?::uuid", id);
        Response r = dryRun(id, "{\"kind\":\"LINEAR_QUERIES\",\"mechanism\":\"GAUSSIAN_IDENTITY\",\"rho\":0.5,"
                + "\"params\":{\"workload\":{\"type\":\"PREFIX\"}}}", "?standInSize=100000");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode result = r.json().get("result");
        assertThat(result.get("answers")).hasSize(8);
        assertThat(result.get("releaseKind").asString()).isEqualTo("HISTOGRAM_ESTIMATE");
        assertThat(result.has("releaseId")).isFalse();
        // A prefix of 100000 records' histogram at σ ≈ 1.4 is resolved: no warning.
        assertThat(result.get("warnings")).isEmpty();
        assertThat(r.json().get("standIn").get("records").asLong()).isEqualTo(100000);
        assertThat(count("release", id)).isZero();
    }

    @org.springframework.beans.factory.annotation.Autowired
    private FreePlanning gate;

    /**
     * Attack 32, F1 and F2: dry runs and inverse quotes share one gate. While a key has one in
     * progress its next is refused at once (429, Retry-After), whichever endpoint; when the replica's
     * places are all taken every key gets 503. The places are taken directly (no timing).
     */
    @Test
    void oneFreePlanningRequestAtOncePerKeyAndAFewPerReplica() {
        String id = readyMatrix(ZCDP, "REPLACE_ONE");
        Response created = sendAs(ADMIN_KEY, java.net.http.HttpRequest.newBuilder(uri("/v1/api-keys"))
                .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                        "{\"name\":\"gate\",\"subject\":\"owner-a\",\"role\":\"OWNER\"}")));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String key = created.json().get("key").asString();
        Caller caller = new Caller(java.util.UUID.fromString(
                created.json().get("id").asString()), "owner-a", Role.OWNER);
        String sums = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.5}";
        String inverse = "{\"query\":{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\"},\"target\":{\"quantity\":"
                + "\"columnSums\",\"metric\":\"rmsePerEntry\",\"value\":4}}";
        java.util.function.Function<String, Response> dry = k -> sendAs(k, java.net.http.HttpRequest.newBuilder(
                uri("/v1/datasets/" + id + "/queries/dry-run")).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(sums)));
        java.util.function.Function<String, Response> inv = k -> sendAs(k, java.net.http.HttpRequest.newBuilder(
                uri("/v1/datasets/" + id + "/queries/inverse-quote")).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(inverse)));
        try (FreePlanning.Permit held = gate.enter("a test", caller)) {
            for (Response r : java.util.List.of(dry.apply(key), inv.apply(key))) {
                assertThat(r.status()).as(r.toString()).isEqualTo(429);
                assertThat(r.json().get("type").asString()).endsWith("rate-limited");
                assertThat(r.json().get("retryAfterSeconds").asLong()).isEqualTo(1);
                assertThat(r.json().get("detail").asString()).contains("one at a time per key");
            }
        }
        assertThat(dry.apply(key).status()).as("the place is given back").isEqualTo(200);
        assertThat(inv.apply(key).status()).isEqualTo(200);
        java.util.List<FreePlanning.Permit> taken = new java.util.ArrayList<>();
        try {
            PrivmatException full = null;
            while (full == null) {
                try {
                    taken.add(gate.enter("a test", new Caller(java.util.UUID.randomUUID(),
                            "filler", Role.ANALYST)));
                } catch (PrivmatException e) {
                    full = e;
                }
            }
            assertThat(full.type().status()).isEqualTo(503);
            assertThat(taken).hasSize(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
            for (Response r : java.util.List.of(dry.apply(key), inv.apply(key))) {
                assertThat(r.status()).as(r.toString()).isEqualTo(503);
                assertThat(r.json().get("retryAfterSeconds").asLong()).isEqualTo(1);
            }
        } finally {
            taken.forEach(FreePlanning.Permit::close);
        }
        assertThat(dry.apply(key).status()).isEqualTo(200);
    }

    /**
     * Attack 32, F4: the cost is the real query's, planned on the dataset's own public count, not on
     * the stand-in's (RANDOMIZED_RESPONSE's charge depends on m through its grid's inflation).
     */
    @Test
    void theCostIsTheRealQuerysWhateverTheStandInSize() {
        String id = readyMatrix(ZCDP, "REPLACE_ONE");
        String rr = "{\"kind\":\"LOW_RANK\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"rho\":0.5,\"params\":{\"k\":1}}";
        JsonNode quote = postJson("/v1/datasets/" + id + "/queries/quote", rr).json();
        Response r = dryRun(id, rr, "?standInSize=5000");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.json().get("standIn").get("rows").asLong()).isEqualTo(5000);
        assertThat(r.json().get("cost")).isEqualTo(quote.get("cost"));
        assertThat(r.json().get("admissible").asBoolean()).isEqualTo(quote.get("admissible").asBoolean());
        assertThat(r.json().has("realRefusal") && !r.json().get("realRefusal").isNull()).isFalse();
    }

    /** Attack 32, F2: a dry run's work is capped from public sizes: a matrix of more than 1000 columns is a 422. */
    @Test
    void wideMatricesAreRefusedBeforeAnyWork() {
        Response created = postJson("/v1/datasets", "{\"name\":\"wide\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"REPLACE_ONE\",\"budget\":" + ZCDP + "}");
        String id = created.json().get("id").asString();
        String row = String.join(",", java.util.Collections.nCopies(1001, "0"));
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", (row + "\n" + row + "\n")
                .getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(200);
        Response r = dryRun(id, "{\"kind\":\"PCA\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.5,\"params\":{\"k\":1}}",
                "");
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        assertThat(r.json().get("detail").asString()).contains("at most 1000 columns");
        assertThat(r.json().get("limit").asInt()).isEqualTo(1000);
    }
}
