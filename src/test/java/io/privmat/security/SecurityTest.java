package io.privmat.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.config.NativeBlasReport;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Keys, grants, what analysts can see, and the audit log. */
class SecurityTest extends ApiTest {

    private Response as(String key, String method, String path, String json) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path));
        if (json != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return sendAs(key, b);
    }

    @Test
    void keysAreStoredOnlyAsHashesAndShownOnce() {
        Response created = as(ADMIN_KEY, "POST", "/v1/api-keys", "{\"name\":\"secret-check\",\"role\":\"OWNER\"}");
        assertThat(created.status()).isEqualTo(201);
        String key = created.json().get("key").asString();
        assertThat(key).startsWith("pm_").hasSize(46);
        List<Map<String, Object>> rows = jdbc.queryForList("SELECT id::text, prefix, encode(key_hash, 'hex') AS h, "
                + "name, subject, role, created_by FROM api_key");
        for (Map<String, Object> row : rows) {
            for (Object value : row.values()) {
                assertThat(String.valueOf(value)).doesNotContain(key.substring(11)).doesNotContain(ADMIN_KEY.substring(8));
            }
        }
        for (Map<String, Object> row : jdbc.queryForList("SELECT * FROM audit_event")) {
            assertThat(row.toString()).doesNotContain(key.substring(11));
        }
        JsonNode listed = as(ADMIN_KEY, "GET", "/v1/api-keys?limit=1000", null).json();
        assertThat(listed.toString()).doesNotContain(key.substring(11));
        assertThat(listed.findValuesAsString("prefix")).contains(key.substring(0, 11));
        // The key works, until it is revoked.
        assertThat(as(key, "GET", "/v1/datasets", null).status()).isEqualTo(200);
        as(ADMIN_KEY, "DELETE", "/v1/api-keys/" + created.json().get("id").asString(), null);
        Response revoked = as(key, "GET", "/v1/datasets", null);
        assertThat(revoked.status()).isEqualTo(401);
        assertThat(revoked.json().get("type").asString()).isEqualTo("https://privmat.io/problems/unauthenticated");
        assertThat(as("pm_not-a-real-key", "GET", "/v1/datasets", null).status()).isEqualTo(401);
        assertThat(as(ADMIN_KEY, "POST", "/v1/api-keys", "{\"name\":\"x\",\"role\":\"ROOT\"}").json()
                .get("parameter").asString()).isEqualTo("role");
    }

    @Test
    void grantsControlWhatAnAnalystSeesAndNonVisibleIsNotFound() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "ADD_REMOVE");
        String subject = "analyst-grants-" + System.nanoTime();
        String analyst = createKey(subject, "ANALYST");
        Response hidden = as(analyst, "GET", "/v1/datasets/" + dataset, null);
        assertThat(hidden.status()).isEqualTo(404);
        assertThat(hidden.json().get("type").asString()).isEqualTo("https://privmat.io/problems/dataset-not-found");
        assertThat(as(analyst, "GET", "/v1/datasets", null).json().findValuesAsString("id")).doesNotContain(dataset);
        postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"" + subject + "\"}");
        JsonNode seen = as(analyst, "GET", "/v1/datasets/" + dataset, null).json();
        // Analysts see public parameters only: no n under ADD_REMOVE, no data-dependent statistics.
        assertThat(seen.get("cols").asLong()).isEqualTo(3);
        assertThat(seen.get("rows").isNull()).isTrue();
        assertThat(seen.get("nnz").isNull()).isTrue();
        assertThat(seen.get("clippedRows").isNull()).isTrue();
        assertThat(seen.get("storage").isNull()).isTrue();
        JsonNode ownerView = get("/v1/datasets/" + dataset).json();
        assertThat(ownerView.get("rows").asLong()).isEqualTo(4);
        assertThat(ownerView.get("nnz").asLong()).isPositive();
        assertThat(as(analyst, "GET", "/v1/datasets", null).json().findValuesAsString("id")).contains(dataset);
        assertThat(get("/v1/datasets/" + dataset + "/grants").json().findValuesAsString("analyst")).contains(subject);
        assertThat(delete("/v1/datasets/" + dataset + "/grants/" + subject).status()).isEqualTo(204);
        assertThat(as(analyst, "GET", "/v1/datasets/" + dataset, null).status()).isEqualTo(404);
        assertThat(delete("/v1/datasets/" + dataset + "/grants/" + subject).status()).isEqualTo(404);
    }

    @Test
    void aGrantToASubjectWithURIReservedCharactersHasAnEncodedLocation() {
        // Subjects may hold '<', spaces and '/': the Location names the grant as one encoded segment (it
        // was a 500 from URI.create).
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        Response grant = postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"<a b>/c\"}");
        assertThat(grant.status()).as(grant.toString()).isEqualTo(201);
        assertThat(grant.location()).isEqualTo("/v1/datasets/" + dataset + "/grants/%3Ca%20b%3E%2Fc");
        assertThat(get("/v1/datasets/" + dataset + "/grants").json().findValuesAsString("analyst")).contains("<a b>/c");
    }

    @Test
    void jobsAreVisibleToTheirSubmitterAndTheDatasetOwnerOnly() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"" + ANALYST + "\"}");
        postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"analyst-b\"}");
        String job = as(analystKey(), "POST", "/v1/datasets/" + dataset + "/queries",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.001}").json().get("id").asString();
        awaitJob(job);
        assertThat(as(analystKey(), "GET", "/v1/jobs/" + job + "/result", null).status()).isEqualTo(200);
        assertThat(get("/v1/jobs/" + job).status()).isEqualTo(200); // the dataset's owner
        // Another analyst, even one granted the same dataset, does not see it.
        assertThat(as(otherAnalystKey(), "GET", "/v1/jobs/" + job, null).status()).isEqualTo(404);
        assertThat(as(otherAnalystKey(), "DELETE", "/v1/jobs/" + job, null).status()).isEqualTo(404);
        assertThat(as(otherOwnerKey(), "GET", "/v1/jobs/" + job + "/result", null).status()).isEqualTo(404);
        // The same idempotency key used by two analysts names two different jobs.
        String q = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.001}";
        String a = sendAs(analystKey(), HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/queries"))
                .header("Content-Type", "application/json").header("Idempotency-Key", "shared")
                .POST(HttpRequest.BodyPublishers.ofString(q))).json().get("id").asString();
        Response b = sendAs(otherAnalystKey(), HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/queries"))
                .header("Content-Type", "application/json").header("Idempotency-Key", "shared")
                .POST(HttpRequest.BodyPublishers.ofString(q)));
        assertThat(b.status()).isEqualTo(202);
        assertThat(b.json().get("id").asString()).isNotEqualTo(a);
    }

    /** Upload a matrix full of a marker value and scan every analyst-visible response for it. */
    @Test
    void noAnalystResponseEverContainsRawRows() {
        String marker = "0.0123456789";
        StringBuilder csv = new StringBuilder();
        for (int r = 0; r < 50; r++) {
            csv.append(marker).append(',').append("0.0987654321").append(',').append(marker).append('\n');
        }
        String dataset = postJson("/v1/datasets", "{\"name\":\"marked\",\"kind\":\"MATRIX\",\"rowNormBound\":10,"
                + "\"budget\":{\"epsilon\":2,\"delta\":1e-6}}").json().get("id").asString();
        assertThat(put("/v1/datasets/" + dataset + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8))
                .status()).isEqualTo(200);
        postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"" + ANALYST + "\"}");
        String query = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.01}";
        List<Response> seen = new ArrayList<>();
        seen.add(as(analystKey(), "GET", "/v1/datasets", null));
        seen.add(as(analystKey(), "GET", "/v1/datasets/" + dataset, null));
        seen.add(as(analystKey(), "GET", "/v1/datasets/" + dataset + "/budget", null));
        seen.add(as(analystKey(), "POST", "/v1/datasets/" + dataset + "/queries/quote", query));
        Response submitted = as(analystKey(), "POST", "/v1/datasets/" + dataset + "/queries", query);
        seen.add(submitted);
        String job = submitted.json().get("id").asString();
        awaitJob(job);
        seen.add(as(analystKey(), "GET", "/v1/jobs/" + job, null));
        seen.add(as(analystKey(), "GET", "/v1/jobs/" + job + "/result", null));
        seen.add(sendAs(analystKey(), HttpRequest.newBuilder(uri("/v1/jobs/" + job + "/result"))
                .header("Accept", "application/x-npy").GET()));
        seen.add(as(analystKey(), "GET", "/v1/datasets/" + dataset + "/ledger", null));
        seen.add(as(analystKey(), "PUT", "/v1/datasets/" + dataset + "/data", null));
        seen.add(as(analystKey(), "DELETE", "/v1/datasets/" + dataset, null));
        for (Response r : seen) {
            String text = new String(r.body(), StandardCharsets.ISO_8859_1);
            assertThat(text).as(r.toString()).doesNotContain("123456789").doesNotContain("987654321");
        }
        // And no endpoint returns rows to the owner either: the exact column sums never appear.
        assertThat(get("/v1/jobs/" + job + "/result").text()).doesNotContain("0.6172839").doesNotContain("4.938271");
    }

    @Test
    void stateChangingCallsAreAudited() {
        String dataset = createMatrix(1);
        as(analystKey(), "DELETE", "/v1/datasets/" + dataset, null); // refused: 403
        as(null, "POST", "/v1/datasets", "{}");                      // refused: 401
        delete("/v1/datasets/" + dataset);                            // 204
        List<JsonNode> events = new ArrayList<>();
        long after = 0;
        while (true) {
            JsonNode page = as(ADMIN_KEY, "GET", "/v1/audit?limit=1000&after=" + after, null).json();
            page.get("events").forEach(events::add);
            if (page.get("next").isNull()) {
                break;
            }
            after = page.get("next").asLong();
        }
        assertThat(events).anySatisfy(e -> {
            assertThat(e.get("method").asString()).isEqualTo("POST");
            assertThat(e.get("route").asString()).isEqualTo("/v1/datasets");
            assertThat(e.get("datasetId").asString()).isEqualTo(dataset);
            assertThat(e.get("subject").asString()).isEqualTo("owner-a");
            assertThat(e.get("status").asInt()).isEqualTo(201);
        });
        assertThat(events).anySatisfy(e -> {
            assertThat(e.get("method").asString()).isEqualTo("DELETE");
            assertThat(e.get("subject").asString()).isEqualTo(ANALYST);
            assertThat(e.get("status").asInt()).isEqualTo(403);
        });
        assertThat(events).anySatisfy(e -> {
            assertThat(e.get("method").asString()).isEqualTo("DELETE");
            assertThat(e.get("route").asString()).isEqualTo("/v1/datasets/{id}");
            assertThat(e.get("datasetId").asString()).isEqualTo(dataset);
            assertThat(e.get("status").asInt()).isEqualTo(204);
        });
        assertThat(events).anySatisfy(e -> {
            assertThat(e.get("subject").isNull()).isTrue();
            assertThat(e.get("status").asInt()).isEqualTo(401);
        });
        assertThat(events).noneSatisfy(e -> assertThat(e.get("method").asString()).isEqualTo("GET"));
    }

    @Test
    void publicEndpointsNeedNoKey() {
        assertThat(sendAs(null, HttpRequest.newBuilder(uri("/actuator/health")).GET()).status()).isEqualTo(200);
        assertThat(sendAs(null, HttpRequest.newBuilder(uri("/v3/api-docs.yaml")).GET()).status()).isEqualTo(200);
        assertThat(sendAs(null, HttpRequest.newBuilder(uri("/swagger-ui/index.html")).GET()).status()).isEqualTo(200);
        assertThat(sendAs(null, HttpRequest.newBuilder(uri("/actuator/prometheus")).GET()).status()).isEqualTo(401);
        assertThat(sendAs(ownerKey(), HttpRequest.newBuilder(uri("/actuator/prometheus")).GET()).status()).isEqualTo(403);
    }

    /**
     * A job's running time depends on the data (its size where n is private, its sparsity and a
     * sampler's work everywhere), so no timestamp the worker writes reaches an analyst: not the job's
     * start and finish (also not in an idempotent replay), not a COMMIT ledger entry's time, not the
     * release's. The owner sees them all; the analyst keeps its own submission times.
     */
    @Test
    void analystsSeeNoWorkerTimestamps() {
        String subject = "analyst-timing-" + System.nanoTime();
        String analyst = createKey(subject, "ANALYST");
        for (String relation : java.util.List.of("ADD_REMOVE", "REPLACE_ONE")) {
            String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", relation);
            postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"" + subject + "\"}");
            String body = "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.001}";
            java.net.http.HttpRequest.Builder submit = HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/queries"))
                    .header("Content-Type", "application/json").header("Idempotency-Key", "timing-" + relation)
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            Response submitted = sendAs(analyst, submit);
            assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
            String job = submitted.json().get("id").asString();
            assertThat(awaitJob(job).get("finishedAt").isNull()).as("owner sees the times").isFalse();
            JsonNode seen = as(analyst, "GET", "/v1/jobs/" + job, null).json();
            assertThat(seen.get("state").asString()).isEqualTo("DONE");
            assertThat(seen.get("createdAt").isNull()).as("own submission time").isFalse();
            assertThat(seen.get("startedAt").isNull()).as(relation).isTrue();
            assertThat(seen.get("finishedAt").isNull()).as(relation).isTrue();
            Response replay = sendAs(analyst, submit);
            assertThat(replay.json().get("id").asString()).as("the same job").isEqualTo(job);
            assertThat(replay.json().get("finishedAt").isNull()).as("a replay shows no finish time").isTrue();
            JsonNode entries = as(analyst, "GET", "/v1/datasets/" + dataset + "/ledger", null).json().get("entries");
            assertThat(entries.size()).isEqualTo(2);
            for (JsonNode e : entries) {
                boolean reserve = e.get("type").asString().equals("RESERVE");
                assertThat(e.get("createdAt").isNull()).as(e.get("type").asString()).isEqualTo(!reserve);
            }
            JsonNode ownerEntries = get("/v1/datasets/" + dataset + "/ledger").json().get("entries");
            ownerEntries.forEach(e -> assertThat(e.get("createdAt").isNull()).isFalse());
            String release = get("/v1/jobs/" + job + "/result").json().get("releaseId").asString();
            assertThat(as(analyst, "GET", "/v1/releases/" + release, null).json().get("createdAt").isNull()).isTrue();
            assertThat(get("/v1/releases/" + release).json().get("createdAt").isNull()).isFalse();
        }
    }

    @Test
    void infoNamesTheBlasBackendAndWhyWithoutAKeyAndNothingElse() {
        Response info = sendAs(null, HttpRequest.newBuilder(uri("/actuator/info")).GET());
        assertThat(info.status()).as(info.toString()).isEqualTo(200);
        // Only the BLAS facts: anything contributed to this open endpoint later must be added here, knowingly.
        assertThat(info.json().propertyNames()).containsExactly("blas");
        JsonNode blas = info.json().get("blas");
        assertThat(blas.propertyNames()).contains("source", "implementation", "reason", "native", "binding", "mode")
                .isSubsetOf("source", "implementation", "reason", "native", "binding", "mode", "library", "problem");
        assertThat(blas.get("binding").asString()).isEqualTo(LinearAlgebra.implementation());
        assertThat(blas.get("native").asBoolean()).isEqualTo(LinearAlgebra.isNative());
        assertThat(blas.get("source").asString()).isEqualTo(NativeBlasReport.facts().source());
        assertThat(blas.get("reason").asString()).isNotBlank();
        assertThat(blas.get("implementation").asString()).isNotBlank();
        // Which user runs the service is not shown: the home directory reads as ~.
        assertThat(info.text()).doesNotContain(System.getProperty("user.home") + "/");
        // Everything else under /actuator still needs an ADMIN key.
        assertThat(sendAs(null, HttpRequest.newBuilder(uri("/actuator/prometheus")).GET()).status()).isEqualTo(401);
        assertThat(sendAs(null, HttpRequest.newBuilder(uri("/actuator/info")).POST(HttpRequest.BodyPublishers.noBody()))
                .status()).isNotEqualTo(200);
    }
}
