package io.privmat.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * HISTOGRAM datasets: attributes declared at creation, records (codes or labels) or a counts vector
 * uploaded once, counts stored exactly; bad records are refused with their position and leave
 * nothing behind; the record count is hidden from analysts under ADD_REMOVE.
 */
class HistogramDatasetTest extends ApiTest {

    private static final String BUDGET = "{\"epsilon\":1,\"delta\":1e-6}";
    private static final String ATTRIBUTES = "[{\"name\":\"age\",\"size\":3},"
            + "{\"name\":\"region\",\"labels\":[\"north\",\"south\"]}]";

    @Autowired
    DatasetRows rows;

    private String histogram(String attributes, String neighbouring) {
        Response r = postJson("/v1/datasets", "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"neighbouring\":\"" + neighbouring
                + "\",\"attributes\":" + attributes + ",\"budget\":" + BUDGET + "}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        return r.json().get("id").asString();
    }

    private Response upload(String id, String contentType, byte[] body) {
        return put("/v1/datasets/" + id + "/data", contentType, body);
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void recordsBecomeExactCountsInRowMajorCells() {
        String id = histogram(ATTRIBUTES, "REPLACE_ONE");
        // Header in another order than declared; values as codes or labels, region by label or code.
        Response up = upload(id, "text/csv", text("region,age\nnorth,0\nsouth,2\n1,2\nnorth,0\nnorth,1\n"));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        assertThat(up.json().get("rows").asLong()).as("records").isEqualTo(5);
        assertThat(up.json().get("cols").asLong()).as("cells").isEqualTo(6);
        assertThat(up.json().get("nnz").asLong()).as("non-empty cells").isEqualTo(3);
        // cell = age·2 + region
        assertThat(rows.histogramCounts(UUID.fromString(id))).containsExactly(2, 0, 1, 0, 0, 2);
        JsonNode view = get("/v1/datasets/" + id).json();
        assertThat(view.get("kind").asString()).isEqualTo("HISTOGRAM");
        assertThat(view.get("privacyUnit").asString()).contains("record");
        assertThat(view.get("attributes").get(1).get("labels").get(1).asString()).isEqualTo("south");
        assertThat(view.get("rowNormBound").isNull()).isTrue();
    }

    @Test
    void withoutAHeaderFieldsFollowTheDeclaredOrder() {
        String id = histogram(ATTRIBUTES, "REPLACE_ONE");
        Response up = upload(id, "text/tab-separated-values", text("0\tsouth\n2\tnorth\n"));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        assertThat(rows.histogramCounts(UUID.fromString(id))).containsExactly(0, 1, 0, 0, 1, 0);
    }

    @Test
    void aCountsVectorUploadsAsNpy() {
        String id = histogram(ATTRIBUTES, "ADD_REMOVE");
        Response up = upload(id, "application/x-npy",
                UploadTest.npy("<i8", "(6,)", false, ByteOrder.LITTLE_ENDIAN, 8, 4, 0, 0, 7, 1, 0));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        assertThat(up.json().get("rows").asLong()).isEqualTo(12);
        assertThat(rows.histogramCounts(UUID.fromString(id))).containsExactly(4, 0, 0, 7, 1, 0);
        // Under ADD_REMOVE the record count is private: analysts do not see it.
        String subject = "hist-analyst-" + System.nanoTime();
        String analyst = createKey(subject, "ANALYST");
        postJson("/v1/datasets/" + id + "/grants", "{\"analyst\":\"" + subject + "\"}");
        JsonNode seen = sendAs(analyst, java.net.http.HttpRequest.newBuilder(uri("/v1/datasets/" + id)).GET()).json();
        assertThat(seen.get("rows").isNull()).isTrue();
        assertThat(seen.get("nnz").isNull()).isTrue();
        assertThat(seen.get("cols").asLong()).isEqualTo(6);
    }

    @Test
    void aHeaderWhoseFieldCountDiffersIsRefusedAtLineOne() {
        String id = histogram(ATTRIBUTES, "REPLACE_ONE");
        Response forced = put("/v1/datasets/" + id + "/data?header=true", "text/csv", text("age\n0,north\n"));
        assertThat(forced.status()).as(forced.toString()).isEqualTo(422);
        assertThat(forced.json().get("line").asLong()).isEqualTo(1);
        assertThat(forced.json().get("detail").asString()).contains("header has 1 fields").contains("2 attributes");
        // Not detected as a header (a header names each attribute once): line 1 is a record, refused there.
        Response detected = upload(id, "text/csv", text("age,region,extra\n0,north\n"));
        assertThat(detected.status()).as(detected.toString()).isEqualTo(422);
        assertThat(detected.json().get("line").asLong()).isEqualTo(1);
        assertThat(get("/v1/datasets/" + id).json().get("status").asString()).isEqualTo("EMPTY");
    }

    @Test
    void badRecordsAreRefusedWithTheirPositionAndNothingIsStored() {
        String id = histogram(ATTRIBUTES, "REPLACE_ONE");
        Response outOfDomain = upload(id, "text/csv", text("0,north\n3,north\n"));
        assertThat(outOfDomain.status()).as(outOfDomain.toString()).isEqualTo(422);
        assertThat(outOfDomain.json().get("line").asLong()).isEqualTo(2);
        assertThat(outOfDomain.json().get("column").asLong()).isEqualTo(1);
        assertThat(outOfDomain.json().get("detail").asString()).contains("'age'").doesNotContain("3,");
        Response unknownLabel = upload(id, "text/csv", text("0,east\n"));
        assertThat(unknownLabel.json().get("column").asLong()).isEqualTo(2);
        Response arity = upload(id, "text/csv", text("0,north,extra\n"));
        assertThat(arity.status()).isEqualTo(422);
        assertThat(upload(id, "text/csv", text("")).status()).isEqualTo(422);
        assertThat(upload(id, "application/x-matrix-market", text("%%MatrixMarket\n")).status()).isEqualTo(415);
        for (double[] counts : new double[][] {{1, 2, 3}, {1, -1, 0, 0, 0, 0}, {0.5, 0, 0, 0, 0, 0}}) {
            Response bad = upload(id, "application/x-npy", UploadTest.npy("<f8", "(" + counts.length + ",)", false,
                    ByteOrder.LITTLE_ENDIAN, 8, counts));
            assertThat(bad.status()).as(bad.toString()).isEqualTo(422);
        }
        // Nothing was stored: a good upload still goes through.
        assertThat(get("/v1/datasets/" + id).json().get("status").asString()).isEqualTo("EMPTY");
        assertThat(upload(id, "text/csv", text("1,south\n")).status()).isEqualTo(200);
    }

    @Test
    void badDeclarationsAreRefused() {
        String[][] cases = {
                {"{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"budget\":" + BUDGET + "}", "attributes"},
                {"{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"attributes\":[],\"budget\":" + BUDGET + "}", "attributes"},
                {"{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"attributes\":[{\"name\":\"a\"}],\"budget\":" + BUDGET + "}",
                        "attributes[0].size"},
                {"{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"attributes\":[{\"name\":\"a\",\"size\":2},"
                        + "{\"name\":\"a\",\"size\":2}],\"budget\":" + BUDGET + "}", "attributes[1].name"},
                {"{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"attributes\":[{\"name\":\"a\",\"size\":2,"
                        + "\"labels\":[\"x\"]}],\"budget\":" + BUDGET + "}", "attributes[0].size"},
                {"{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"attributes\":[{\"name\":\"a\",\"size\":2048},"
                        + "{\"name\":\"b\",\"size\":1024}],\"budget\":" + BUDGET + "}", "attributes"},
                {"{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"rowNormBound\":1,\"attributes\":[{\"name\":\"a\","
                        + "\"size\":2}],\"budget\":" + BUDGET + "}", "rowNormBound"},
                {"{\"name\":\"m\",\"kind\":\"MATRIX\",\"rowNormBound\":1,\"attributes\":[{\"name\":\"a\","
                        + "\"size\":2}],\"budget\":" + BUDGET + "}", "attributes"}};
        for (String[] c : cases) {
            Response r = postJson("/v1/datasets", c[0]);
            assertThat(r.status()).as(c[0] + " → " + r).isEqualTo(400);
            assertThat(r.json().get("parameter").asString()).as(c[0]).isEqualTo(c[1]);
        }
    }
}
