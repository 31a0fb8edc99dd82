package io.privmat.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 5: text uploads and labels are strict UTF-8. RATINGS user labels {@code \xffa} and
 * {@code \xfea} used to decode to the same U+FFFD + "a" and pool two users' ratings under one
 * privacy unit; every malformed sequence is now a 422 with its line and column, and nothing is stored.
 */
class StrictDecodingTest extends ApiTest {

    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            if (p instanceof String s) {
                out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            } else {
                out.write((Integer) p);
            }
        }
        return out.toByteArray();
    }

    private String created(String json) {
        Response r = postJson("/v1/datasets", json);
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        return r.json().get("id").asString();
    }

    private static void assertRefusedAt(Response r, int line, int column) {
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        assertThat(r.json().get("type").asString()).endsWith("/invalid-data");
        assertThat(r.json().get("line").asInt()).isEqualTo(line);
        assertThat(r.json().get("column").asInt()).isEqualTo(column);
        assertThat(r.json().get("detail").asString()).contains("UTF-8").doesNotContain("\uFFFD");
    }

    @Test
    void malformedUserLabelsAreRefusedNotMerged() {
        String id = created("{\"name\":\"r\",\"kind\":\"RATINGS\",\"neighbouring\":\"ADD_REMOVE\",\"ratings\":"
                + "{\"items\":3,\"min\":1,\"max\":5,\"perUserCap\":3},\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        Response r = put("/v1/datasets/" + id + "/data", "text/csv",
                bytes("user,item,rating\n", 0xff, "a,0,4\n", 0xfe, "a,1,2\n"));
        assertRefusedAt(r, 2, 1);
        assertThat(get("/v1/datasets/" + id).json().get("status").asString()).as("nothing stored").isEqualTo("EMPTY");
        // Valid multi-byte labels are distinct users, as before.
        Response ok = put("/v1/datasets/" + id + "/data", "text/csv",
                bytes("user,item,rating\n\u00e9a,0,4\n\u65e5a,1,2\n"));
        assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
        assertThat(ok.json().get("rows").asLong()).as("two users").isEqualTo(2);
    }

    @Test
    void everyTextFieldIsStrict() {
        // A histogram label, a header naming an attribute, a graph vertex, a truncated sequence.
        String hist = created("{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"budget\":{\"epsilon\":1,\"delta\":1e-6},"
                + "\"attributes\":[{\"name\":\"a\",\"size\":2},{\"name\":\"c\",\"labels\":[\"x\",\"y\"]}]}");
        assertRefusedAt(put("/v1/datasets/" + hist + "/data", "text/csv", bytes("a,c\n0,x\n1,", 0xc3, "\n")), 3, 2);
        assertRefusedAt(put("/v1/datasets/" + hist + "/data", "text/csv", bytes("a,", 0xed, 0xa0, 0x80, "\n0,x\n")),
                1, 2);
        String graph = createGraph();
        assertRefusedAt(put("/v1/datasets/" + graph + "/data", "text/csv", bytes("a,b\nc,", 0xc0, 0xaf, "\n")), 2, 2);
        String matrix = createMatrix(1);
        assertRefusedAt(put("/v1/datasets/" + matrix + "/data", "text/csv", bytes("x,", 0xff, "\n0.1,0.2\n")), 1, 2);
    }

    @Test
    void malformedJsonTextIsRefusedToo() {
        Response r = send(HttpRequest.newBuilder(uri("/v1/datasets")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes("{\"name\":\"", 0xff, "a\",\"kind\":\"MATRIX\","
                        + "\"rowNormBound\":1,\"budget\":{\"epsilon\":1,\"delta\":1e-6}}"))));
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
        assertThat(r.contentType()).contains("problem+json");
    }

    @Test
    void malformedPercentEncodingInAQueryOrPathIsRefusedNotReplaced() {
        // A query parameter that is not percent-encoded UTF-8: a 400 (it was a 500), nothing stored.
        Response w = send(HttpRequest.newBuilder(uri("/v1/workloads?name=a%FFb")).header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofString("1,0,0,0.59375\n")));
        assertThat(w.status()).as(w.toString()).isEqualTo(400);
        assertThat(w.contentType()).contains("problem+json");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM workload WHERE name LIKE ?", Long.class, "a%b"))
                .as("nothing stored, no replacement character").isZero();
        Response list = get("/v1/jobs?state=%C0%AF");
        assertThat(list.status()).as(list.toString()).isEqualTo(400);
        // In a path: refused before any lookup.
        Response path = get("/v1/workloads/%FF");
        assertThat(path.status()).as(path.toString()).isBetween(400, 404);
        assertThat(path.text()).doesNotContain("\uFFFD");
    }
}
