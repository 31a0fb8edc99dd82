package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * COMPLETION through the service: analysts get the global model only; the data owner gets each
 * user's completed row (one user, or all as CSV or .npy), computed from the stored model and that
 * user's own ratings; nobody else gets any row.
 */
class CompletionApiTest extends ApiTest {

    static final int ITEMS = 8;
    static final int USERS = 60;

    /** A RATINGS dataset: users rate 4 of 8 items, rank-one preferences plus noise, on 1..5 (seeded). */
    private String ratingsDataset(String relation) {
        Response created = postJson("/v1/datasets", "{\"name\":\"ratings\",\"kind\":\"RATINGS\",\"neighbouring\":"
                + "\"REPLACE_ONE\",\"ratings\":{\"items\":" + ITEMS + ",\"min\":1,\"max\":5,\"perUserCap\":4,"
                + "\"relation\":\"" + relation + "\"},\"budget\":{\"epsilon\":100,\"delta\":1e-6}}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        SplittableRandom random = new SplittableRandom(18);
        double[] item = new double[ITEMS];
        for (int j = 0; j < ITEMS; j++) {
            item[j] = random.nextDouble(-1, 1);
        }
        StringBuilder csv = new StringBuilder("user,item,rating\n");
        for (int u = 0; u < USERS; u++) {
            double taste = random.nextDouble(-1.5, 1.5);
            for (int k = 0; k < 4; k++) {
                int j = (u + 2 * k) % ITEMS;
                double r = Math.max(1, Math.min(5, 3 + taste * item[j] + random.nextGaussian() * 0.2));
                csv.append("user-").append(u).append(',').append(j).append(',').append(r).append('\n');
            }
        }
        Response up = put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        assertThat(postJson("/v1/datasets/" + id + "/grants", "{\"analyst\":\"" + ANALYST + "\"}").status())
                .isEqualTo(201);
        return id;
    }

    private Response asAnalyst(HttpRequest.Builder request) {
        return sendAs(analystKey(), request);
    }

    private JsonNode analystRuns(String id, String query) {
        Response r = asAnalyst(HttpRequest.newBuilder(uri("/v1/datasets/" + id + "/queries"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(query)));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        String job = r.json().get("id").asString();
        JsonNode view = awaitJob(job); // the owner sees the jobs on its dataset
        assertThat(view.get("state").asString()).as(view.toString()).isEqualTo("DONE");
        return asAnalyst(HttpRequest.newBuilder(uri("/v1/jobs/" + job + "/result")).GET()).json();
    }

    @Test
    void analystsGetTheModelAndTheOwnerGetsEachUsersRow() {
        String id = ratingsDataset("USER");
        Response quote = asAnalyst(HttpRequest.newBuilder(uri("/v1/datasets/" + id + "/queries/quote"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"kind\":\"COMPLETION\",\"mechanism\":\"PRIVATE_FRANK_WOLFE\",\"epsilon\":8,\"delta\":1e-6,"
                                + "\"params\":{\"iterations\":4}}")));
        assertThat(quote.status()).as(quote.toString()).isEqualTo(200);
        assertThat(quote.text()).contains("expectedError");
        // The defaults: fully corrective, rows clipped to L/4 (L = 2·√4 here).
        JsonNode noise = quote.json().get("noise");
        assertThat(noise.get("schedule").asString()).as(noise.toString()).isEqualTo("FULLY_CORRECTIVE");
        assertThat(noise.get("gradientClip").asDouble()).isCloseTo(1, within(1e-12));
        JsonNode result = analystRuns(id, "{\"kind\":\"COMPLETION\",\"mechanism\":\"PRIVATE_FRANK_WOLFE\","
                + "\"epsilon\":8,\"delta\":1e-6,\"params\":{\"iterations\":4}}");
        assertThat(result.get("model").asString()).isEqualTo("FRANK_WOLFE");
        double[][] directions = matrix(result.get("directions"));
        assertThat(directions).hasNumberOfRows(4);
        assertThat(directions[0]).hasSize(ITEMS);
        assertThat(result.get("spectrum").size()).isEqualTo(4);
        assertThat(result.get("releaseKind").asString()).isEqualTo("COMPLETION_MODEL");
        // No user's row reaches the analyst: the result names where the owner gets them.
        assertThat(result.toString()).doesNotContain("user-");
        String job = result.get("jobId").asString();
        String link = result.get("predictions").asString();
        assertThat(asAnalyst(HttpRequest.newBuilder(uri(link)).GET()).status()).isIn(403, 404);
        assertThat(asAnalyst(HttpRequest.newBuilder(uri("/v1/jobs/" + job + "/users/user-3/predictions")).GET())
                .status()).isIn(403, 404);
        assertThat(sendAs(otherOwnerKey(), HttpRequest.newBuilder(uri("/v1/jobs/" + job + "/users/user-3/predictions"))
                .GET()).status()).as("another owner").isEqualTo(404);
        // The release answers no free query.
        Response dv = asAnalyst(HttpRequest.newBuilder(uri("/v1/releases/" + result.get("releaseId").asString()
                + "/directional-variance")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"vectors\":[[1,0,0,0,0,0,0,0]]}")));
        assertThat(dv.status()).as(dv.toString()).isBetween(400, 499);

        // The owner: one user's row, deterministic, on the rating scale, equal to the bulk export's row.
        Response one = get("/v1/jobs/" + job + "/users/user-3/predictions");
        assertThat(one.status()).as(one.toString()).isEqualTo(200);
        double[] row = one.json().get("predictions").valueStream().mapToDouble(JsonNode::asDouble).toArray();
        assertThat(row).hasSize(ITEMS);
        for (double v : row) {
            assertThat(v).isBetween(1.0, 5.0);
        }
        assertThat(get("/v1/jobs/" + job + "/users/user-3/predictions").json().get("predictions").toString())
                .isEqualTo(one.json().get("predictions").toString());
        assertThat(get("/v1/jobs/" + job + "/users/nobody/predictions").status()).isEqualTo(404);
        Response csv = get("/v1/jobs/" + job + "/predictions");
        assertThat(csv.status()).as(csv.toString()).isEqualTo(200);
        String[] lines = csv.text().split("\r\n");
        assertThat(lines).hasSize(USERS + 1);
        assertThat(lines[0]).isEqualTo("user,0,1,2,3,4,5,6,7");
        String[] fields = lines[4].split(",");
        assertThat(fields[0]).isEqualTo("user-3");
        for (int j = 0; j < ITEMS; j++) {
            assertThat(Double.parseDouble(fields[j + 1])).isEqualTo(row[j]);
        }
        Response npy = send(HttpRequest.newBuilder(uri("/v1/jobs/" + job + "/predictions"))
                .header("Authorization", "Bearer " + ownerKey()).header("Accept", "application/x-npy").GET());
        assertThat(npy.status()).isEqualTo(200);
        String header = new String(npy.body(), 10, 118, StandardCharsets.US_ASCII);
        assertThat(header).contains("'shape': (" + USERS + ", " + ITEMS + ")");
        ByteBuffer data = ByteBuffer.wrap(npy.body(), 128, npy.body().length - 128).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(npy.body().length - 128).isEqualTo(8 * USERS * ITEMS);
        assertThat(data.getDouble(128 + 8 * (3 * ITEMS + 2))).isEqualTo(row[2]);
    }

    @Test
    void thePapersScheduleTakesANuclearRadiusAndTheDefaultsNeedNone() {
        String id = ratingsDataset("USER");
        JsonNode paper = analystRuns(id, "{\"kind\":\"COMPLETION\",\"mechanism\":\"PRIVATE_FRANK_WOLFE\",\"rho\":2,"
                + "\"params\":{\"schedule\":\"CONSTANT\",\"nuclearRadius\":30,\"iterations\":3}}");
        assertThat(matrix(paper.get("directions"))).hasNumberOfRows(3);
        JsonNode defaults = analystRuns(id, "{\"kind\":\"COMPLETION\",\"mechanism\":\"PRIVATE_FRANK_WOLFE\",\"rho\":2}");
        // T = min(⌈s/2⌉, 2 + ⌈8μ⌉) with s = 4 here: 2.
        assertThat(matrix(defaults.get("directions"))).hasNumberOfRows(2);
        Response row = get("/v1/jobs/" + defaults.get("jobId").asString() + "/users/user-0/predictions");
        assertThat(row.status()).as(row.toString()).isEqualTo(200);

        // Dry runs and inverse quotes take both forms: with the paper's radius and without any.
        for (String params : new String[] {"{\"schedule\":\"CONSTANT\",\"nuclearRadius\":30,\"iterations\":3}", "{}"}) {
            Response dry = postJson("/v1/datasets/" + id + "/queries/dry-run", "{\"kind\":\"COMPLETION\",\"mechanism\":"
                    + "\"PRIVATE_FRANK_WOLFE\",\"rho\":2,\"params\":" + params + "}");
            assertThat(dry.status()).as(params + " " + dry).isEqualTo(200);
            assertThat(dry.json().get("synthetic").asBoolean()).isTrue();
            assertThat(dry.json().get("result").get("model").asString()).isEqualTo("FRANK_WOLFE");
            assertThat(dry.json().get("result").has("warnings")).isTrue();
            Response inverse = postJson("/v1/datasets/" + id + "/queries/inverse-quote", "{\"query\":{\"kind\":"
                    + "\"COMPLETION\",\"mechanism\":\"PRIVATE_FRANK_WOLFE\",\"delta\":1e-6,\"params\":" + params
                    + "},\"target\":{\"quantity\":\"spectrum\",\"metric\":\"noiseNorm\",\"level\":0.95,\"value\":50}}");
            assertThat(inverse.status()).as(params + " " + inverse).isEqualTo(200);
            assertThat(inverse.json().get("requested").get("reachable").asBoolean()).as(inverse.toString()).isTrue();
            assertThat(inverse.json().get("requested").get("achieved").get("value").asDouble()).isLessThanOrEqualTo(50);
        }
    }

    @Test
    void svdAndAlsRunAndRatingFactsCarryTheUserCount() {
        String id = ratingsDataset("USER");
        JsonNode svd = analystRuns(id, "{\"kind\":\"COMPLETION\",\"mechanism\":\"PRIVATE_SVD\",\"rho\":2,"
                + "\"params\":{\"rank\":2}}");
        assertThat(svd.get("model").asString()).isEqualTo("SVD");
        assertThat(matrix(svd.get("directions"))).hasNumberOfRows(ITEMS);
        assertThat(svd.get("eigenvalues").size()).isEqualTo(2);
        JsonNode als = analystRuns(id, "{\"kind\":\"COMPLETION\",\"mechanism\":\"DP_ALS\",\"rho\":2,"
                + "\"params\":{\"rank\":2,\"iterations\":2}}");
        assertThat(als.get("model").asString()).isEqualTo("ALS");
        assertThat(matrix(als.get("itemFactors"))).hasNumberOfRows(ITEMS);
        Response row = get("/v1/jobs/" + als.get("jobId").asString() + "/users/user-0/predictions");
        assertThat(row.status()).as(row.toString()).isEqualTo(200);

        // Under RATING, Ω and so m are public facts of the plan; under USER m is not.
        String entry = ratingsDataset("RATING");
        JsonNode rating = analystRuns(entry, "{\"kind\":\"COMPLETION\",\"mechanism\":\"PRIVATE_SVD\",\"rho\":1,"
                + "\"params\":{\"rank\":1}}");
        String ratingJob = get("/v1/jobs/" + rating.get("jobId").asString()).text();
        JsonNode ratingFacts = JSON.readTree(ratingJob).get("parameters").get("facts");
        assertThat(ratingFacts.get("rows").asInt()).isEqualTo(USERS);
        assertThat(ratingFacts.get("ratings").get("relation").asString()).isEqualTo("RATING");
        JsonNode userFacts = get("/v1/jobs/" + svd.get("jobId").asString()).json().get("parameters").get("facts");
        assertThat(userFacts.has("rows")).as("m is no fact under USER").isFalse();
    }

    @Test
    void badCompletionRequestsAreRefusedBeforeAnyCharge() {
        String id = ratingsDataset("USER");
        Response missing = postJson("/v1/datasets/" + id + "/queries", "{\"kind\":\"COMPLETION\",\"mechanism\":"
                + "\"PRIVATE_FRANK_WOLFE\",\"rho\":1,\"params\":{\"schedule\":\"STANDARD\"}}");
        assertThat(missing.status()).as(missing.toString()).isEqualTo(400);
        assertThat(missing.json().get("parameter").asString()).isEqualTo("nuclearRadius");
        Response unused = postJson("/v1/datasets/" + id + "/queries", "{\"kind\":\"COMPLETION\",\"mechanism\":"
                + "\"PRIVATE_FRANK_WOLFE\",\"rho\":1,\"params\":{\"nuclearRadius\":30}}");
        assertThat(unused.status()).as(unused.toString()).isEqualTo(400);
        assertThat(unused.json().get("parameter").asString()).isEqualTo("nuclearRadius");
        Response rank = postJson("/v1/datasets/" + id + "/queries", "{\"kind\":\"COMPLETION\",\"mechanism\":"
                + "\"PRIVATE_SVD\",\"rho\":1,\"params\":{\"rank\":" + (ITEMS + 1) + "}}");
        assertThat(rank.status()).as(rank.toString()).isEqualTo(400);
        String matrix = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        Response wrong = postJson("/v1/datasets/" + matrix + "/queries", "{\"kind\":\"COMPLETION\",\"mechanism\":"
                + "\"PRIVATE_SVD\",\"rho\":0.1,\"params\":{\"rank\":1}}");
        assertThat(wrong.status()).as(wrong.toString()).isBetween(400, 499);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?::uuid", Long.class, id))
                .isZero();
    }
}
