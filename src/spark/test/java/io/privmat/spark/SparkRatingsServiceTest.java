package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * EXTERNAL ratings through the whole service (the Spark-enabled build, over HTTP): an EXTERNAL dataset
 * declaring (user, item, rating) triples in Parquet and a stored RATINGS dataset holding the same
 * triples (uploaded as CSV) answer each completion mechanism through {@code QueryJobHandler} with the
 * same ledger entries (RESERVE and COMMIT: kind, mechanism, parameters, loss document, ρ, ε, δ,
 * caller), the same result document keys and the same budget spent, track by track. Bad declarations
 * are refused at creation (400 problem+json naming the field); a source that vanished after the
 * declaration fails its job after the COMMIT and keeps the charge.
 */
class SparkRatingsServiceTest extends ApiTest {

    static final int USERS = 200;
    static final int ITEMS = 10;
    static final int CAP = 4;
    static final Path LAKE = SparkTestData.tempDir();
    static final String BUDGET = "{\"epsilon\":100,\"delta\":1e-4}";
    static final String DECLARATION = "{\"items\":" + ITEMS + ",\"min\":1,\"max\":5,\"perUserCap\":" + CAP + "}";

    @Autowired
    SparkEngine engine;

    static List<Object[]> triples;
    static String parquet;

    @DynamicPropertySource
    static void locations(DynamicPropertyRegistry registry) {
        SparkTestData.serviceOnLocalSpark(registry, LAKE);
    }

    /** Users rate CAP distinct items each; two kinds of users prefer the even or the odd items (seeded). */
    @BeforeAll
    static void ratings() {
        SplittableRandom random = new SplittableRandom(23);
        triples = new ArrayList<>();
        for (int u = 0; u < USERS; u++) {
            int first = random.nextInt(ITEMS);
            for (int k = 0; k < CAP; k++) {
                int item = (first + 3 * k) % ITEMS;
                double r = ((item + u) % 2 == 0 ? 4.5 : 1.5) + 0.5 * (random.nextInt(3) - 1);
                triples.add(new Object[] {"user-" + u, item, r});
            }
        }
    }

    private synchronized String parquet() {
        if (parquet == null) {
            parquet = write("same");
        }
        return parquet;
    }

    private String write(String name) {
        StructType type = new StructType(new StructField[] {
                DataTypes.createStructField("who", DataTypes.StringType, false),
                DataTypes.createStructField("film", DataTypes.IntegerType, false),
                DataTypes.createStructField("stars", DataTypes.DoubleType, false),
                DataTypes.createStructField("note", DataTypes.StringType, false)});
        List<Row> rows = triples.stream().map(t -> RowFactory.create(t[0], t[1], t[2], "seen")).toList();
        String location = LAKE.resolve(name).toString();
        engine.session().createDataFrame(rows, type).repartition(3).write().parquet(location);
        return location;
    }

    private Response create(String body) {
        return postJson("/v1/datasets", body);
    }

