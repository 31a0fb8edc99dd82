package io.privmat.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

class DatasetApiTest extends ApiTest {

    @Test
    void createsAndReadsBackADataset() {
        Response created = postJson("/v1/datasets", """
                {"name":"ratings","kind":"MATRIX","neighbouring":"ADD_REMOVE","rowNormBound":2.5,
                 "budget":{"epsilon":3,"delta":1e-5,"accounting":"BASIC"}}""");
        assertThat(created.status()).isEqualTo(201);
        JsonNode body = created.json();
        String id = body.get("id").asString();
        assertThat(created.location()).isEqualTo("/v1/datasets/" + id);
        assertThat(body.get("status").asString()).isEqualTo("EMPTY");
        assertThat(body.get("rows").isNull()).isTrue();
        JsonNode fetched = get("/v1/datasets/" + id).json();
        assertThat(fetched.get("name").asString()).isEqualTo("ratings");
        assertThat(fetched.get("neighbouring").asString()).isEqualTo("ADD_REMOVE");
        assertThat(fetched.get("rowNormBound").asDouble()).isEqualTo(2.5);
        assertThat(fetched.get("budget").get("accounting").asString()).isEqualTo("BASIC");
        assertThat(fetched.get("budget").get("delta").decimalValue()).isEqualByComparingTo("0.00001");
    }

