package io.privmat.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Inputs that used to answer 500 or be silently altered (issue 16, items 4 and 10). */
class ClientErrorsNot500Test extends ApiTest {

    @Test
    void npyWithANegativeDimensionIs422() {
        String id = createMatrix(1);
        for (String shape : new String[] {"(3, -5)", "(-3, 5)", "(-1,)"}) {
            Response r = put("/v1/datasets/" + id + "/data", "application/x-npy", npyHeaderOnly(shape));
            assertThat(r.status()).as(shape + " " + r).isEqualTo(422);
            assertThat(r.json().get("detail").asString()).contains("negative");
        }
        assertThat(get("/v1/datasets/" + id).json().get("status").asString()).isEqualTo("EMPTY");
    }

    @Test
    void controlCharactersAndLoneSurrogatesInNamesAre400() {
        for (String name : new String[] {"a\\u0000b", "tab\\there", "x\\ud800", "\\udc00y", "\\u007f"}) {
            Response r = postJson("/v1/datasets", "{\"name\":\"" + name + "\",\"kind\":\"GRAPH\",\"vertices\":{\"count\":3},"
                    + "\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
            assertThat(r.status()).as(name + " " + r).isEqualTo(400);
            assertThat(r.json().get("parameter").asString()).isEqualTo("name");
            Response key = sendAs(ADMIN_KEY, HttpRequest.newBuilder(uri("/v1/api-keys"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                            "{\"name\":\"" + name + "\",\"role\":\"ANALYST\"}")));
            assertThat(key.status()).as(name + " " + key).isEqualTo(400);
        }
        // A well-formed pair (an emoji) is fine and comes back unchanged.
        Response ok = postJson("/v1/datasets", "{\"name\":\"ratings \\ud83d\\ude00\",\"kind\":\"GRAPH\",\"vertices\":{\"count\":3},"
                + "\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        assertThat(ok.status()).isEqualTo(201);
        String id = ok.json().get("id").asString();
        assertThat(get("/v1/datasets/" + id).json().get("name").asString()).isEqualTo("ratings \uD83D\uDE00");
    }

    @Test
    void idempotencyKeysMustBePrintableAscii() {
        String id = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String query = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.001}";
        for (String key : new String[] {"a\tb", "\tleading-and-inner\ttab"}) {
            Response r = postJson("/v1/datasets/" + id + "/queries", query, key);
            assertThat(r.status()).as(key + " " + r).isEqualTo(400);
            assertThat(r.json().get("parameter").asString()).isEqualTo("Idempotency-Key");
        }
        assertThat(postJson("/v1/datasets/" + id + "/queries", query, "printable key-1").status()).isEqualTo(202);
    }

    @Test
    void anEdgeWithANonFiniteWeightNamesTheLine() {
        for (String weight : new String[] {"NaN", "-Infinity", "inf"}) {
            String id = createGraph();
            Response r = put("/v1/datasets/" + id + "/data", "text/csv",
                    ("a,b," + weight + "\n").getBytes(StandardCharsets.UTF_8));
            assertThat(r.status()).as(r.toString()).isEqualTo(422);
            assertThat(r.json().get("detail").asString()).contains("NaN and infinite").doesNotContain("header");
            assertThat(r.json().get("line").asInt()).isEqualTo(1);
        }
    }

    @Test
    void unknownRoutesAre404NotForbidden() {
        for (String key : new String[] {ownerKey(), analystKey(), ADMIN_KEY}) {
            for (String path : new String[] {"/v1/nothing-here", "/v1/datasets/x/y/z", "/v2/datasets", "/nope"}) {
                Response r = sendAs(key, HttpRequest.newBuilder(uri(path)).GET());
                assertThat(r.status()).as(path + " " + r).isEqualTo(404);
                assertThat(r.contentType()).startsWith("application/problem+json");
            }
        }
        // Unauthenticated: still 401 first; a route that exists stays under its role rule.
        assertThat(sendAs(null, HttpRequest.newBuilder(uri("/v1/nothing-here")).GET()).status()).isEqualTo(401);
        assertThat(sendAs(analystKey(), HttpRequest.newBuilder(uri("/v1/audit")).GET()).status()).isEqualTo(403);
    }

    @Test
    void aSparseHeaderCannotDeclareAHugeDenseMatrix() {
        String id = createMatrix(1);
        long start = System.nanoTime();
        Response r = put("/v1/datasets/" + id + "/data", "application/x-matrix-market",
                "%%MatrixMarket matrix coordinate real general\n2147483647 1 1\n1 1 0.5\n"
                        .getBytes(StandardCharsets.US_ASCII));
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        assertThat(r.json().get("detail").asString()).contains("max-dense-size").contains("2147483647×1");
        assertThat(System.nanoTime() - start).isLessThan(10_000_000_000L);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM data_chunk WHERE dataset_id = ?::uuid", Long.class, id))
                .isZero();
        // Within the cap, a sparse upload is fine.
        Response ok = put("/v1/datasets/" + id + "/data", "application/x-matrix-market",
                "%%MatrixMarket matrix coordinate real general\n1000 3 1\n1 1 0.5\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
    }

    /**
     * What Spring Security's request firewall refuses (here a path parameter) goes through the
     * servlet error page: a problem too, not Spring Boot's default error body.
     */
    @Test
    void requestsRefusedBeforeAnyControllerAreProblems() {
        Response r = get("/v1/datasets;x=1");
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
        assertThat(r.contentType()).isEqualTo("application/problem+json");
        assertThat(r.json().get("status").asInt()).isEqualTo(400);
        assertThat(r.json().get("type").asString()).startsWith("https://privmat.io/problems/");
        assertThat(r.json().get("instance").asString()).isEqualTo("/v1/datasets;x=1");
        assertThat(r.json().get("detail").asString()).contains("request firewall").contains(";");
    }

    /**
     * An empty path variable ({@code /v1/datasets/$ID/data} with ID unset) is named as such, with the
     * path the client sent as the instance, with or without a key.
     */
    @Test
    void anEmptyPathSegmentIsNamed() {
        for (String key : new String[] {key(), null}) {
            Response r = sendAs(key, HttpRequest.newBuilder(uri("/v1/datasets//data"))
                    .header("Content-Type", "text/csv").PUT(HttpRequest.BodyPublishers.ofString("1\n")));
            assertThat(r.status()).as(r.toString()).isEqualTo(400);
            assertThat(r.contentType()).isEqualTo("application/problem+json");
            assertThat(r.json().get("type").asString()).isEqualTo("https://privmat.io/problems/malformed-request");
            assertThat(r.json().get("instance").asString()).isEqualTo("/v1/datasets//data");
            assertThat(r.json().get("detail").asString()).contains("empty segment").contains("path variable");
        }
    }

    /**
     * Issue 16, item 2: within the dense cap, a 70-byte coordinate body used to declare 200 million
     * empty rows and write 800 MB of row headers. Rows are now tied to the body: at most 65 536 plus 4
     * per body byte (privmat.ingest.max-rows-per-body-byte), exactly at the edge accepted.
     */
    @Test
    void aTinySparseBodyCannotDeclareMillionsOfEmptyRows() {
        String id = createMatrix(1);
        long start = System.nanoTime();
        Response r = put("/v1/datasets/" + id + "/data", "application/x-matrix-market", sparse(200_000_000L));
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        assertThat(r.json().get("line").asLong()).isEqualTo(2);
        assertThat(r.json().get("detail").asString()).contains("max-rows-per-body-byte").contains("200000000 rows");
        assertThat(System.nanoTime() - start).isLessThan(10_000_000_000L);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM data_chunk WHERE dataset_id = ?::uuid", Long.class, id))
                .isZero();
        long edge = 65_536;
        while (edge != 65_536 + 4L * sparse(edge).length) {
            edge = 65_536 + 4L * sparse(edge).length;
        }
        assertThat(put("/v1/datasets/" + id + "/data", "application/x-matrix-market", sparse(edge + 1)).status())
                .isEqualTo(422);
        Response ok = put("/v1/datasets/" + id + "/data", "application/x-matrix-market", sparse(edge));
        assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
        assertThat(ok.json().get("rows").asLong()).isEqualTo(edge);
    }

    private static byte[] sparse(long rows) {
        return ("%%MatrixMarket matrix coordinate real general\n" + rows + " 1 1\n1 1 0.5\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** A .npy file with the given shape and no data (the header alone must be refused). */
    private static byte[] npyHeaderOnly(String shape) {
        String header = "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }";
        int total = 10 + header.length() + 1;
        int pad = (64 - total % 64) % 64;
        header = header + " ".repeat(pad) + "\n";
        ByteBuffer b = ByteBuffer.allocate(10 + header.length()).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        b.putShort((short) header.length()).put(header.getBytes(StandardCharsets.US_ASCII));
        return b.array();
    }
}
