package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.api.JsonNumbers;
import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** LOW_RANK and TOP_SINGULAR_VECTORS end to end over HTTP, for each mechanism. */
class LowRankQueryTest extends ApiTest {

    private static final int D = 6;
    private static final int N = 2000;

    /** 2000 rows, norm ≤ 1: a strong direction e₀ (sd 0.8) plus small noise (sd 0.05). */
    private String dataset(String neighbouring, String budget) {
        String id = postJson("/v1/datasets", "{\"name\":\"lowrank\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"" + neighbouring + "\",\"budget\":" + budget + "}").json().get("id").asString();
        SplittableRandom random = new SplittableRandom(17);
        StringBuilder csv = new StringBuilder();
        for (int r = 0; r < N; r++) {
            for (int c = 0; c < D; c++) {
                csv.append(c == 0 ? "" : ",").append((c == 0 ? 0.8 : 0.05) * random.nextGaussian());
            }
            csv.append('\n');
        }
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8))
                .status()).isEqualTo(200);
        return id;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "RANDOMIZED_RESPONSE | {\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"rho\":2,\"params\":{\"k\":1}}",
        "HARDT_ROTH          | {\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"HARDT_ROTH\",\"epsilon\":20,\"delta\":1e-6,\"params\":{\"k\":1,\"oversampling\":2}}",
        "NOISY_POWER         | {\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"NOISY_POWER\",\"rho\":0.5,\"params\":{\"k\":1,\"iterations\":8}}",
        "PRIVATE_OJA         | {\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"PRIVATE_OJA\",\"epsilon\":2,\"delta\":1e-6,\"params\":{\"k\":1}}",
        "ORBIT_SAMPLING      | {\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"ORBIT_SAMPLING\",\"epsilon\":2,\"params\":{\"k\":1}}",
        "ORBIT_PEELING       | {\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"ORBIT_SAMPLING\",\"epsilon\":2,\"params\":{\"k\":1,\"spectrum\":\"PEELING\"}}"
    })
    void topSingularVectorFindsTheSignalAndTheChargeMatchesTheQuote(String label, String query) {
        String id = dataset("REPLACE_ONE", "{\"epsilon\":60,\"delta\":1e-5}");
        JsonNode quote = postJson("/v1/datasets/" + id + "/queries/quote", query).json();
        assertThat(quote.get("admissible").asBoolean()).as(quote.toString()).isTrue();
        JsonNode result = runQuery(id, query);
        double[][] v = matrix(result.get("v"));
        assertThat(v).hasNumberOfRows(D);
        assertThat(v[0]).hasSize(1);
        double norm = 0;
        for (double[] row : v) {
            norm += row[0] * row[0];
        }
        assertThat(norm).isCloseTo(1, within(1e-9));
        // Σ x₀² ≈ 1280 against ≈ 5 for every other column: the private direction must be close to e₀.
        assertThat(Math.abs(v[0][0])).as(label).isGreaterThan(0.9);
        assertThat(result.get("singularValues")).hasSize(1);
        // The ledger moved exactly as quoted, on every track.
        JsonNode remaining = get("/v1/datasets/" + id + "/budget").json().get("remaining").get("tracks");
        quote.get("remainingAfter").properties().forEach(track -> assertThat(
                remaining.get(track.getKey()).decimalValue()).as(track.getKey())
                .isEqualByComparingTo(track.getValue().decimalValue()));
        assertThat(quote.get("remainingAfter").size()).isPositive();
    }

    @Test
    void lowRankReleasesLeftFactorsAsNpyAndChargesTheQuote() {
        String id = dataset("REPLACE_ONE", "{\"epsilon\":60,\"delta\":1e-5}");
        String q = "{\"kind\":\"LOW_RANK\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"rho\":2,\"params\":{\"k\":2}}";
        JsonNode quote = postJson("/v1/datasets/" + id + "/queries/quote", q).json();
        Response submitted = postJson("/v1/datasets/" + id + "/queries", q);
        String job = submitted.json().get("id").asString();
        assertThat(submitted.json().get("cost").get("rho").decimalValue())
                .isEqualByComparingTo(quote.get("cost").get("rho").decimalValue());
        assertThat(awaitJob(job).get("state").asString()).isEqualTo("DONE");
        JsonNode result = get("/v1/jobs/" + job + "/result").json();
        assertThat(result.get("rows").asInt()).isEqualTo(N);
        assertThat(result.get("uInline").asBoolean()).isTrue();
        assertThat(result.get("u")).hasSize(N);
        double[][] u = matrix(result.get("u"));
        double[] s = result.get("singularValues").valueStream().mapToDouble(JsonNode::asDouble).toArray();
        assertThat(s[0]).isGreaterThanOrEqualTo(s[1]);
        // Randomized response's u is orthonormal (left singular vectors of the noisy matrix).
        double uu = 0;
        for (double[] row : u) {
            uu += row[0] * row[0];
        }
        assertThat(uu).isCloseTo(1, within(1e-6));
        Response npy = send(HttpRequest.newBuilder(uri("/v1/jobs/" + job + "/result")).header("Accept",
                "application/x-npy").GET());
        ByteBuffer b = ByteBuffer.wrap(npy.body()).order(ByteOrder.LITTLE_ENDIAN);
        int header = b.getShort(8);
        assertThat(new String(npy.body(), 10, header)).contains("'shape': (" + N + ", 2)");
        assertThat(b.getDouble(10 + header)).isEqualTo(u[0][0]);
    }

    @Test
    void shrinkageIsFreePostProcessingOfRandomizedResponse() {
        String id = dataset("REPLACE_ONE", "{\"epsilon\":60,\"delta\":1e-5}");
        String plain = "{\"kind\":\"LOW_RANK\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"rho\":0.01,\"params\":{\"k\":2}}";
        String shrunk = "{\"kind\":\"LOW_RANK\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"rho\":0.01,"
                + "\"params\":{\"k\":2,\"shrink\":true}}";
        JsonNode a = postJson("/v1/datasets/" + id + "/queries/quote", plain).json();
        JsonNode b = postJson("/v1/datasets/" + id + "/queries/quote", shrunk).json();
        assertThat(b.get("cost").get("rho").decimalValue()).isEqualByComparingTo(a.get("cost").get("rho").decimalValue());
        // ρ = 0.01 on this small dataset: the noise (σ ≈ 14 per entry, spectral edge ≈ σ√N) swamps the
        // signal (σ₁ ≈ 36). Raw values sit at the edge; shrunk ones are 0, or small when the noise's
        // largest value pokes above the asymptotic edge (finite-sample fluctuation).
        JsonNode raw = runQuery(id, plain);
        double edge = raw.get("facts").get("sigma").asDouble() * Math.sqrt(N);
        assertThat(raw.get("singularValues").valueStream().mapToDouble(JsonNode::asDouble)).allMatch(v -> v > 0.9 * edge);
        JsonNode result = runQuery(id, shrunk);
        assertThat(result.get("facts").get("componentsAboveNoise").asInt()).isBetween(0, 2);
        assertThat(result.get("singularValues").valueStream().mapToDouble(JsonNode::asDouble)).allMatch(v -> v < 0.25 * edge);
    }

    @Test
    void hardtRothIsChargedAsApproximateZcdpWithAQuarterOfDelta() {
        String id = dataset("REPLACE_ONE", "{\"epsilon\":60,\"delta\":1e-5}");
        String q = "{\"kind\":\"LOW_RANK\",\"mechanism\":\"HARDT_ROTH\",\"epsilon\":20,\"delta\":4e-6,"
                + "\"params\":{\"k\":1,\"oversampling\":2,\"coherence\":2}}";
        JsonNode quote = postJson("/v1/datasets/" + id + "/queries/quote", q).json();
        assertThat(quote.get("cost").get("delta").doubleValue()).isEqualTo(JsonNumbers.charged(new java.math.BigDecimal("1e-6")));
        assertThat(quote.get("noise").get("pruningThreshold").asDouble()).isLessThan(1);
        JsonNode result = runQuery(id, q);
        assertThat(result.get("loss").get("charged").get("notion").asString()).isEqualTo(
                result.get("loss").get("mechanism").get("notion").asString());
        assertThat(result.get("facts").get("oversampledRank").asInt()).isEqualTo(3);
        assertThat(result.get("u")).hasSize(N);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "k zero             | {\"kind\":\"LOW_RANK\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"rho\":1,\"params\":{\"k\":0}}                    | params.k",
        "k too big          | {\"kind\":\"LOW_RANK\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"rho\":1,\"params\":{\"k\":7}}                    | params.k",
        "oja k 2            | {\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"PRIVATE_OJA\",\"rho\":1,\"params\":{\"k\":2}}               | params.k",
        "power in low rank  | {\"kind\":\"LOW_RANK\",\"mechanism\":\"NOISY_POWER\",\"rho\":1,\"params\":{\"k\":1}}                            | mechanism",
        "hr with rho        | {\"kind\":\"LOW_RANK\",\"mechanism\":\"HARDT_ROTH\",\"rho\":1,\"params\":{\"k\":1}}                             | rho",
        "coherence below 1  | {\"kind\":\"LOW_RANK\",\"mechanism\":\"HARDT_ROTH\",\"epsilon\":1,\"delta\":1e-7,\"params\":{\"k\":1,\"coherence\":0.5}} | params.coherence",
        "orbit with delta   | {\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"ORBIT_SAMPLING\",\"epsilon\":1,\"delta\":1e-7,\"params\":{\"k\":1}} | delta",
        "bad spectrum       | {\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"ORBIT_SAMPLING\",\"epsilon\":1,\"params\":{\"k\":1,\"spectrum\":\"FLAT\"}} | params.spectrum",
        "foreign param      | {\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"NOISY_POWER\",\"rho\":1,\"params\":{\"k\":1,\"stepSize\":1}} | params.stepSize",
        "shrink on power    | {\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"NOISY_POWER\",\"rho\":1,\"params\":{\"k\":1,\"shrink\":true}} | params.shrink",
        "shrink not boolean | {\"kind\":\"LOW_RANK\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"rho\":1,\"params\":{\"k\":1,\"shrink\":\"yes\"}} | params.shrink",
        "zero iterations    | {\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"NOISY_POWER\",\"rho\":1,\"params\":{\"k\":1,\"iterations\":0}} | params.iterations"
    })
    void invalidRequestsNameTheParameter(String label, String body, String parameter) {
        String id = dataset("REPLACE_ONE", "{\"epsilon\":10,\"delta\":1e-6}");
        Response r = postJson("/v1/datasets/" + id + "/queries", body);
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
        assertThat(r.json().get("parameter").asString()).isEqualTo(parameter);
    }

    @Test
    void rowBasedMechanismsNeedAPublicRowCountAndPureAccountingTakesOnlyOrbitSampling() {
        String addRemove = dataset("ADD_REMOVE", "{\"epsilon\":10,\"delta\":1e-6}");
        Response rr = postJson("/v1/datasets/" + addRemove + "/queries",
                "{\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"rho\":1,\"params\":{\"k\":1}}");
        assertThat(rr.status()).isEqualTo(400);
        assertThat(rr.json().get("parameter").asString()).isEqualTo("mechanism");
        JsonNode power = runQuery(addRemove,
                "{\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"NOISY_POWER\",\"rho\":1,\"params\":{\"k\":2}}");
        assertThat(matrix(power.get("v"))[0]).hasSize(2);
        assertThat(power.has("rows")).isFalse();

        String pure = dataset("REPLACE_ONE", "{\"epsilon\":5,\"delta\":0,\"accounting\":\"PURE\"}");
        Response gauss = postJson("/v1/datasets/" + pure + "/queries",
                "{\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"NOISY_POWER\",\"epsilon\":1,\"delta\":1e-7,"
                        + "\"params\":{\"k\":1}}");
        assertThat(gauss.status()).isEqualTo(422);
        assertThat(gauss.json().get("type").asString()).isEqualTo("https://privmat.io/problems/incompatible-accounting");
        JsonNode orbit = runQuery(pure,
                "{\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"ORBIT_SAMPLING\",\"epsilon\":2,\"params\":{\"k\":1}}");
        assertThat(orbit.get("loss").get("charged").get("epsilon").decimalValue()).isEqualByComparingTo("2");
    }

    @Test
    void gramBasedMechanismsRefuseVeryWideDatasetsBeforeCharging() {
        String id = postJson("/v1/datasets", "{\"name\":\"wide\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"budget\":{\"epsilon\":30,\"delta\":1e-6}}").json().get("id").asString();
        StringBuilder csv = new StringBuilder();
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 5001; c++) {
                csv.append(c == 0 ? "" : ",").append(c == r ? "0.5" : "0");
            }
            csv.append('\n');
        }
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8))
                .status()).isEqualTo(200);
        for (String q : new String[] {
            "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":1}",
            "{\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"ORBIT_SAMPLING\",\"epsilon\":1,\"params\":{\"k\":1}}",
            "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":1,\"delta\":1e-7}"}) {
            Response r = postJson("/v1/datasets/" + id + "/queries", q);
            assertThat(r.status()).as(q).isEqualTo(422);
            assertThat(r.json().get("type").asString()).isEqualTo("https://privmat.io/problems/dataset-too-large");
        }
        assertThat(get("/v1/datasets/" + id + "/budget").json().get("spent").get("tracks").get("rho").decimalValue())
                .isZero();
        // Randomized response takes the wide path (3 × 5001 noisy entries, 3 × 3 row Gram).
        JsonNode wide = runQuery(id, "{\"kind\":\"LOW_RANK\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"rho\":1,"
                + "\"params\":{\"k\":2}}");
        assertThat(wide.get("v")).hasSize(5001);
        assertThat(wide.get("u")).hasSize(3);
        // The power method and Oja stream Xᵀ(X·V) from the rows instead (one pass per iteration).
        for (String mechanism : new String[] {"NOISY_POWER", "PRIVATE_OJA"}) {
            JsonNode streamed = runQuery(id, "{\"kind\":\"TOP_SINGULAR_VECTORS\",\"mechanism\":\"" + mechanism
                    + "\",\"rho\":0.5,\"params\":{\"k\":1,\"iterations\":3}}");
            double[][] v = matrix(streamed.get("v"));
            assertThat(v).hasNumberOfRows(5001);
            double norm = 0;
            for (double[] row : v) {
                norm += row[0] * row[0];
            }
            assertThat(norm).as(mechanism).isCloseTo(1, within(1e-9));
            assertThat(streamed.get("singularValues").get(0).isNumber()).isTrue();
            assertThat(Double.isFinite(streamed.get("singularValues").get(0).asDouble())).isTrue();
        }
    }
}
