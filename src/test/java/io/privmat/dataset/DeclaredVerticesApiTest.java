package io.privmat.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A graph's vertex universe is declared by its owner at creation; it does not depend on which
 * vertices have edges (docs/adr/0006-privacy-hardening.md).
 */
class DeclaredVerticesApiTest extends ApiTest {

    private String graph(String vertices, String budget) {
        Response r = postJson("/v1/datasets", "{\"name\":\"g\",\"kind\":\"GRAPH\",\"vertices\":" + vertices
                + ",\"budget\":" + budget + "}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        return r.json().get("id").asString();
    }

    private Response upload(String id, String csv) {
        return put("/v1/datasets/" + id + "/data", "text/csv", csv.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theVertexCountIsTheDeclaredOneAndLabelsOutsideItAreRefusedAtUpload() {
        String id = graph("{\"count\":40}", "{\"epsilon\":1,\"delta\":1e-6}");
        Response ok = upload(id, "0,1\n1,2\n");
        assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
        assertThat(ok.json().get("cols").asLong()).isEqualTo(40); // not 3, the vertices with edges

        String other = graph("{\"labels\":[\"a\",\"b\",\"c\"]}", "{\"epsilon\":1,\"delta\":1e-6}");
        Response outside = upload(other, "a,b\nb,z\n");
        assertThat(outside.status()).as(outside.toString()).isEqualTo(422);
        assertThat(upload(other, "a,b\n").json().get("cols").asLong()).isEqualTo(3);
    }

    @Test
    void badDeclarationsAreRefused() {
        String budget = "{\"epsilon\":1,\"delta\":1e-6}";
        for (String body : new String[] {
                "{\"name\":\"m\",\"kind\":\"MATRIX\",\"rowNormBound\":1,\"vertices\":{\"count\":3},\"budget\":" + budget + "}",
                "{\"name\":\"g\",\"kind\":\"GRAPH\",\"vertices\":{\"count\":3,\"labels\":[\"a\"]},\"budget\":" + budget + "}",
                "{\"name\":\"g\",\"kind\":\"GRAPH\",\"vertices\":{\"count\":0},\"budget\":" + budget + "}",
                "{\"name\":\"g\",\"kind\":\"GRAPH\",\"vertices\":{\"labels\":[\"a\",\"a\"]},\"budget\":" + budget + "}",
                // Not declared: the vertex set would come from the edges and tell which vertices have one.
                "{\"name\":\"g\",\"kind\":\"GRAPH\",\"budget\":" + budget + "}"}) {
            Response r = postJson("/v1/datasets", body);
            assertThat(r.status()).as(body + " → " + r).isEqualTo(400);
            assertThat(r.json().get("parameter").asString()).startsWith("vertices");
        }
    }

    @Test
    void aDeclaredVertexWithoutEdgesIsAValidCutVertex() {
        String id = graph("{\"count\":200}", "{\"epsilon\":10,\"delta\":1e-2,\"accounting\":\"BASIC\"}");
        StringBuilder ring = new StringBuilder();
        for (int u = 0; u < 100; u++) {
            ring.append(u).append(',').append((u + 1) % 100).append('\n');
        }
        assertThat(upload(id, ring.toString()).status()).isEqualTo(200);
        JsonNode result = runQuery(id, "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":5,\"delta\":1e-3,"
                + "\"params\":{\"eta\":0.9,\"nu\":0.5}}");
        String release = result.get("releaseId").asString();
        assertThat(get("/v1/releases/" + release).json().get("cols").asInt()).isEqualTo(200);
        // Vertex 150 has no edges; it is a declared vertex, so its cut is answered like any other.
        Response isolated = postJson("/v1/releases/" + release + "/cuts", "{\"sets\":[[\"150\"],[\"7\"]]}");
        assertThat(isolated.status()).as(isolated.toString()).isEqualTo(200);
        Response outside = postJson("/v1/releases/" + release + "/cuts", "{\"sets\":[[\"200\"]]}");
        assertThat(outside.status()).as(outside.toString()).isEqualTo(400);
    }
}
