package io.privmat.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.support.ApiTest;
import io.privmat.support.Npy;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Every upload format, read back through the streaming reader, and every bad input. */
class UploadTest extends ApiTest {

    @Autowired
    DatasetRows rows;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private double[][] readBack(String id) {
        List<double[]> out = new ArrayList<>();
        rows.forEachMatrixChunk(UUID.fromString(id), chunk -> {
            double[] dense = chunk.toDense();
            for (int r = 0; r < chunk.rowCount(); r++) {
                double[] row = new double[chunk.cols()];
                System.arraycopy(dense, r * chunk.cols(), row, 0, chunk.cols());
                out.add(row);
            }
        });
        return out.toArray(double[][]::new);
    }

    private long chunkCount(String id) {
        return jdbc.queryForObject("SELECT count(*) FROM data_chunk WHERE dataset_id = ?::uuid", Long.class, id);
    }

    @Test
    void csvWithHeaderIsStoredAndClipped() {
        String id = createMatrix(1.0);
        Response r = put("/v1/datasets/" + id + "/data", "text/csv; charset=utf-8",
                utf8("a,b,c\n0.1,0.2,-0.2\n3,4,0\r\n\n1e-3,+2.5E-1,0\n"));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode d = r.json();
        assertThat(d.get("status").asString()).isEqualTo("READY");
        assertThat(d.get("rows").asLong()).isEqualTo(3);
        assertThat(d.get("cols").asLong()).isEqualTo(3);
        assertThat(d.get("nnz").asLong()).isEqualTo(7);
        assertThat(d.get("clippedRows").asLong()).isEqualTo(1);
        assertThat(d.get("sourceFormat").asString()).isEqualTo("CSV");
        double[][] m = readBack(id);
        assertThat(m[0]).containsExactly(0.1, 0.2, -0.2);
        assertThat(m[1][0]).isCloseTo(0.6, within(1e-15));
        assertThat(m[1][1]).isCloseTo(0.8, within(1e-15));
        assertThat(Math.hypot(m[1][0], m[1][1])).isLessThanOrEqualTo(1.0);
        assertThat(m[2]).containsExactly(0.001, 0.25, 0.0);
    }

