package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The whole service in the Spark-enabled build, end to end over HTTP: an EXTERNAL dataset over Parquet
 * written here and a MATRIX dataset holding the same rows (uploaded as CSV) answer the same queries —
 * one per statistic the mechanisms read at this d (column sums; the Gram matrix for PCA, the JL
 * sketch, noisy power and Oja; the row stream, two passes, for Hardt–Roth) —
 * through {@code QueryJobHandler}: the same ledger entries (RESERVE and COMMIT, same kind, mechanism,
 * parameters, loss and tracks), the same result document keys, and the signal direction found on both
 * paths. A job whose source does not hold the declared n rows, or whose files vanished after the
 * declaration, fails after its COMMIT and keeps its charge, as a failed job does on the stored path.
 */
class SparkServiceTest extends ApiTest {

    static final int N = 1500;
    static final int D = 5;
    static final Path LAKE = SparkTestData.tempDir();
    static final String BUDGET = "{\"epsilon\":100,\"delta\":1e-4}";

    @Autowired
    SparkEngine engine;

    static double[][] x;
    static String parquet;

    @DynamicPropertySource
    static void locations(DynamicPropertyRegistry registry) {
        SparkTestData.serviceOnLocalSpark(registry, LAKE);
    }

    /** Column 0 carries the signal (Σ x₀² ≫ Σ xⱼ² for j > 0); a few rows exceed B = 1 and are clipped. */
    @BeforeAll
    static void rows() {
        SplittableRandom random = new SplittableRandom(5);
        x = new double[N][D];
        for (double[] row : x) {
            for (int c = 0; c < D; c++) {
                row[c] = (c == 0 ? 0.8 : 0.05) * random.nextGaussian();
            }
        }
    }

    private synchronized String parquet() {
        if (parquet == null) {
            parquet = write("same", x);
        }
        return parquet;
    }

    private String write(String name, double[][] rows) {
        List<org.apache.spark.sql.Row> out = Stream.of(rows).map(r -> org.apache.spark.sql.RowFactory.create(
                java.util.Arrays.stream(r).boxed().toArray())).toList();
        var fields = SparkTestData.columns(D).stream().map(c -> org.apache.spark.sql.types.DataTypes.createStructField(
                c, org.apache.spark.sql.types.DataTypes.DoubleType, false)).toArray(org.apache.spark.sql.types.StructField[]::new);
        String location = LAKE.resolve(name).toString();
        // Two files, written in the rows' order (coalesce keeps it; no shuffle).
        engine.session().createDataFrame(out, new org.apache.spark.sql.types.StructType(fields)).coalesce(2).write()
                .parquet(location);
        return location;
    }