    @Test
    void defaultsToReplaceOneAndZcdp() {
        JsonNode body = postJson("/v1/datasets", """
                {"name":"g","kind":"GRAPH","vertices":{"count":3},"budget":{"epsilon":1,"delta":1e-6}}""").json();
        assertThat(body.get("neighbouring").asString()).isEqualTo("REPLACE_ONE");
        assertThat(body.get("budget").get("accounting").asString()).isEqualTo("ZCDP");
        assertThat(body.get("edgeWeightBound").asDouble()).isEqualTo(1.0);
        assertThat(body.get("privacyUnit").asString()).contains("edge");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "missing name      | {\"kind\":\"MATRIX\",\"rowNormBound\":1,\"budget\":{\"epsilon\":1,\"delta\":1e-6}} | name",
        "bad kind          | {\"name\":\"a\",\"kind\":\"TENSOR\",\"rowNormBound\":1,\"budget\":{\"epsilon\":1,\"delta\":1e-6}} | kind",
        "no bound          | {\"name\":\"a\",\"kind\":\"MATRIX\",\"budget\":{\"epsilon\":1,\"delta\":1e-6}} | rowNormBound",
        "negative bound    | {\"name\":\"a\",\"kind\":\"MATRIX\",\"rowNormBound\":-1,\"budget\":{\"epsilon\":1,\"delta\":1e-6}} | rowNormBound",
        "bound below floor | {\"name\":\"a\",\"kind\":\"MATRIX\",\"rowNormBound\":1e-156,\"budget\":{\"epsilon\":1,\"delta\":1e-6}} | rowNormBound",
        "graph with bound  | {\"name\":\"a\",\"kind\":\"GRAPH\",\"rowNormBound\":1,\"budget\":{\"epsilon\":1,\"delta\":1e-6}} | rowNormBound",
        "bad relation      | {\"name\":\"a\",\"kind\":\"GRAPH\",\"neighbouring\":\"SWAP\",\"budget\":{\"epsilon\":1,\"delta\":1e-6}} | neighbouring",
        "no budget         | {\"name\":\"a\",\"kind\":\"GRAPH\"} | budget",
        "epsilon zero      | {\"name\":\"a\",\"kind\":\"GRAPH\",\"budget\":{\"epsilon\":0,\"delta\":1e-6}} | budget.epsilon",
        "epsilon too large | {\"name\":\"a\",\"kind\":\"GRAPH\",\"budget\":{\"epsilon\":1000,\"delta\":1e-6}} | budget.epsilon",
        "no epsilon        | {\"name\":\"a\",\"kind\":\"GRAPH\",\"budget\":{\"delta\":1e-6}} | budget.epsilon",
        "delta too large   | {\"name\":\"a\",\"kind\":\"GRAPH\",\"budget\":{\"epsilon\":1,\"delta\":0.5}} | budget.delta",
        "zcdp delta zero   | {\"name\":\"a\",\"kind\":\"GRAPH\",\"budget\":{\"epsilon\":1,\"delta\":0}} | budget.delta",
        "pure with delta   | {\"name\":\"a\",\"kind\":\"GRAPH\",\"budget\":{\"epsilon\":1,\"delta\":1e-6,\"accounting\":\"PURE\"}} | budget.delta",
        "bad accounting    | {\"name\":\"a\",\"kind\":\"GRAPH\",\"budget\":{\"epsilon\":1,\"delta\":1e-6,\"accounting\":\"RDP\"}} | budget.accounting",
        "bad fraction      | {\"name\":\"a\",\"kind\":\"GRAPH\",\"budget\":{\"epsilon\":1,\"delta\":1e-6,\"approxDeltaFraction\":1}} | budget.approxDeltaFraction"
    })
    void rejectsInvalidParametersNamingThem(String label, String json, String parameter) {
        Response r = postJson("/v1/datasets", json);
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        JsonNode problem = r.json();
        assertThat(problem.get("type").asString()).isEqualTo("https://privmat.io/problems/invalid-parameter");
        assertThat(problem.get("parameter").asString()).isEqualTo(parameter);
        assertThat(problem.get("detail").asString()).contains(parameter);
    }

    @Test
    void rejectsMalformedJsonAndUnknownFields() {
        for (String body : new String[] {"{not json", "{\"name\":\"a\",\"kind\":\"GRAPH\",\"epsilom\":1,"
                + "\"budget\":{\"epsilon\":1,\"delta\":1e-6}}", "{\"name\":\"a\",\"kind\":\"GRAPH\",\"budget\":"
                + "{\"epsilon\":\"lots\",\"delta\":1e-6}}"}) {
            Response r = postJson("/v1/datasets", body);
            assertThat(r.status()).as(body).isEqualTo(400);
            assertThat(r.json().get("type").asString()).isEqualTo("https://privmat.io/problems/malformed-request");
        }
    }

    @Test
    void listsPagesAndDeletes() {
        String a = createMatrix(1);
        String b = createGraph();
        JsonNode page = get("/v1/datasets?offset=0&limit=500").json();
        long total = page.get("total").asLong();
        assertThat(total).isGreaterThanOrEqualTo(2);
        // Oldest first: the two just created are on the last page (the suite shares one owner).
        JsonNode last = get("/v1/datasets?offset=" + Math.max(0, total - 2) + "&limit=500").json();
        assertThat(last.get("items").findValuesAsString("id")).contains(a, b);
        assertThat(get("/v1/datasets?limit=0").status()).isEqualTo(400);
        assertThat(get("/v1/datasets?offset=-1").json().get("parameter").asString()).isEqualTo("offset");
        assertThat(get("/v1/datasets?limit=abc").json().get("parameter").asString()).isEqualTo("limit");

        assertThat(delete("/v1/datasets/" + a).status()).isEqualTo(204);
        Response gone = get("/v1/datasets/" + a);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.json().get("type").asString()).isEqualTo("https://privmat.io/problems/dataset-not-found");
        assertThat(delete("/v1/datasets/" + a).status()).isEqualTo(404);
        assertThat(get("/v1/datasets/not-a-uuid").status()).isEqualTo(400);
    }

    @Test
    void unknownPathsAndMethodsAreDeniedAsProblems() {
        // A path no route serves is 404 to an authenticated caller; a path that exists with a
        // method it lacks stays under the deny-all rule (never silently open).
        Response r = get("/v1/nothing-here");
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.json().get("type").asString()).isEqualTo("https://privmat.io/problems/not-found");
        Response m = send(java.net.http.HttpRequest.newBuilder(uri("/v1/datasets"))
                .method("PATCH", java.net.http.HttpRequest.BodyPublishers.noBody()));
        assertThat(m.status()).isEqualTo(403);
        assertThat(sendAs(null, java.net.http.HttpRequest.newBuilder(uri("/v1/nothing-here")).GET()).status())
                .isEqualTo(401);
    }

    @Test
    void healthProbesAndPrometheus() {
        assertThat(sendAs(null, java.net.http.HttpRequest.newBuilder(uri("/actuator/health/liveness")).GET()).json().get("status").asString()).isEqualTo("UP");
        assertThat(sendAs(null, java.net.http.HttpRequest.newBuilder(uri("/actuator/health/readiness")).GET()).json().get("status").asString()).isEqualTo("UP");
        Response prometheus = sendAs(ADMIN_KEY, java.net.http.HttpRequest.newBuilder(uri("/actuator/prometheus")).GET());
        assertThat(prometheus.status()).isEqualTo(200);
        assertThat(prometheus.text()).contains("jvm_memory_used_bytes");
    }
}
