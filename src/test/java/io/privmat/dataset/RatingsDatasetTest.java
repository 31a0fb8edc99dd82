package io.privmat.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.support.ApiTest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * RATINGS datasets: the declaration validated at creation, (user, item, rating) triples read back
 * exactly through {@link RatingsSource}, the per-user cap applied by upload order only, every bad
 * line refused with its position and nothing stored, and m and |Ω| hidden from analysts unless the
 * relation is RATING.
 */
class RatingsDatasetTest extends ApiTest {

    private static final String BUDGET = "{\"epsilon\":1,\"delta\":1e-6}";

    @Autowired
    DatasetRows rows;

    private Response create(String neighbouring, String ratings) {
        return postJson("/v1/datasets", "{\"name\":\"r\",\"kind\":\"RATINGS\",\"neighbouring\":\"" + neighbouring
                + "\",\"ratings\":" + ratings + ",\"budget\":" + BUDGET + "}");
    }

    private String ratings(String neighbouring, String declaration) {
        Response r = create(neighbouring, declaration);
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        return r.json().get("id").asString();
    }

    private Response upload(String id, String contentType, String body) {
        return put("/v1/datasets/" + id + "/data", contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    /** A user's ratings as read in one pass: "user:item=rating,…" in visit order. */
    private static List<String> read(RatingsSource source) {
        List<String> out = new ArrayList<>();
        source.forEachUser((user, items, ratings, count) -> {
            StringBuilder b = new StringBuilder().append(user).append(':');
            for (int k = 0; k < count; k++) {
                b.append(k == 0 ? "" : ",").append(items[k]).append('=').append(ratings[k]);
            }
            out.add(b.toString());
        });
        return out;
    }

    @Test
    void triplesAreReadBackRawInUserOrderWithTheirLabels() {
        String id = ratings("REPLACE_ONE", "{\"itemLabels\":[\"heat\",\"alien\",\"up\",\"jaws\"],\"min\":1,\"max\":5,"
                + "\"perUserCap\":4}");
        Response up = upload(id, "text/csv", "user,item,rating\nbob,alien,4.5\nann,heat,1\n\"c,d\",jaws,5\n"
                + "bob,up,3\nann,jaws,2.25\n");
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        assertThat(up.json().get("rows").asLong()).as("users").isEqualTo(3);
        assertThat(up.json().get("cols").asLong()).as("items").isEqualTo(4);
        assertThat(up.json().get("nnz").asLong()).as("|Ω|").isEqualTo(5);
        assertThat(up.json().get("droppedRatings").asLong()).isZero();
        UUID uuid = UUID.fromString(id);
        RatingsSource source = rows.ratings(uuid);
        assertThat(source.items()).isEqualTo(4);
        // Dense ids in order of first appearance, ratings raw (not centred), upload order within a user.
        List<String> expected = List.of("0:1=4.5,2=3.0", "1:0=1.0,3=2.25", "2:3=5.0");
        assertThat(read(source)).isEqualTo(expected);
        assertThat(read(source)).as("a second pass reads the same").isEqualTo(expected);
        assertThat(rows.ratingsUsers(uuid)).containsExactly("bob", "ann", "c,d");
        assertThat(rows.ratingsUserIndex(uuid, "c,d")).isEqualTo(OptionalInt.of(2));
        assertThat(rows.ratingsUserIndex(uuid, "nobody")).isEmpty();
        JsonNode view = get("/v1/datasets/" + id).json();
        assertThat(view.get("kind").asString()).isEqualTo("RATINGS");
        assertThat(view.get("ratings").get("itemLabels").get(3).asString()).isEqualTo("jaws");
        assertThat(view.get("ratings").get("calibration").asString()).isEqualTo("USER");
        assertThat(view.get("privacyUnit").asString()).contains("user");
        assertThat(view.get("storage").asString()).isEqualTo("SPARSE");
    }

    @Test
    void theSchemaGivesTheDomainAndTheRelation() {
        String id = ratings("ADD_REMOVE", "{\"items\":3,\"min\":-1,\"max\":1,\"perUserCap\":2}");
        Dataset dataset = rows instanceof DatasetService s ? s.get(UUID.fromString(id)) : null;
        RatingsSchema schema = (RatingsSchema) dataset.schema();
        assertThat(schema.domain()).isEqualTo(new RatingsDomain(3, -1, 1, 2));
        assertThat(schema.relation(Neighbouring.ADD_REMOVE)).isEqualTo(RatingsRelation.USER_ADD_REMOVE);
        assertThat(schema.relation(Neighbouring.REPLACE_ONE)).isEqualTo(RatingsRelation.USER);
        assertThat(schema.itemLabels()).containsExactly("0", "1", "2");
        // Items named by their number, TSV without a header; "01" is not item 1.
        assertThat(upload(id, "text/tab-separated-values", "u1\t2\t-1\nu2\t0\t0\n").status()).isEqualTo(200);
        assertThat(read(rows.ratings(UUID.fromString(id)))).containsExactly("0:2=-1.0", "1:0=0.0");
        String other = ratings("REPLACE_ONE", "{\"items\":3,\"min\":-1,\"max\":1,\"perUserCap\":2,\"relation\":\"RATING\"}");
        RatingsSchema rating = (RatingsSchema) ((DatasetService) rows).get(UUID.fromString(other)).schema();
        assertThat(rating.relation(Neighbouring.REPLACE_ONE)).isEqualTo(RatingsRelation.RATING);
        Response leading = upload(other, "text/csv", "u,01,0\n");
        assertThat(leading.status()).isEqualTo(422);
        assertThat(leading.json().get("column").asLong()).isEqualTo(2);
    }

    @Test
    void theCapKeepsTheFirstRatingsInUploadOrderWhateverTheirValues() {
        String declaration = "{\"items\":5,\"min\":1,\"max\":5,\"perUserCap\":2}";
        String lines = "a,0,%s\nb,1,%s\na,1,%s\na,2,%s\nb,3,%s\na,4,%s\nb,0,%s\n";
        String low = ratings("REPLACE_ONE", declaration);
        String high = ratings("REPLACE_ONE", declaration);
        Response lowUp = upload(low, "text/csv", String.format(lines, 1, 1, 1, 1, 1, 1, 1));
        Response highUp = upload(high, "text/csv", String.format(lines, 5, 2, 3, 5, 4, 5, 5));
        assertThat(lowUp.json().get("droppedRatings").asLong()).isEqualTo(3);
        assertThat(highUp.json().get("droppedRatings").asLong()).isEqualTo(3);
        assertThat(lowUp.json().get("nnz").asLong()).isEqualTo(4);
        // The same (user, item) entries are kept in both: a's first two (items 0, 1), b's (1, 3).
        assertThat(read(rows.ratings(UUID.fromString(low)))).containsExactly("0:0=1.0,1=1.0", "1:1=1.0,3=1.0");
        assertThat(read(rows.ratings(UUID.fromString(high)))).containsExactly("0:0=5.0,1=3.0", "1:1=2.0,3=4.0");
    }

    @Test
    void badLinesAreRefusedWithTheirPositionAndNothingIsStored() {
        String id = ratings("REPLACE_ONE", "{\"itemLabels\":[\"x\",\"y\"],\"min\":1,\"max\":5,\"perUserCap\":1}");
        String[][] cases = {
                {"a,x,3\nb,x,6\n", "2", "3", "range"},
                {"a,x,3\nb,x,0.5\n", "2", "3", "range"},
                {"a,x,3\nb,x,NaN\n", "2", "3", ""},
                {"a,x,3\nb,z,3\n", "2", "2", "item"},
                {"a,x,3\nb,y,4\nb,x,2\na,x,1\n", "4", "", "line 1"},
                {"a,x,3\n,y,4\n", "2", "1", "user"},
                {"a,x,3\nb,y\n", "2", "", "fields"},
                {"a,x,3\nb,y,abc\n", "2", "3", ""},
        };
        for (String[] c : cases) {
            Response bad = upload(id, "text/csv", c[0]);
            assertThat(bad.status()).as(c[0] + " → " + bad).isEqualTo(422);
            assertThat(bad.json().get("line").asLong()).as(c[0]).isEqualTo(Long.parseLong(c[1]));
            if (!c[2].isEmpty()) {
                assertThat(bad.json().get("column").asLong()).as(c[0]).isEqualTo(Long.parseLong(c[2]));
            }
            assertThat(bad.json().get("detail").asString()).as(c[0]).contains(c[3]);
        }
        // A duplicate beyond the cap is still a duplicate (every line is checked before the cap applies).
        Response repeat = upload(id, "text/csv", "a,x,3\na,y,4\na,y,5\n");
        assertThat(repeat.status()).isEqualTo(422);
        assertThat(repeat.json().get("line").asLong()).isEqualTo(3);
        assertThat(repeat.json().get("detail").asString()).contains("line 2");
        assertThat(upload(id, "text/csv", "").status()).isEqualTo(422);
        assertThat(upload(id, "text/csv", "user,item,rating\n").status()).isEqualTo(422);
        assertThat(upload(id, "application/x-npy", "x").status()).isEqualTo(415);
        // Nothing was stored: no chunk, no user label, the dataset still EMPTY, and a good upload goes through.
        assertThat(jdbc.queryForObject("SELECT count(*) FROM ratings_user WHERE dataset_id = ?::uuid", Long.class, id))
                .isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM data_chunk WHERE dataset_id = ?::uuid", Long.class, id))
                .isZero();
        assertThat(get("/v1/datasets/" + id).json().get("status").asString()).isEqualTo("EMPTY");
        Response good = upload(id, "text/csv", "a,x,3\na,y,4\nb,y,5\n");
        assertThat(good.status()).as(good.toString()).isEqualTo(200);
        assertThat(good.json().get("droppedRatings").asLong()).isEqualTo(1);
    }

    @Test
    void badDeclarationsAreRefused() {
        String[][] cases = {
                {"REPLACE_ONE", null, "ratings"},
                {"REPLACE_ONE", "{\"min\":1,\"max\":5,\"perUserCap\":1}", "ratings.items"},
                {"REPLACE_ONE", "{\"items\":0,\"min\":1,\"max\":5,\"perUserCap\":1}", "ratings.items"},
                {"REPLACE_ONE", "{\"items\":3,\"min\":5,\"max\":5,\"perUserCap\":1}", "ratings.max"},
                {"REPLACE_ONE", "{\"items\":3,\"min\":6,\"max\":5,\"perUserCap\":1}", "ratings.max"},
                {"REPLACE_ONE", "{\"items\":3,\"max\":5,\"perUserCap\":1}", "ratings.min"},
                {"REPLACE_ONE", "{\"items\":3,\"min\":-1e308,\"max\":1e308,\"perUserCap\":1}", "ratings.max"},
                {"REPLACE_ONE", "{\"items\":3,\"min\":1,\"max\":5,\"perUserCap\":4}", "ratings.perUserCap"},
                {"REPLACE_ONE", "{\"items\":3,\"min\":1,\"max\":5,\"perUserCap\":0}", "ratings.perUserCap"},
                {"REPLACE_ONE", "{\"items\":3,\"min\":1,\"max\":5}", "ratings.perUserCap"},
                {"REPLACE_ONE", "{\"itemLabels\":[\"a\",\"b\",\"a\"],\"min\":1,\"max\":5,\"perUserCap\":1}",
                        "ratings.itemLabels[2]"},
                {"REPLACE_ONE", "{\"itemLabels\":[\"a\",\"\"],\"min\":1,\"max\":5,\"perUserCap\":1}",
                        "ratings.itemLabels[1]"},
                {"REPLACE_ONE", "{\"items\":3,\"itemLabels\":[\"a\",\"b\"],\"min\":1,\"max\":5,\"perUserCap\":1}",
                        "ratings.items"},
                {"ADD_REMOVE", "{\"items\":3,\"min\":1,\"max\":5,\"perUserCap\":1,\"relation\":\"RATING\"}",
                        "ratings.relation"},
                {"REPLACE_ONE", "{\"items\":3,\"min\":1,\"max\":5,\"perUserCap\":1,\"relation\":\"ITEM\"}",
                        "ratings.relation"},
        };
        for (String[] c : cases) {
            Response r = create(c[0], c[1] == null ? "null" : c[1]);
            assertThat(r.status()).as(c[1] + " → " + r).isEqualTo(400);
            assertThat(r.json().get("parameter").asString()).as(c[1]).isEqualTo(c[2]);
        }
        Response elsewhere = postJson("/v1/datasets", "{\"name\":\"m\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"ratings\":{\"items\":3,\"min\":1,\"max\":5,\"perUserCap\":1},\"budget\":" + BUDGET + "}");
        assertThat(elsewhere.json().get("parameter").asString()).isEqualTo("ratings");
        Response bound = postJson("/v1/datasets", "{\"name\":\"r\",\"kind\":\"RATINGS\",\"rowNormBound\":1,"
                + "\"ratings\":{\"items\":3,\"min\":1,\"max\":5,\"perUserCap\":1},\"budget\":" + BUDGET + "}");
        assertThat(bound.json().get("parameter").asString()).isEqualTo("rowNormBound");
    }

    @Test
    void analystsSeeUsersAndRatingsCountsOnlyUnderRating() {
        String body = "a,0,1\nb,1,2\nb,2,3\n";
        String user = ratings("REPLACE_ONE", "{\"items\":3,\"min\":1,\"max\":5,\"perUserCap\":1}");
        String rating = ratings("REPLACE_ONE", "{\"items\":3,\"min\":1,\"max\":5,\"perUserCap\":3,"
                + "\"relation\":\"RATING\"}");
        upload(user, "text/csv", body);
        upload(rating, "text/csv", body);
        for (String id : List.of(user, rating)) {
            postJson("/v1/datasets/" + id + "/grants", "{\"analyst\":\"" + ANALYST + "\"}");
        }
        JsonNode owner = get("/v1/datasets/" + user).json();
        assertThat(owner.get("rows").asLong()).isEqualTo(2);
        assertThat(owner.get("nnz").asLong()).isEqualTo(2);
        assertThat(owner.get("droppedRatings").asLong()).isEqualTo(1);
        JsonNode hidden = sendAs(analystKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/datasets/" + user)).GET())
                .json();
        assertThat(hidden.get("rows").isNull()).as("m under USER").isTrue();
        assertThat(hidden.get("nnz").isNull()).as("|Ω| under USER").isTrue();
        assertThat(hidden.get("droppedRatings").isNull()).isTrue();
        assertThat(hidden.get("cols").asLong()).isEqualTo(3);
        assertThat(hidden.get("ratings").get("perUserCap").asInt()).isEqualTo(1);
        JsonNode shown = sendAs(analystKey(), java.net.http.HttpRequest.newBuilder(uri("/v1/datasets/" + rating)).GET())
                .json();
        assertThat(shown.get("rows").asLong()).as("m under RATING").isEqualTo(2);
        assertThat(shown.get("nnz").asLong()).as("|Ω| under RATING").isEqualTo(3);
        assertThat(shown.get("droppedRatings").isNull()).isTrue();
        assertThat(shown.get("privacyUnit").asString()).contains("one rating");
    }

    @Test
    void queryKindsForOtherDataRefuseRatingsBeforeAnyCharge() {
        String id = ratings("REPLACE_ONE", "{\"items\":3,\"min\":1,\"max\":5,\"perUserCap\":1}");
        upload(id, "text/csv", "a,0,1\n");
        Response quote = postJson("/v1/datasets/" + id + "/queries/quote",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.005}");
        assertThat(quote.status()).as(quote.toString()).isEqualTo(409);
        assertThat(quote.json().get("detail").asString()).contains("RATINGS");
        Response submit = postJson("/v1/datasets/" + id + "/queries",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.005}");
        assertThat(submit.status()).isEqualTo(409);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?::uuid", Long.class, id))
                .isZero();
    }
}
