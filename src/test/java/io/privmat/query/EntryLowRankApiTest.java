package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * HARDT_ROTH_RATING and RANDOMIZED_RESPONSE_RATING through the service: LOW_RANK on a RATINGS dataset
 * declared with relation RATING, the orientation in the quote and the result, the factors users ×
 * items; refused on a USER dataset, and on one too large to hold dense, before anything is charged.
 */
class EntryLowRankApiTest extends ApiTest {

    static final int ITEMS = 6;
    static final int USERS = 40;

    /** Users rate 4 of 6 items, rank-one preferences plus noise, on 1..5 (seeded). */
    private String ratingsDataset(String relation, String neighbouring) {
        Response created = postJson("/v1/datasets", "{\"name\":\"ratings\",\"kind\":\"RATINGS\",\"neighbouring\":\""
                + neighbouring + "\",\"ratings\":{\"items\":" + ITEMS + ",\"min\":1,\"max\":5,\"perUserCap\":4,"
                + "\"relation\":\"" + relation + "\"},\"budget\":{\"epsilon\":100,\"delta\":1e-5}}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        SplittableRandom random = new SplittableRandom(19);
        StringBuilder csv = new StringBuilder("user,item,rating\n");
        for (int u = 0; u < USERS; u++) {
            double taste = random.nextDouble(-1.5, 1.5);
            for (int k = 0; k < 4; k++) {
                int j = (u + k) % ITEMS;
                double r = Math.max(1, Math.min(5, 3 + taste * (j - 2.5) / 2 + random.nextGaussian() * 0.2));
                csv.append("user-").append(u).append(',').append(j).append(',').append(r).append('\n');
            }
        }
        Response up = put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        return id;
    }

    private static String query(String kind, String mechanism, String budget, String params) {
        return "{\"kind\":\"" + kind + "\",\"mechanism\":\"" + mechanism + "\"," + budget + ",\"params\":" + params + "}";
    }

    private java.math.BigDecimal spent(String id) {
        JsonNode spent = get("/v1/datasets/" + id + "/budget").json().get("spent");
        return spent.get("epsilon").decimalValue().add(spent.get("tracks").get("rho").decimalValue());
    }

    @Test
    void hardtRothAndRandomizedResponseUnderRating() {
        String id = ratingsDataset("RATING", "REPLACE_ONE");
        String hr = query("LOW_RANK", "HARDT_ROTH_RATING", "\"epsilon\":4,\"delta\":1e-6", "{\"k\":2,\"oversampling\":2}");
        // m = 40 users > n = 6 items: the range finder works on the items (the short side), decided at quote time.
        Response quote = postJson("/v1/datasets/" + id + "/queries/quote", hr);
        assertThat(quote.status()).as(quote.toString()).isEqualTo(200);
        assertThat(quote.json().at("/noise/orientation").asString()).as(quote.toString()).isEqualTo("ITEMS_AS_ROWS");
        assertThat(quote.json().at("/noise/l2Sensitivity").asDouble()).isCloseTo(4.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(quote.json().at("/noise/coherence").asDouble()).as("the default μ₀").isEqualTo(1.0);
        assertThat(quote.text()).contains("expectedError");

        JsonNode result = runQuery(id, hr);
        assertThat(result.get("mechanism").asString()).isEqualTo("HARDT_ROTH_RATING");
        assertThat(result.at("/noise/orientation").asString()).isEqualTo("ITEMS_AS_ROWS");
        assertThat(result.at("/facts/orientation").asString()).isEqualTo("ITEMS_AS_ROWS");
        // Users × items whatever the orientation: u has a row per user, v a row per item.
        assertThat(result.get("rows").asInt()).isEqualTo(USERS);
        double[][] u = matrix(result.get("u"));
        double[][] v = matrix(result.get("v"));
        assertThat(u).hasNumberOfRows(USERS);
        assertThat(u[0]).hasSize(2);
        assertThat(v).hasNumberOfRows(ITEMS);
        assertThat(v[0]).hasSize(2);
        assertThat(result.get("singularValues").size()).isEqualTo(2);
        // In ITEMS_AS_ROWS the users' side is the projection's: orthonormal columns.
        double norm = 0;
        for (double[] row : u) {
            norm += row[0] * row[0];
        }
        assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(result.path("accuracy").path("bounds").size()).isPositive();
        assertThat(result.toString()).as("no user label reaches the analyst's result").doesNotContain("user-");

        String rr = query("LOW_RANK", "RANDOMIZED_RESPONSE_RATING", "\"epsilon\":4,\"delta\":1e-6", "{\"k\":2}");
        JsonNode rrResult = runQuery(id, rr);
        assertThat(rrResult.at("/noise/orientation").asString()).isEqualTo("USERS_AS_ROWS");
        assertThat(rrResult.at("/facts/orientation").asString()).isEqualTo("USERS_AS_ROWS");
        assertThat(rrResult.at("/noise/l2Sensitivity").asDouble()).isCloseTo(4.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(matrix(rrResult.get("u"))).hasNumberOfRows(USERS);
        assertThat(matrix(rrResult.get("v"))).hasNumberOfRows(ITEMS);

        JsonNode top = runQuery(id, query("TOP_SINGULAR_VECTORS", "RANDOMIZED_RESPONSE_RATING",
                "\"epsilon\":4,\"delta\":1e-6", "{\"k\":1}"));
        assertThat(matrix(top.get("v"))).hasNumberOfRows(ITEMS);
        assertThat(top.has("u")).as("TOP_SINGULAR_VECTORS releases the item directions only").isFalse();
    }

    @Test
    void userRelationIsRefusedBeforeAnyCharge() {
        String id = ratingsDataset("USER", "REPLACE_ONE");
        for (String mechanism : new String[] {"HARDT_ROTH_RATING", "RANDOMIZED_RESPONSE_RATING"}) {
            String q = query("LOW_RANK", mechanism, "\"epsilon\":1,\"delta\":1e-6", "{\"k\":1}");
            for (String path : new String[] {"/queries/quote", "/queries"}) {
                Response r = postJson("/v1/datasets/" + id + path, q);
                assertThat(r.status()).as(r.toString()).isEqualTo(409);
                assertThat(r.json().get("type").asString()).endsWith("wrong-dataset-kind");
                assertThat(r.json().get("detail").asString()).contains("relation RATING", "m is not public", "USER");
            }
        }
        assertThat(spent(id)).isEqualByComparingTo(java.math.BigDecimal.ZERO);
        // The row-level values refuse the shape and name the ones that read it.
        String ratingId = ratingsDataset("RATING", "REPLACE_ONE");
        Response rowLevel = postJson("/v1/datasets/" + ratingId + "/queries/quote",
                query("LOW_RANK", "HARDT_ROTH", "\"epsilon\":1,\"delta\":1e-6", "{\"k\":1}"));
        assertThat(rowLevel.status()).as(rowLevel.toString()).isEqualTo(409);
        assertThat(rowLevel.json().get("detail").asString()).contains("HARDT_ROTH_RATING | RANDOMIZED_RESPONSE_RATING");
    }

    @Test
    void aMatrixTooLargeToHoldDenseIsRefusedBeforeAnyCharge() {
        // 24 users × 2^20 declared items = 25.2 M entries, above the 25 M dense limit: m and n are public.
        Response created = postJson("/v1/datasets", "{\"name\":\"wide\",\"kind\":\"RATINGS\",\"ratings\":{\"items\":"
                + (1 << 20) + ",\"min\":1,\"max\":5,\"perUserCap\":1,\"relation\":\"RATING\"},\"budget\":{\"epsilon\":10,"
                + "\"delta\":1e-5}}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        StringBuilder csv = new StringBuilder();
        for (int u = 0; u < 24; u++) {
            csv.append('u').append(u).append(',').append(u).append(",3\n");
        }
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8))
                .status()).isEqualTo(200);
        for (String mechanism : new String[] {"HARDT_ROTH_RATING", "RANDOMIZED_RESPONSE_RATING"}) {
            Response r = postJson("/v1/datasets/" + id + "/queries",
                    query("LOW_RANK", mechanism, "\"epsilon\":1,\"delta\":1e-6", "{\"k\":1}"));
            assertThat(r.status()).as(r.toString()).isEqualTo(422);
            assertThat(r.json().get("type").asString()).endsWith("dataset-too-large");
            assertThat(r.json().get("detail").asString()).contains("dense users × items");
        }
        assertThat(spent(id)).isEqualByComparingTo(java.math.BigDecimal.ZERO);
    }
}