    @Test
    void rfc4180CsvWithQuotedFieldsAndCrlf() {
        String id = createMatrix(10.0);
        Response r = put("/v1/datasets/" + id + "/data", "text/csv",
                utf8("\"price, EUR\",\"say \"\"size\"\"\",\"multi\r\nline\"\r\n\"1.5\",2,3\r\n4,\"-5e-1\", 6 \r\n"));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.json().get("rows").asLong()).isEqualTo(2);
        assertThat(r.json().get("cols").asLong()).isEqualTo(3);
        double[][] m = readBack(id);
        assertThat(m[0]).containsExactly(1.5, 2.0, 3.0);
        assertThat(m[1]).containsExactly(4.0, -0.5, 6.0);
    }

    @Test
    void headerNamesArePublicColumnLabelsReturnedWithResults() {
        String id = createMatrix(1.0);
        Response r = put("/v1/datasets/" + id + "/data", "text/csv",
                utf8("\"height, cm\",weight,\"say \"\"x\"\"\"\n0.1,0.2,0.3\n0.3,0.2,0.1\n"));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.json().get("columns").valueStream().map(JsonNode::asString).toList())
                .containsExactly("height, cm", "weight", "say \"x\"");
        assertThat(postJson("/v1/datasets/" + id + "/grants", "{\"analyst\":\"" + ANALYST + "\"}").status())
                .isEqualTo(201);
        JsonNode seen = sendAs(analystKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/datasets/" + id)).GET())
                .json();
        assertThat(seen.get("columns").size()).as("column names are public: the analyst sees them").isEqualTo(3);
        JsonNode result = runQuery(id, "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.001}");
        assertThat(result.get("columns").get(0).asString()).isEqualTo("height, cm");
        assertThat(result.get("columnSums").size()).isEqualTo(result.get("columns").size());

        String plain = createMatrix(1.0);
        JsonNode unlabelled = put("/v1/datasets/" + plain + "/data", "text/csv", utf8("1,0\n0,1\n")).json();
        assertThat(!unlabelled.has("columns") || unlabelled.get("columns").isNull()).as("no header, no names").isTrue();
        JsonNode unnamed = runQuery(plain, "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.001}");
        assertThat(unnamed.has("columns")).isFalse();
    }

    @Test
    void aHeaderWhoseFieldCountDiffersFromTheRowsIsRefusedNotDropped() {
        // Forced: line 1 and both counts are named; nothing is stored.
        String forced = createMatrix(1.0);
        Response r = put("/v1/datasets/" + forced + "/data?header=true", "text/csv", utf8("a,b\n1,2,3\n4,5,6\n"));
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        assertThat(r.json().get("line").asLong()).isEqualTo(1);
        assertThat(r.json().get("detail").asString()).contains("header has 2 fields").contains("rows have 3");
        assertNothingStored(forced);
        // Detected (a first line without numbers): the same rule, saying why line 1 was a header.
        String detected = createMatrix(1.0);
        Response d = put("/v1/datasets/" + detected + "/data", "text/tab-separated-values",
                utf8("x\ty\tz\n1\t2\n"));
        assertThat(d.status()).as(d.toString()).isEqualTo(422);
        assertThat(d.json().get("line").asLong()).isEqualTo(1);
        assertThat(d.json().get("detail").asString()).contains("header has 3 fields").contains("rows have 2")
                .contains("read as a header");
        assertNothingStored(detected);
        // A header that fits keeps its names.
        assertThat(put("/v1/datasets/" + detected + "/data", "text/csv", utf8("x,y\n1,2\n")).json().get("columns")
                .size()).isEqualTo(2);
    }

    @Test
    void aTwoNameEdgeListHeaderIsAnEdgeUnlessForcedAndTheRefusalSaysSo() {
        String graph = createGraph();
        Response r = put("/v1/datasets/" + graph + "/data", "text/csv", utf8("source,target\na,b\n"));
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        assertThat(r.json().get("line").asLong()).isEqualTo(1);
        assertThat(r.json().get("detail").asString()).contains("pass header=true");
        // A later unknown label gets no such hint.
        Response later = put("/v1/datasets/" + graph + "/data", "text/csv", utf8("a,b\nb,source\n"));
        assertThat(later.json().get("line").asLong()).isEqualTo(2);
        assertThat(later.json().get("detail").asString()).doesNotContain("header");
        assertThat(put("/v1/datasets/" + graph + "/data?header=true", "text/csv", utf8("source,target\na,b\n"))
                .json().get("nnz").asLong()).isEqualTo(1);
        // Three fields with a non-numeric third are detected as a header.
        String other = createGraph();
        assertThat(put("/v1/datasets/" + other + "/data", "text/csv", utf8("u,v,w\na,b,0.5\n")).status())
                .isEqualTo(200);
    }

    @Test
    void overlongColumnNamesAreRefusedWithTheirPosition() {
        String id = createMatrix(1.0);
        Response r = put("/v1/datasets/" + id + "/data", "text/csv", utf8("a," + "b".repeat(201) + "\n1,2\n"));
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        assertThat(r.json().get("line").asLong()).isEqualTo(1);
        assertThat(r.json().get("column").asInt()).isEqualTo(2);
        assertNothingStored(id);
    }

    @Test
    void tsvWithoutHeaderAndExplicitHeaderFlag() {
        String id = createMatrix(10);
        Response r = put("/v1/datasets/" + id + "/data", "text/tab-separated-values", utf8("1\t2\n3\t4\n"));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(readBack(id)).isDeepEqualTo(new double[][] {{1, 2}, {3, 4}});
        String forced = createMatrix(10);
        assertThat(put("/v1/datasets/" + forced + "/data?header=true", "text/csv", utf8("1,2\n3,4\n")).json()
                .get("rows").asLong()).isEqualTo(1);
    }

    @Test
    void sparseContentIsStoredSparse() {
        String id = createMatrix(100);
        StringBuilder csv = new StringBuilder();
        for (int r = 0; r < 50; r++) {
            for (int c = 0; c < 40; c++) {
                csv.append(c == r % 40 ? String.valueOf(r + 1) : "0").append(c < 39 ? "," : "\n");
            }
        }
        JsonNode d = put("/v1/datasets/" + id + "/data", "text/csv", utf8(csv.toString())).json();
        assertThat(d.get("storage").asString()).isEqualTo("SPARSE");
        assertThat(d.get("nnz").asLong()).isEqualTo(50);
        double[][] m = readBack(id);
        assertThat(m[49][9]).isEqualTo(50.0);
        assertThat(m[49][8]).isZero();
    }

    @Test
    void matrixMarketCoordinateInColumnMajorOrder() {
        String id = createMatrix(100);
        String mm = """
                %%MatrixMarket matrix coordinate real general
                % a comment
                3 4 4
                3 1 5.5
                1 2 -1
                2 2 2e0
                1 4 7
                """;
        Response r = put("/v1/datasets/" + id + "/data", "application/x-matrix-market", utf8(mm));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.json().get("nnz").asLong()).isEqualTo(4);
        assertThat(readBack(id)).isDeepEqualTo(new double[][] {{0, -1, 0, 7}, {0, 2, 0, 0}, {5.5, 0, 0, 0}});
    }

    @Test
    void matrixMarketSymmetricPatternAndArray() {
        String sym = createMatrix(100);
        put("/v1/datasets/" + sym + "/data", "application/x-matrix-market",
                utf8("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n"));
        assertThat(readBack(sym)).isDeepEqualTo(new double[][] {{0, 1, 0}, {1, 0, 0}, {0, 0, 1}});
        String arr = createMatrix(100);
        Response r = put("/v1/datasets/" + arr + "/data", "application/x-matrix-market",
                utf8("%%MatrixMarket matrix array integer general\n2 3\n1\n2\n3\n4\n5\n6\n"));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(readBack(arr)).isDeepEqualTo(new double[][] {{1, 3, 5}, {2, 4, 6}});
        String skew = createMatrix(100);
        put("/v1/datasets/" + skew + "/data", "application/x-matrix-market",
                utf8("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n"));
        assertThat(readBack(skew)).isDeepEqualTo(new double[][] {{0, -1, -2}, {1, 0, -3}, {2, 3, 0}});
    }

    static byte[] npy(String descr, String shape, boolean fortran, ByteOrder order, int itemSize, double... values) {
        return Npy.bytes(descr, shape, fortran, order, itemSize, values);
    }

    @ParameterizedTest
    @CsvSource({"<f8, 8", ">f8, 8", "<f4, 4", "<i4, 4", "|u1, 1", "<i8, 8"})
    void npyDtypes(String descr, int size) {
        String id = createMatrix(1000);
        ByteOrder order = descr.startsWith(">") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        Response r = put("/v1/datasets/" + id + "/data", "application/x-npy",
                npy(descr, "(2, 3)", false, order, size, 1, 2, 3, 4, 5, 250));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.json().get("sourceFormat").asString()).isEqualTo("NPY");
        assertThat(readBack(id)).isDeepEqualTo(new double[][] {{1, 2, 3}, {4, 5, 250}});
    }

    @Test
    void npyOneDimensionalIsAColumn() {
        String id = createMatrix(1000);
        put("/v1/datasets/" + id + "/data", "application/x-npy", npy("<f8", "(3,)", false, ByteOrder.LITTLE_ENDIAN, 8, 1, 2, 3));
        assertThat(readBack(id)).isDeepEqualTo(new double[][] {{1}, {2}, {3}});
    }

    @Test
    void edgeListWithStringLabelsAndWeights() {
        String id = createGraph("alice", "bob", "carol", "dave");
        Response r = put("/v1/datasets/" + id + "/data", "text/csv",
                utf8("source,target,weight\nalice,bob,0.5\nbob,carol,1\n\"dave\",alice,0\n"));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode d = r.json();
        assertThat(d.get("rows").asLong()).isEqualTo(4);
        assertThat(d.get("nnz").asLong()).isEqualTo(3);
        assertThat(d.get("storage").asString()).isEqualTo("EDGES");
        List<String> labels = jdbc.queryForList(
                "SELECT label FROM graph_vertex WHERE dataset_id = ?::uuid ORDER BY vertex_id", String.class, id);
        assertThat(labels).containsExactly("alice", "bob", "carol", "dave");
        List<String> edges = new ArrayList<>();
        rows.forEachEdgeChunk(UUID.fromString(id), c -> {
            for (int i = 0; i < c.count(); i++) {
                edges.add(c.u()[i] + "-" + c.v()[i] + ":" + c.weight()[i]);
            }
        });
        assertThat(edges).containsExactly("0-1:0.5", "1-2:1.0", "0-3:0.0");
    }

    @Test
    void edgeListAcrossManyBatchesKeepsLabelsDense() {
        int n = 45_000;
        String id = createGraph(labels("v", n + 1));
        StringBuilder tsv = new StringBuilder();
        for (int i = 0; i < n; i++) {
            tsv.append("v").append(i).append('\t').append("v").append(i + 1).append('\n');
        }
        JsonNode d = put("/v1/datasets/" + id + "/data", "text/tab-separated-values", utf8(tsv.toString())).json();
        assertThat(d.get("rows").asLong()).isEqualTo(n + 1);
        assertThat(d.get("nnz").asLong()).isEqualTo(n);
        Long maxId = jdbc.queryForObject("SELECT max(vertex_id) FROM graph_vertex WHERE dataset_id = ?::uuid", Long.class, id);
        assertThat(maxId).isEqualTo(n);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "NaN                | text/csv | 1,2\\n3,NaN\\n        | 2 | 2 | NaN and infinite",
        "Infinity           | text/csv | 1,2\\n-Infinity,3\\n  | 2 | 1 | NaN and infinite",
        "overflow to inf    | text/csv | 1,2\\n1e999,3\\n      | 2 | 1 | not a decimal number",
        "ragged short       | text/csv | 1,2,3\\n4,5\\n        | 2 | 0 | ragged",
        "ragged long        | text/csv | 1,2\\n4,5,6\\n        | 2 | 0 | ragged",
        "not a number       | text/csv | 1,2\\n4,x5\\n         | 2 | 2 | not a decimal number",
        "suffix             | text/csv | 1,2\\n4,5f\\n         | 2 | 2 | not a decimal number",
        "empty field        | text/csv | 1,2\\n4,\\n           | 2 | 2 | empty field",
        "mixed first line   | text/csv | a,2\\n4,5\\n          | 1 | 1 | mixes numbers",
        "tsv with comma     | text/tab-separated-values | 1,2\\n3,4\\n | 2 | 1 | separated by ','",
        "semicolon csv      | text/csv | a;b\\n1;2\\n         | 2 | 1 | separated by ';'",
        "unclosed quote     | text/csv | 1,2\\n3,'4\\n5,6\\n     | 2 | 0 | quoted field is not closed",
        "text after quote   | text/csv | 1,2\\n3,'4'x\\n       | 2 | 2 | after the closing quote"
    })
    void rejectsBadDelimitedContentWithPosition(String label, String type, String body, long line, int column,
            String rule) {
        String id = createMatrix(1);
        Response r = put("/v1/datasets/" + id + "/data", type, utf8(body.replace("\\n", "\n").replace('\'', '"')));
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        JsonNode p = r.json();
        assertThat(p.get("type").asString()).isEqualTo("https://privmat.io/problems/invalid-data");
        assertThat(p.get("line").asLong()).isEqualTo(line);
        if (column > 0) {
            assertThat(p.get("column").asInt()).isEqualTo(column);
        }
        assertThat(p.get("detail").asString()).contains(rule);
        assertThat(p.get("detail").asString()).doesNotContain("x5").doesNotContain("1e999");
        assertNothingStored(id);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "bad banner         | %%MatrixMarket tensor coordinate real general\\n1 1 1\\n1 1 1\\n   | 1 | banner",
        "complex            | %%MatrixMarket matrix coordinate complex general\\n1 1 1\\n1 1 1 0\\n | 1 | complex",
        "index out of range | %%MatrixMarket matrix coordinate real general\\n2 2 1\\n3 1 1\\n   | 3 | index outside",
        "too few entries    | %%MatrixMarket matrix coordinate real general\\n2 2 2\\n1 1 1\\n   | 4 | only 1 of the 2",
        "too many entries   | %%MatrixMarket matrix coordinate real general\\n2 2 1\\n1 1 1\\n2 2 1\\n | 4 | more entries",
        "duplicate          | %%MatrixMarket matrix coordinate real general\\n2 2 2\\n1 1 1\\n1 1 2\\n | 4 | duplicate entry",
        "upper in symmetric | %%MatrixMarket matrix coordinate real symmetric\\n2 2 1\\n1 2 1\\n | 3 | lower triangle",
        "nan value          | %%MatrixMarket matrix coordinate real general\\n2 2 1\\n1 1 nan\\n | 3 | NaN",
        "missing size       | %%MatrixMarket matrix coordinate real general\\n% only comments\\n | 0 | missing the size line"
    })
    void rejectsBadMatrixMarket(String label, String body, long line, String rule) {
        String id = createMatrix(1);
        Response r = put("/v1/datasets/" + id + "/data", "application/x-matrix-market", utf8(body.replace("\\n", "\n")));
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        if (line > 0) {
            assertThat(r.json().get("line").asLong()).isEqualTo(line);
        }
        assertThat(r.json().get("detail").asString()).contains(rule);
        assertNothingStored(id);
    }

    @Test
    void rejectsBadNpy() {
        String id = createMatrix(1);
        byte[] good = npy("<f8", "(2, 2)", false, ByteOrder.LITTLE_ENDIAN, 8, 1, 2, 3, 4);
        byte[] truncated = java.util.Arrays.copyOf(good, good.length - 3);
        assertNpyProblem(id, truncated, "truncated");
        assertNpyProblem(id, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9}, "magic");
        assertNpyProblem(id, npy("<f8", "(2, 2)", true, ByteOrder.LITTLE_ENDIAN, 8, 1, 2, 3, 4), "Fortran");
        assertNpyProblem(id, npy("<f8", "(2, 1)", false, ByteOrder.LITTLE_ENDIAN, 8, 1, Double.NaN), "NaN");
        assertNpyProblem(id, npy("<f8", "(1, 1, 1)", false, ByteOrder.LITTLE_ENDIAN, 8, 1), "2-D");
        byte[] trailing = java.util.Arrays.copyOf(good, good.length + 8);
        assertNpyProblem(id, trailing, "trailing");
        Response nan = put("/v1/datasets/" + id + "/data", "application/x-npy",
                npy("<f8", "(2, 1)", false, ByteOrder.LITTLE_ENDIAN, 8, 1, Double.NaN));
        assertThat(nan.json().get("byteOffset").asLong()).isEqualTo(128 + 8);
        assertNothingStored(id);
    }

    private void assertNpyProblem(String id, byte[] body, String rule) {
        Response r = put("/v1/datasets/" + id + "/data", "application/x-npy", body);
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        assertThat(r.json().get("detail").asString()).contains(rule);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "self loop       | a,b\\nc,c\\n                 | 2 | self-loops",
        "weight above 1  | a,b,0.5\\nb,c,1.5\\n         | 2 | [0, 1]",
        "negative weight | a,b,-0.1\\n                 | 1 | [0, 1]",
        "duplicate       | a,b\\nb,c\\nb,a\\n           | 3 | line 1",
        "too many fields | a,b,1,2\\n                  | 1 | u,v or u,v,w",
        "empty label     | a,\\n                       | 1 | empty vertex label"
    })
    void rejectsBadEdgeLists(String label, String body, long line, String rule) {
        String id = createGraph("a", "b", "c");
        Response r = put("/v1/datasets/" + id + "/data", "text/csv", utf8(body.replace("\\n", "\n")));
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        assertThat(r.json().get("line").asLong()).isEqualTo(line);
        assertThat(r.json().get("detail").asString()).contains(rule);
        assertNothingStored(id);
        // The declared universe is written at creation and stays as declared.
        assertThat(jdbc.queryForObject("SELECT count(*) FROM graph_vertex WHERE dataset_id = ?::uuid", Long.class, id))
                .isEqualTo(3);
    }

    @Test
    void emptyUploadsAreRejected() {
        for (String type : new String[] {"text/csv", "application/x-matrix-market", "application/x-npy"}) {
            String id = createMatrix(1);
            Response r = put("/v1/datasets/" + id + "/data", type, new byte[0]);
            assertThat(r.status()).as(type).isEqualTo(422);
            assertThat(r.json().get("detail").asString()).contains("empty");
        }
        String id = createMatrix(1);
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", utf8("a,b\n")).json().get("detail").asString())
                .contains("header but no rows");
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", utf8("\n \n")).status()).isEqualTo(422);
    }

    @Test
    void unsupportedMediaTypesAnswer415() {
        String matrix = createMatrix(1);
        Response r = put("/v1/datasets/" + matrix + "/data", "application/json", utf8("[[1]]"));
        assertThat(r.status()).isEqualTo(415);
        assertThat(r.json().get("type").asString()).isEqualTo("https://privmat.io/problems/unsupported-media-type");
        String graph = createGraph();
        Response g = put("/v1/datasets/" + graph + "/data", "application/x-npy",
                npy("<f8", "(1, 1)", false, ByteOrder.LITTLE_ENDIAN, 8, 1));
        assertThat(g.status()).isEqualTo(415);
        assertThat(g.json().get("detail").asString()).contains("GRAPH dataset accepts");
    }

    @Test
    void failedUploadCanBeRetriedAndSecondUploadIsAConflict() {
        String id = createMatrix(1);
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", utf8("1,2\n3\n")).status()).isEqualTo(422);
        assertThat(get("/v1/datasets/" + id).json().get("status").asString()).isEqualTo("EMPTY");
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", utf8("1,2\n3,4\n")).status()).isEqualTo(200);
        Response again = put("/v1/datasets/" + id + "/data", "text/csv", utf8("1,2\n"));
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().get("type").asString()).isEqualTo("https://privmat.io/problems/data-already-uploaded");
        assertThat(put("/v1/datasets/" + UUID.randomUUID() + "/data", "text/csv", utf8("1\n")).status()).isEqualTo(404);
    }

    @Test
    void anErrorAfterSeveralWrittenChunksLeavesNothing() {
        // 512 columns: 1024 rows per 4 MB chunk; the bad line comes after three chunks were written
        String row = "0.25," + "0,".repeat(510) + "0.5\n";
        String body = row.repeat(3 * 1024 + 10) + "1,x" + ",0".repeat(510) + "\n" + row;
        String id = createMatrix(1);
        Response r = put("/v1/datasets/" + id + "/data", "text/csv", utf8(body));
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        assertThat(r.json().get("line").asLong()).isEqualTo(3 * 1024 + 11);
        assertNothingStored(id);
        String good = row.repeat(3 * 1024 + 10);
        Response retry = put("/v1/datasets/" + id + "/data", "text/csv", utf8(good));
        assertThat(retry.status()).as(retry.toString()).isEqualTo(200);
        assertThat(chunkCount(id)).isEqualTo(4);
    }

    @Test
    void deletingADatasetRemovesItsChunks() {
        String id = createMatrix(1);
        put("/v1/datasets/" + id + "/data", "text/csv", utf8("1,2\n3,4\n"));
        assertThat(chunkCount(id)).isPositive();
        delete("/v1/datasets/" + id);
        assertThat(chunkCount(id)).isZero();
    }

    private void assertNothingStored(String id) {
        assertThat(chunkCount(id)).isZero();
        assertThat(get("/v1/datasets/" + id).json().get("status").asString()).isEqualTo("EMPTY");
    }
}
