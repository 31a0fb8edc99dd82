package io.privmat.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * EXTERNAL datasets in the default build (no engine): the declaration is validated and stored, the
 * dataset is READY from it with d declared and n only where declared (REPLACE_ONE), its location is
 * shown to the owner only, it takes no upload, and its queries are refused before any charge. Runs
 * in the shared test context ({@link ApiTest} allows the /lake/privmat/ and s3a://lake/privmat/
 * prefixes): one more context would hold more connections than the embedded server allows.
 */
class ExternalDatasetTest extends ApiTest {

    private static final String BUDGET = "{\"epsilon\":1,\"delta\":1e-6}";

    private Response create(String neighbouring, String external) {
        return postJson("/v1/datasets", "{\"name\":\"x\",\"kind\":\"EXTERNAL\",\"rowNormBound\":2,\"neighbouring\":\""
                + neighbouring + "\",\"budget\":" + BUDGET + ",\"external\":" + external + "}");
    }

    @Test
    void declaredDatasetIsReadyWithItsPublicFactsOnly() {
        Response r = create("REPLACE_ONE", "{\"location\":\"s3a://lake/privmat/ratings/\",\"format\":\"parquet\","
                + "\"columns\":[\"a\",\"b\",\"c\"],\"rows\":1000000}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        JsonNode view = r.json();
        assertThat(view.get("kind").asString()).isEqualTo("EXTERNAL");
        assertThat(view.get("status").asString()).isEqualTo("READY");
        assertThat(view.get("cols").asLong()).isEqualTo(3);
        assertThat(view.get("rows").asLong()).as("declared n").isEqualTo(1_000_000);
        assertThat(view.get("privacyUnit").asString()).contains("row");
        assertThat(view.get("external").get("location").asString()).isEqualTo("s3a://lake/privmat/ratings/");
        assertThat(view.get("external").get("format").asString()).isEqualTo("PARQUET");
        String id = view.get("id").asString();
        // The analyst sees d, n (declared, REPLACE_ONE) and the columns, not where the data is.
        assertThat(postJson("/v1/datasets/" + id + "/grants", "{\"analyst\":\"" + ANALYST + "\"}").status()).isEqualTo(201);
        JsonNode seen = sendAs(analystKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/datasets/" + id)).GET()).json();
        assertThat(seen.get("rows").asLong()).isEqualTo(1_000_000);
        assertThat(seen.get("external").get("columns").get(2).asString()).isEqualTo("c");
        assertThat(seen.get("external").has("location") && !seen.get("external").get("location").isNull()).isFalse();
        // No upload: the rows stay where they are.
        Response up = put("/v1/datasets/" + id + "/data", "text/csv", "1,2,3\n".getBytes(StandardCharsets.UTF_8));
        assertThat(up.status()).isEqualTo(409);
        assertThat(up.json().get("type").asString()).endsWith("/wrong-dataset-kind");
    }

    @Test
    void theVectorLayoutIsDeclaredAndShownWithTheColumnsNamingTheEntries() {
        Response r = create("REPLACE_ONE", "{\"location\":\"/lake/privmat/v\",\"format\":\"PARQUET\","
                + "\"columns\":[\"a\",\"b\"],\"rows\":10,\"vector\":\"features\"}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        assertThat(r.json().get("cols").asLong()).isEqualTo(2);
        assertThat(r.json().get("external").get("vector").asString()).isEqualTo("features");
        Response scalar = create("REPLACE_ONE", "{\"location\":\"/lake/privmat/v\",\"format\":\"PARQUET\","
                + "\"columns\":[\"a\",\"b\"],\"rows\":10}");
        assertThat(scalar.json().get("external").has("vector") && !scalar.json().get("external").get("vector").isNull())
                .isFalse();
    }

    @Test
    void underAddRemoveNothingIsCountedOrShown() {
        Response r = create("ADD_REMOVE", "{\"location\":\"/lake/privmat/x.csv\",\"format\":\"CSV\",\"columns\":[\"v\"]}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        assertThat(r.json().get("rows").isNull()).as("n is private and never counted").isTrue();
        assertThat(r.json().get("external").get("declaredRows").isNull()).isTrue();
        assertThat(jdbc.queryForObject("SELECT rows FROM dataset WHERE id = ?::uuid", Long.class,
                r.json().get("id").asString())).isNull();
    }

    @Test
    void queriesAreRefusedBeforeAnyChargeWithoutAnEngine() {
        String id = create("REPLACE_ONE", "{\"location\":\"/lake/privmat/p\",\"format\":\"PARQUET\",\"columns\":"
                + "[\"a\",\"b\"],\"rows\":10}").json().get("id").asString();
        String query = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.01}";
        for (String path : new String[] {"/queries/quote", "/queries"}) {
            Response r = postJson("/v1/datasets/" + id + path, query);
            assertThat(r.status()).as(r.toString()).isEqualTo(409);
            assertThat(r.json().get("type").asString()).endsWith("/external-engine-unavailable");
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?::uuid", Long.class, id))
                .isZero();
    }

    @Test
    void badDeclarationsAreRefusedNamingTheParameter() {
        String[][] cases = {
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/p\",\"format\":\"PARQUET\",\"columns\":[\"a\"]}", "external.rows"},
            {"ADD_REMOVE", "{\"location\":\"/lake/privmat/p\",\"format\":\"PARQUET\",\"columns\":[\"a\"],\"rows\":5}",
                "external.rows"},
            {"REPLACE_ONE", "{\"location\":\"/etc/passwd\",\"format\":\"PARQUET\",\"columns\":[\"a\"],\"rows\":5}",
                "external.location"},
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/../../etc\",\"format\":\"PARQUET\",\"columns\":[\"a\"],\"rows\":5}",
                "external.location"},
            // Checked as stored (stripped): the last segment is "..", not ".. ".
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/.. \",\"format\":\"PARQUET\",\"columns\":[\"a\"],\"rows\":5}",
                "external.location"},
            // Patterns and escapes the engine's file listing would expand out of the allowed prefix.
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/{../../etc,p}\",\"format\":\"PARQUET\",\"columns\":[\"a\"],"
                + "\"rows\":5}", "external.location"},
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/\\\\.\\\\./etc\",\"format\":\"PARQUET\",\"columns\":[\"a\"],"
                + "\"rows\":5}", "external.location"},
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/p*\",\"format\":\"PARQUET\",\"columns\":[\"a\"],\"rows\":5}",
                "external.location"},
            // Names the engine would resolve as one column.
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/p\",\"format\":\"PARQUET\",\"columns\":[\"a\",\"A\"],"
                + "\"rows\":5}", "external.columns[1]"},
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/p\",\"format\":\"ORC\",\"columns\":[\"a\"],\"rows\":5}",
                "external.format"},
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/p\",\"format\":\"CSV\",\"columns\":[\"a\",\"a\"],\"rows\":5}",
                "external.columns[1]"},
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/p\",\"format\":\"CSV\",\"columns\":[],\"rows\":5}",
                "external.columns"},
            // The vector layout is Parquet's (a list or binary column); its name is bounded like a column's.
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/p\",\"format\":\"CSV\",\"columns\":[\"a\"],\"rows\":5,"
                + "\"vector\":\"x\"}", "external.vector"},
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/p\",\"format\":\"PARQUET\",\"columns\":[\"a\"],\"rows\":5,"
                + "\"vector\":\"\"}", "external.vector"},
            // A CSV row is a line and a quoted value may hold a newline: the declared n could not be kept.
            {"REPLACE_ONE", "{\"location\":\"/lake/privmat/p\",\"format\":\"CSV\",\"columns\":[\"a\"],\"rows\":5}",
                "external.format"},
        };
        for (String[] c : cases) {
            Response r = create(c[0], c[1]);
            assertThat(r.status()).as(c[1] + " → " + r).isEqualTo(400);
            assertThat(r.text()).as(c[1]).contains(c[2]);
        }
        // The declaration is EXTERNAL's only, and EXTERNAL needs it and a row bound.
        Response matrix = postJson("/v1/datasets", "{\"name\":\"m\",\"kind\":\"MATRIX\",\"rowNormBound\":1,\"budget\":"
                + BUDGET + ",\"external\":{\"location\":\"/lake/privmat/p\",\"format\":\"CSV\",\"columns\":[\"a\"]}}");
        assertThat(matrix.status()).isEqualTo(400);
        assertThat(postJson("/v1/datasets", "{\"name\":\"x\",\"kind\":\"EXTERNAL\",\"rowNormBound\":1,\"budget\":"
                + BUDGET + "}").status()).isEqualTo(400);
        Response noBound = postJson("/v1/datasets", "{\"name\":\"x\",\"kind\":\"EXTERNAL\",\"budget\":" + BUDGET
                + ",\"external\":{\"location\":\"/lake/privmat/p\",\"format\":\"CSV\",\"columns\":[\"a\"],\"rows\":3}}");
        assertThat(noBound.status()).isEqualTo(400);
        assertThat(noBound.text()).contains("rowNormBound");
    }

    /**
     * EXTERNAL ratings: the RATINGS declaration and three columns, no row bound, no row count; shown
     * with its declaration and n items, nothing counted; stored with migration V035's bound rule;
     * completion queries refused before any charge without an engine.
     */
    @Test
    void externalRatingsAreDeclaredWithoutABoundAndRefusedWithoutAnEngine() {
        Response r = postJson("/v1/datasets", "{\"name\":\"x\",\"kind\":\"EXTERNAL\",\"neighbouring\":\"ADD_REMOVE\","
                + "\"budget\":" + BUDGET + ",\"ratings\":{\"itemLabels\":[\"heat\",\"alien\",\"up\"],\"min\":1,"
                + "\"max\":5,\"perUserCap\":2},\"external\":{\"location\":\"s3a://lake/privmat/films/\","
                + "\"format\":\"CSV\",\"columns\":[\"user\",\"film\",\"stars\"]}}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        JsonNode view = r.json();
        assertThat(view.get("cols").asLong()).isEqualTo(3);
        assertThat(view.get("rows").isNull()).isTrue();
        assertThat(view.get("nnz").isNull()).isTrue();
        assertThat(view.get("rowNormBound").isNull()).isTrue();
        assertThat(view.get("ratings").get("calibration").asString()).isEqualTo("USER_ADD_REMOVE");
        assertThat(view.get("privacyUnit").asString()).contains("user");
        String id = view.get("id").asString();
        assertThat(get("/v1/datasets/" + id).json().get("ratings").get("perUserCap").asInt()).isEqualTo(2);
        Response q = postJson("/v1/datasets/" + id + "/queries",
                "{\"kind\":\"COMPLETION\",\"mechanism\":\"PRIVATE_SVD\",\"rho\":0.5,\"params\":{\"rank\":1}}");
        assertThat(q.status()).as(q.toString()).isEqualTo(409);
        assertThat(q.json().get("type").asString()).endsWith("/external-engine-unavailable");
        Response matrixBound = postJson("/v1/datasets", "{\"name\":\"x\",\"kind\":\"EXTERNAL\",\"rowNormBound\":1,"
                + "\"budget\":" + BUDGET + ",\"ratings\":{\"items\":3,\"min\":1,\"max\":5,\"perUserCap\":2},"
                + "\"external\":{\"location\":\"s3a://lake/privmat/films/\",\"format\":\"CSV\","
                + "\"columns\":[\"user\",\"film\",\"stars\"]}}");
        assertThat(matrixBound.status()).as(matrixBound.toString()).isEqualTo(400);
        assertThat(matrixBound.text()).contains("rowNormBound");
    }
}