    private String external(String location, String neighbouring) {
        Response r = create("{\"name\":\"lake\",\"kind\":\"EXTERNAL\",\"neighbouring\":\"" + neighbouring
                + "\",\"budget\":" + BUDGET + ",\"ratings\":" + DECLARATION + ",\"external\":{\"location\":\""
                + location + "\",\"format\":\"PARQUET\",\"columns\":[\"who\",\"film\",\"stars\"]}}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        return r.json().get("id").asString();
    }

    private String stored(String neighbouring) {
        Response r = create("{\"name\":\"stored\",\"kind\":\"RATINGS\",\"neighbouring\":\"" + neighbouring
                + "\",\"budget\":" + BUDGET + ",\"ratings\":" + DECLARATION + "}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        String id = r.json().get("id").asString();
        StringBuilder csv = new StringBuilder("user,item,rating\n");
        for (Object[] t : triples) {
            csv.append(t[0]).append(',').append(t[1]).append(',').append(t[2]).append('\n');
        }
        Response up = put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        return id;
    }

    static final String[] QUERIES = {
        "{\"kind\":\"COMPLETION\",\"mechanism\":\"PRIVATE_FRANK_WOLFE\",\"rho\":2,\"params\":{\"iterations\":3}}",
        "{\"kind\":\"COMPLETION\",\"mechanism\":\"PRIVATE_FRANK_WOLFE\",\"rho\":2,"
            + "\"params\":{\"schedule\":\"CONSTANT\",\"nuclearRadius\":30,\"iterations\":3}}",
        "{\"kind\":\"COMPLETION\",\"mechanism\":\"PRIVATE_SVD\",\"epsilon\":4,\"delta\":1e-6,\"params\":{\"rank\":2}}",
        "{\"kind\":\"COMPLETION\",\"mechanism\":\"DP_ALS\",\"rho\":2,\"params\":{\"rank\":2,\"iterations\":2}}",
    };

    private void sameChargesAndResults(String lake, String db, String query) {
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
        assertThat(ra.get("releaseKind").asString()).as(query).isEqualTo("COMPLETION_MODEL");
        assertThat(ra.propertyNames()).as(query).containsExactlyInAnyOrderElementsOf(rb.propertyNames());
        assertThat(ra.get("model").asString()).isEqualTo(rb.get("model").asString());
    }

    @Test
    void externalAndStoredRatingsChargeTheSameLedgerEntriesForEveryCompletionMechanism() {
        String lake = external(parquet(), "REPLACE_ONE");
        String db = stored("REPLACE_ONE");
        for (String query : QUERIES) {
            sameChargesAndResults(lake, db, query);
        }
        JsonNode spentA = get("/v1/datasets/" + lake + "/budget").json().get("spent").get("tracks");
        JsonNode spentB = get("/v1/datasets/" + db + "/budget").json().get("spent").get("tracks");
        assertThat(spentA.toString()).isEqualTo(spentB.toString());
        assertThat(spentA.size()).isPositive();
        // The declaration is shown like a RATINGS dataset's; no user or rating count exists to show.
        JsonNode view = get("/v1/datasets/" + lake).json();
        assertThat(view.get("ratings").get("relation").asString()).isEqualTo("USER");
        assertThat(view.get("cols").asInt()).isEqualTo(ITEMS);
        assertThat(view.get("rows").isNull()).isTrue();
        assertThat(view.get("privacyUnit").asString()).contains("user");
    }

    @Test
    void underAddRemoveTheSameChargesToo() {
        sameChargesAndResults(external(parquet(), "ADD_REMOVE"), stored("ADD_REMOVE"), QUERIES[3]);
    }

    @Test
    void matrixQueriesAndPerUserPredictionsAreRefusedBeforeAnyCharge() {
        String lake = external(parquet(), "REPLACE_ONE");
        Response r = postJson("/v1/datasets/" + lake + "/queries",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.5}");
        assertThat(r.status()).as(r.toString()).isEqualTo(409);
        assertThat(r.header("Content-Type")).contains("application/problem+json");
        JsonNode done = submitAndAwait(lake, QUERIES[2]);
        Response rows = get("/v1/jobs/" + done.get("id").asString() + "/predictions");
        assertThat(rows.status()).as(rows.toString()).isEqualTo(409);
        assertThat(rows.text()).contains("EXTERNAL");
    }

    @Test
    void badDeclarationsAreRefusedAtCreationNamingTheField() {
        String head = "{\"name\":\"lake\",\"kind\":\"EXTERNAL\",\"budget\":" + BUDGET + ",";
        String source = "\"external\":{\"location\":\"" + parquet() + "\",\"format\":\"PARQUET\",";
        String columns = "\"columns\":[\"who\",\"film\",\"stars\"]";
        // What the problem must name, and the body.
        Map<String, String> bodies = Map.of(
                "nobody", head + "\"ratings\":" + DECLARATION + "," + source + "\"columns\":[\"nobody\",\"film\",\"stars\"]}}",
                "not numeric", head + "\"ratings\":" + DECLARATION + "," + source
                        + "\"columns\":[\"who\",\"film\",\"note\"]}}",
                "external.columns", head + "\"ratings\":" + DECLARATION + "," + source
                        + "\"columns\":[\"who\",\"film\"]}}",
                "external.rows", head + "\"ratings\":" + DECLARATION + "," + source + columns + ",\"rows\":800}}",
                "rowNormBound", head + "\"rowNormBound\":1,\"ratings\":" + DECLARATION + "," + source + columns + "}}",
                "ratings.relation", head + "\"ratings\":{\"items\":10,\"min\":1,\"max\":5,\"perUserCap\":4,"
                        + "\"relation\":\"RATING\"}," + source + columns + "}}",
                "ratings.perUserCap", head + "\"ratings\":{\"items\":10,\"min\":1,\"max\":5,\"perUserCap\":11},"
                        + source + columns + "}}");
        bodies.forEach((named, body) -> {
            Response r = create(body);
            assertThat(r.status()).as(named + " " + r).isEqualTo(400);
            assertThat(r.header("Content-Type")).contains("application/problem+json");
            assertThat(r.text()).as(named).contains(named);
        });
    }

    @Test
    void filesLostAfterTheDeclarationFailTheJobAfterItsCommitAndKeepTheCharge() throws IOException {
        String location = write("vanishing");
        String lake = external(location, "REPLACE_ONE");
        try (Stream<Path> files = Files.walk(Path.of(location))) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        JsonNode job = submitAndAwait(lake, QUERIES[2]);
        assertThat(job.get("state").asString()).as(job.toString()).isEqualTo("FAILED");
        assertThat(job.get("error").get("code").asString()).isEqualTo("JOB_FAILED");
        assertThat(job.get("error").get("message").asString()).contains("charge is kept");
        assertThat(chargedEntries(job.get("id").asString())).extracting(e -> e.get("entry_type"))
                .containsExactly("RESERVE", "COMMIT");
    }
}