    private String external(String location, String neighbouring, Long rows) {
        String columns = String.join("\",\"", SparkTestData.columns(D));
        Response r = postJson("/v1/datasets", "{\"name\":\"lake\",\"kind\":\"EXTERNAL\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"" + neighbouring + "\",\"budget\":" + BUDGET + ",\"external\":{\"location\":\""
                + location + "\",\"format\":\"PARQUET\",\"columns\":[\"" + columns + "\"]"
                + (rows == null ? "" : ",\"rows\":" + rows) + "}}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        return r.json().get("id").asString();
    }

    private String stored(String neighbouring) {
        Response r = postJson("/v1/datasets", "{\"name\":\"stored\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"" + neighbouring + "\",\"budget\":" + BUDGET + "}");
        String id = r.json().get("id").asString();
        StringBuilder csv = new StringBuilder();
        for (double[] row : x) {
            for (int c = 0; c < D; c++) {
                csv.append(c == 0 ? "" : ",").append(row[c]);
            }
            csv.append('\n');
        }
        Response up = put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        return id;
    }

    static final String[] QUERIES = {
        "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.5}",
        "{\"kind\":\"PCA\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.5,\"params\":{\"k\":1}}",
        "{\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"NOISY_POWER\",\"rho\":0.5,\"params\":{\"k\":1,\"iterations\":8}}",
        "{\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"HARDT_ROTH\",\"epsilon\":20,\"delta\":1e-6,"
            + "\"params\":{\"k\":1,\"oversampling\":2}}",
        "{\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"PRIVATE_OJA\",\"epsilon\":2,\"delta\":1e-6,\"params\":{\"k\":1}}",
        "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":1,\"delta\":1e-7}",
    };

    @Test
    void externalAndStoredPathsChargeTheSameLedgerEntriesAndFindTheSameSignal() {
        String lake = external(parquet(), "REPLACE_ONE", (long) N);
        String db = stored("REPLACE_ONE");
        for (String query : QUERIES) {
            JsonNode a = submitAndAwait(lake, query);
            JsonNode b = submitAndAwait(db, query);
            assertThat(a.get("state").asString()).as(query + " " + a).isEqualTo("DONE");
            assertThat(b.get("state").asString()).as(query + " " + b).isEqualTo("DONE");
            String jobA = a.get("id").asString();
            String jobB = b.get("id").asString();
            List<Map<String, Object>> entries = chargedEntries(jobA);
            assertThat(entries).as(query).extracting(e -> e.get("entry_type")).containsExactly("RESERVE", "COMMIT");
            assertThat(entries).as(query).isEqualTo(chargedEntries(jobB));
            JsonNode ra = get("/v1/jobs/" + jobA + "/result").json();
            JsonNode rb = get("/v1/jobs/" + jobB + "/result").json();
            assertThat(ra.propertyNames()).as(query).containsExactlyInAnyOrderElementsOf(rb.propertyNames());
            if (query.contains("TOP_SINGULAR_VECTORS") || query.contains("PCA")) {
                String key = ra.has("v") ? "v" : "components";
                // Σ x₀² ≈ 960 against ≈ 4 for every other column: both paths must find e₀.
                assertThat(Math.abs(matrix(ra.get(key))[0][0])).as("EXTERNAL " + query).isGreaterThan(0.9);
                assertThat(Math.abs(matrix(rb.get(key))[0][0])).as("MATRIX " + query).isGreaterThan(0.9);
            }
        }
        // The budgets moved identically, track by track.
        JsonNode spentA = get("/v1/datasets/" + lake + "/budget").json().get("spent").get("tracks");
        JsonNode spentB = get("/v1/datasets/" + db + "/budget").json().get("spent").get("tracks");
        assertThat(spentA.toString()).isEqualTo(spentB.toString());
        assertThat(spentA.size()).isPositive();
    }

    @Test
    void underAddRemoveColumnSumsRunWithoutAnyRowCount() {
        String lake = external(parquet(), "ADD_REMOVE", null);
        String db = stored("ADD_REMOVE");
        String query = QUERIES[0];
        JsonNode a = submitAndAwait(lake, query);
        JsonNode b = submitAndAwait(db, query);
        assertThat(a.get("state").asString()).as(a.toString()).isEqualTo("DONE");
        assertThat(chargedEntries(a.get("id").asString())).isEqualTo(chargedEntries(b.get("id").asString()));
        assertThat(get("/v1/datasets/" + lake).json().get("rows").isNull()).isTrue();
    }

    @Test
    void aSourceWithAnotherRowCountThanDeclaredFailsTheJobAndKeepsTheCharge() {
        String lake = external(parquet(), "REPLACE_ONE", (long) N + 1);
        for (String query : new String[] {QUERIES[0], QUERIES[3]}) { // one aggregate pass, one row stream
            JsonNode job = submitAndAwait(lake, query);
            assertThat(job.get("state").asString()).as(job.toString()).isEqualTo("FAILED");
            assertThat(job.get("error").get("code").asString()).isEqualTo("JOB_FAILED");
            // The message is the generic one: neither the count met nor the exception's text.
            assertThat(job.get("error").get("message").asString()).contains("charge is kept")
                    .doesNotContain(Integer.toString(N));
            assertThat(chargedEntries(job.get("id").asString())).extracting(e -> e.get("entry_type"))
                    .containsExactly("RESERVE", "COMMIT");
        }
    }

    @Test
    void filesLostAfterTheDeclarationFailTheJobAfterItsCommitAndKeepTheCharge() throws IOException {
        String location = write("vanishing", x);
        String lake = external(location, "REPLACE_ONE", (long) N);
        try (Stream<Path> files = Files.walk(Path.of(location))) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        JsonNode job = submitAndAwait(lake, QUERIES[1]);
        assertThat(job.get("state").asString()).as(job.toString()).isEqualTo("FAILED");
        assertThat(job.get("error").get("code").asString()).isEqualTo("JOB_FAILED");
        assertThat(chargedEntries(job.get("id").asString())).extracting(e -> e.get("entry_type"))
                .containsExactly("RESERVE", "COMMIT");
        JsonNode spent = get("/v1/datasets/" + lake + "/budget").json().get("spent").get("tracks");
        assertThat(spent.get("rho").decimalValue()).isPositive();
    }

    @Test
    void aDeclarationNamingColumnsTheSourceLacksIsRefusedAtCreation() {
        Response r = postJson("/v1/datasets", "{\"name\":\"lake\",\"kind\":\"EXTERNAL\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"REPLACE_ONE\",\"budget\":" + BUDGET + ",\"external\":{\"location\":\""
                + parquet() + "\",\"format\":\"PARQUET\",\"columns\":[\"c0\",\"nope\"],\"rows\":" + N + "}}");
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
        assertThat(r.text()).contains("nope");
    }
}
