package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * LINEAR_QUERIES on HISTOGRAM datasets through the API: the quote states the expected per-query RMSE
 * before anything is charged, the result carries the same number with per-query standard deviations,
 * the estimate x̂ answers further linear queries for free, strategies are public cached artifacts
 * (computed inline when small, in the background with 409 strategy-not-ready when large), and bad
 * workloads are refused with 4xx naming {@code params.workload…}.
 */
class LinearQueriesApiTest extends ApiTest {

    private static final String ATTRIBUTES = "[{\"name\":\"age\",\"size\":8},"
            + "{\"name\":\"region\",\"labels\":[\"north\",\"south\"]}]";
    private static final String RECORDS = "age,region\n0,north\n1,south\n1,north\n3,south\n3,south\n5,north\n7,north\n"
            + "7,south\n2,north\n6,south\n";

    private String histogram(String attributes, String records, String budget) {
        Response r = postJson("/v1/datasets", "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"neighbouring\":\"REPLACE_ONE\","
                + "\"attributes\":" + attributes + ",\"budget\":" + budget + "}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        String id = r.json().get("id").asString();
        Response up = put("/v1/datasets/" + id + "/data", "text/csv", records.getBytes(StandardCharsets.UTF_8));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        return id;
    }

    private String histogram() {
        return histogram(ATTRIBUTES, RECORDS, "{\"epsilon\":5,\"delta\":1e-6}");
    }

    private static String query(String mechanism, String budget, String workload) {
        return "{\"kind\":\"LINEAR_QUERIES\",\"mechanism\":\"" + mechanism + "\"," + budget + ",\"params\":{\"workload\":"
                + workload + "}}";
    }

    private JsonNode spent(String dataset) {
        return get("/v1/datasets/" + dataset + "/budget").json().get("spent").get("tracks");
    }

    /** Whether nothing was spent on any track of the dataset. */
    private boolean nothingSpent(String dataset) {
        JsonNode tracks = spent(dataset);
        assertThat(tracks.size()).isPositive();
        return tracks.valueStream().allMatch(t -> t.decimalValue().signum() == 0);
    }

    @Test
    void quoteStatesTheErrorTheResultHasAndTheEstimateAnswersMoreForFree() {
        String dataset = histogram();
        String q = query("HIERARCHICAL", "\"epsilon\":0.5", "{\"type\":\"ALL_RANGE\"}");
        Response quote = postJson("/v1/datasets/" + dataset + "/queries/quote", q);
        assertThat(quote.status()).as(quote.toString()).isEqualTo(200);
        JsonNode noise = quote.json().get("noise");
        double expected = noise.get("expectedRmsePerQuery").asDouble();
        assertThat(expected).isPositive();
        assertThat(noise.get("queries").asInt()).as("36 age ranges × 3 region ranges").isEqualTo(108);
        assertThat(noise.get("strategyMethod").asString()).isEqualTo("HIERARCHICAL");
        assertThat(noise.get("l1Sensitivity").asDouble()).as("two trees of 4 and 2 levels, replacing: 2·4·2")
                .isCloseTo(16, within(1e-6));
        assertThat(nothingSpent(dataset)).as("a quote charges nothing").isTrue();

        JsonNode result = runQuery(dataset, q);
        assertThat(result.get("kind").asString()).isEqualTo("LINEAR_QUERIES");
        assertThat(result.get("expectedRmsePerQuery").asDouble()).isEqualTo(expected);
        assertThat(result.get("answers").size()).isEqualTo(108);
        assertThat(result.get("standardDeviations").size()).isEqualTo(108);
        assertThat(result.get("answersInline").asBoolean()).isTrue();
        assertThat(result.get("releaseKind").asString()).isEqualTo("HISTOGRAM_ESTIMATE");
        JsonNode budgetAfterJob = spent(dataset);

        // The box age ∈ [0, 3] (region summed out) is query 3·3 + 1 of the workload: age ranges by lo then
        // hi ([0,3] is the 4th), region ranges [0,0], [0,1], [1,1] (the whole region is the 2nd).
        String release = result.get("releaseId").asString();
        Response further = postJson("/v1/releases/" + release + "/linear-queries",
                "{\"boxes\":[{\"age\":[0,3]},{\"age\":[0,3],\"region\":[0,1]},{}]}");
        assertThat(further.status()).as(further.toString()).isEqualTo(200);
        JsonNode a = further.json().get("answers");
        double workloadAnswer = result.get("answers").get(10).asDouble();
        assertThat(a.get(0).get("value").asDouble()).isCloseTo(workloadAnswer, within(1e-9 * (1 + Math.abs(workloadAnswer))));
        assertThat(a.get(1).get("value").asDouble()).isEqualTo(a.get(0).get("value").asDouble());
        assertThat(a.get(0).get("standardDeviation").asDouble())
                .isCloseTo(result.get("standardDeviations").get(10).asDouble(), within(1e-9));
        assertThat(a.get(0).has("biasFactor") && !a.get(0).get("biasFactor").isNull()).as("unbiased").isFalse();
        assertThat(further.json().get("biased").asBoolean()).isFalse();
        // The same box as a dense vector of 16 cells (cell = age·2 + region).
        StringBuilder v = new StringBuilder("{\"queries\":[[");
        for (int cell = 0; cell < 16; cell++) {
            v.append(cell == 0 ? "" : ",").append(cell / 2 <= 3 ? 1 : 0);
        }
        Response dense = postJson("/v1/releases/" + release + "/linear-queries", v.append("]]}").toString());
        assertThat(dense.status()).as(dense.toString()).isEqualTo(200);
        assertThat(dense.json().get("answers").get(0).get("value").asDouble())
                .isCloseTo(a.get(0).get("value").asDouble(), within(1e-9));
        assertThat(dense.json().get("answers").get(0).get("standardDeviation").asDouble())
                .isCloseTo(a.get(0).get("standardDeviation").asDouble(), within(1e-9));
        assertThat(spent(dataset)).as("further queries are free").isEqualTo(budgetAfterJob);

        // The answers as .npy: m float64 values.
        Response npy = send(HttpRequest.newBuilder(uri("/v1/jobs/" + result.get("jobId").asString() + "/result"))
                .header("Accept", "application/x-npy").GET());
        assertThat(npy.status()).isEqualTo(200);
        assertThat(npy.body().length).isGreaterThan(108 * 8);

        // Bad further queries.
        assertThat(postJson("/v1/releases/" + release + "/linear-queries", "{\"boxes\":[{\"age\":[2,9]}]}").status())
                .isEqualTo(400);
        assertThat(postJson("/v1/releases/" + release + "/linear-queries", "{\"boxes\":[{\"height\":[0,1]}]}")
                .status()).isEqualTo(400);
        assertThat(postJson("/v1/releases/" + release + "/linear-queries", "{\"queries\":[[1,2,3]]}").status())
                .isEqualTo(400);
        assertThat(postJson("/v1/releases/" + release + "/linear-queries", "{}").status()).isEqualTo(400);
        assertThat(postJson("/v1/releases/" + release + "/directional-variance", "{\"vectors\":[[1]]}").status())
                .isEqualTo(409);
    }

    @Test
    void smallOptimisedStrategiesAreComputedInlineCachedAndPublic() {
        String dataset = histogram();
        String q = query("OPTIMIZED", "\"rho\":0.1", "{\"type\":\"PREFIX\",\"attributes\":[\"age\"]}");
        Response first = postJson("/v1/datasets/" + dataset + "/queries/quote", q);
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        JsonNode noise = first.json().get("noise");
        String key = noise.get("strategyKey").asString();
        assertThat(noise.get("queries").asInt()).isEqualTo(8);
        Response strategy = get("/v1/strategies/" + key);
        assertThat(strategy.status()).as(strategy.toString()).isEqualTo(200);
        assertThat(strategy.json().get("status").asString()).isEqualTo("DONE");
        assertThat(strategy.json().get("method").asString()).startsWith("OPTIMIZED");
        assertThat(strategy.json().get("queries").asInt()).isEqualTo(8);
        double unit = strategy.json().get("expectedRmsePerUnitNoise").asDouble();
        assertThat(unit).isPositive();
        // The quote's RMSE is the strategy's per unit of noise times σ/Δ: here σ from ρ = 0.1.
        double sigma = noise.get("sigma").asDouble();
        double delta = noise.get("l2Sensitivity").asDouble();
        assertThat(noise.get("expectedRmsePerQuery").asDouble()).isGreaterThan(0);
        assertThat(noise.get("expectedRmsePerQuery").asDouble() / (sigma / delta * unit))
                .as("REPLACE_ONE sensitivity is √2·c₂ or 2·c₂ of the ADD_REMOVE one").isBetween(0.99, 2.01);
        // The second identical request uses the cached strategy (same key, same numbers).
        Response second = postJson("/v1/datasets/" + dataset + "/queries/quote", q);
        assertThat(second.json().get("noise")).isEqualTo(noise);
        Integer rows = jdbc.queryForObject("SELECT count(*) FROM strategy WHERE id = ?", Integer.class, key);
        assertThat(rows).isEqualTo(1);
        // Asking for it ahead of a query: already DONE, 200.
        Response ahead = postJson("/v1/datasets/" + dataset + "/strategies",
                "{\"mechanism\":\"OPTIMIZED\",\"params\":{\"workload\":{\"type\":\"PREFIX\",\"attributes\":[\"age\"]}}}");
        assertThat(ahead.status()).as(ahead.toString()).isEqualTo(200);
        assertThat(ahead.json().get("key").asString()).isEqualTo(key);
        JsonNode result = runQuery(dataset, q);
        assertThat(result.get("expectedRmsePerQuery").asDouble()).isEqualTo(noise.get("expectedRmsePerQuery").asDouble());
        Response further = postJson("/v1/releases/" + result.get("releaseId").asString() + "/linear-queries",
                "{\"boxes\":[{\"age\":[0,7]}]}");
        assertThat(further.status()).as(further.toString()).isEqualTo(200);
        assertThat(further.json().get("strategyMethod").asString()).startsWith("OPTIMIZED");
        assertThat(get("/v1/strategies/" + "0".repeat(64)).status()).isEqualTo(404);
        assertThat(get("/v1/strategies/nope").status()).isEqualTo(404);
    }

    @Test
    void largeStrategiesAreComputedInTheBackgroundWhileRequestsAreToldToWait() throws InterruptedException {
        String attributes = "[{\"name\":\"v\",\"size\":300}]";
        String dataset = histogram(attributes, "v\n0\n17\n299\n", "{\"epsilon\":5,\"delta\":1e-6}");
        String q = query("OPTIMIZED", "\"rho\":0.1", "{\"type\":\"ALL_RANGE\"}");
        Response quote = postJson("/v1/datasets/" + dataset + "/queries/quote", q);
        assertThat(quote.status()).as(quote.toString()).isEqualTo(409);
        assertThat(quote.json().get("type").asString()).endsWith("/strategy-not-ready");
        String link = quote.json().get("strategy").asString();
        assertThat(link).startsWith("/v1/strategies/");
        Response submit = postJson("/v1/datasets/" + dataset + "/queries", q);
        assertThat(submit.status()).as("a submission waits for the strategy too").isEqualTo(409);
        long deadline = System.nanoTime() + 60_000_000_000L;
        JsonNode s;
        do {
            s = get(link).json();
            assertThat(s.get("status").asString()).isIn("PENDING", "RUNNING", "DONE");
            Thread.sleep(50);
        } while (!s.get("status").asString().equals("DONE") && System.nanoTime() < deadline);
        assertThat(s.get("status").asString()).isEqualTo("DONE");
        assertThat(s.get("cells").asInt()).isEqualTo(300);
        assertThat(s.get("queries").asInt()).isEqualTo(300 * 301 / 2);
        assertThat(nothingSpent(dataset)).as("nothing charged while waiting").isTrue();
        long start = System.nanoTime();
        Response again = postJson("/v1/datasets/" + dataset + "/queries/quote", q);
        assertThat(again.status()).as(again.toString()).isEqualTo(200);
        assertThat((System.nanoTime() - start) / 1e9).as("the cached strategy answers at once").isLessThan(5);
        assertThat(again.json().get("noise").get("strategyKey").asString()).isEqualTo(s.get("key").asString());
        // Only OPTIMIZED and LOW_RANK_MECHANISM have strategies to compute.
        assertThat(postJson("/v1/datasets/" + dataset + "/strategies",
                "{\"mechanism\":\"HIERARCHICAL\",\"params\":{\"workload\":{\"type\":\"ALL_RANGE\"}}}").status())
                .isEqualTo(400);
    }

    @Test
    void badWorkloadsAreRefusedNamingTheField() {
        String dataset = histogram();
        String url = "/v1/datasets/" + dataset + "/queries/quote";
        Response unknown = postJson(url, query("LAPLACE_WORKLOAD", "\"epsilon\":1",
                "{\"type\":\"PREFIX\",\"attributes\":[\"height\"]}"));
        assertThat(unknown.status()).as(unknown.toString()).isEqualTo(400);
        assertThat(unknown.json().get("parameter").asString()).isEqualTo("params.workload.attributes[0]");
        Response outside = postJson(url, query("LAPLACE_WORKLOAD", "\"epsilon\":1",
                "{\"type\":\"RANGES\",\"boxes\":[{\"age\":[3,8]}]}"));
        assertThat(outside.status()).isEqualTo(400);
        assertThat(outside.json().get("parameter").asString()).isEqualTo("params.workload.boxes[0].age");
        Response fractional = postJson(url, query("LAPLACE_WORKLOAD", "\"epsilon\":1",
                "{\"type\":\"RANGES\",\"boxes\":[{\"age\":[0.5,3]}]}"));
        assertThat(fractional.status()).isEqualTo(400);
        Response empty = postJson(url, query("LAPLACE_WORKLOAD", "\"epsilon\":1", "{\"type\":\"RANGES\",\"boxes\":[]}"));
        assertThat(empty.status()).isEqualTo(400);
        assertThat(empty.json().get("parameter").asString()).isEqualTo("params.workload.boxes");
        Response noSets = postJson(url, query("LAPLACE_WORKLOAD", "\"epsilon\":1", "{\"type\":\"MARGINALS\",\"sets\":[]}"));
        assertThat(noSets.status()).isEqualTo(400);
        Response tooManyK = postJson(url, query("LAPLACE_WORKLOAD", "\"epsilon\":1", "{\"type\":\"MARGINALS\",\"k\":3}"));
        assertThat(tooManyK.status()).isEqualTo(400);
        assertThat(tooManyK.json().get("parameter").asString()).isEqualTo("params.workload.k");
        Response badType = postJson(url, query("LAPLACE_WORKLOAD", "\"epsilon\":1", "{\"type\":\"EVERYTHING\"}"));
        assertThat(badType.status()).isEqualTo(400);
        assertThat(badType.json().get("parameter").asString()).isEqualTo("params.workload.type");
        Response extra = postJson(url, query("LAPLACE_WORKLOAD", "\"epsilon\":1", "{\"type\":\"IDENTITY\",\"k\":1}"));
        assertThat(extra.status()).isEqualTo(400);
        Response missing = postJson(url, "{\"kind\":\"LINEAR_QUERIES\",\"mechanism\":\"LAPLACE_WORKLOAD\",\"epsilon\":1}");
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.json().get("parameter").asString()).isEqualTo("params.workload");
        // The budget form: OPTIMIZED is Gaussian, LAPLACE_WORKLOAD pure ε; HIERARCHICAL's noise must match.
        assertThat(postJson(url, query("OPTIMIZED", "\"epsilon\":1", "{\"type\":\"IDENTITY\"}")).status()).isEqualTo(400);
        assertThat(postJson(url, query("LAPLACE_WORKLOAD", "\"rho\":0.1", "{\"type\":\"IDENTITY\"}")).status())
                .isEqualTo(400);
        Response noise = postJson(url, "{\"kind\":\"LINEAR_QUERIES\",\"mechanism\":\"HIERARCHICAL\",\"epsilon\":1,"
                + "\"params\":{\"workload\":{\"type\":\"IDENTITY\"},\"noise\":\"GAUSSIAN\"}}");
        assertThat(noise.status()).isEqualTo(400);
        assertThat(noise.json().get("parameter").asString()).isEqualTo("params.noise");
        // CUSTOM: shape mismatch (3 columns, 16 cells), unknown id, NaN refused at upload.
        Response w = send(HttpRequest.newBuilder(uri("/v1/workloads")).header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofString("1,1,0\n0,1,1\n")));
        assertThat(w.status()).as("201, or 200 when this caller stored the same matrix before").isIn(200, 201);
        Response shape = postJson(url, query("LAPLACE_WORKLOAD", "\"epsilon\":1", "{\"type\":\"CUSTOM\",\"id\":\""
                + w.json().get("id").asString() + "\"}"));
        assertThat(shape.status()).as(shape.toString()).isEqualTo(400);
        assertThat(shape.json().get("parameter").asString()).isEqualTo("params.workload.id");
        assertThat(postJson(url, query("LAPLACE_WORKLOAD", "\"epsilon\":1", "{\"type\":\"CUSTOM\",\"id\":\""
                + java.util.UUID.randomUUID() + "\"}")).status()).isEqualTo(400);
        assertThat(send(HttpRequest.newBuilder(uri("/v1/workloads")).header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofString("1,NaN\n"))).status()).isEqualTo(422);
        // Too large: the Low-Rank Mechanism holds WᵀW densely, n ≤ 4096 (5000 cells here).
        String big = histogram("[{\"name\":\"a\",\"size\":100},{\"name\":\"b\",\"size\":50}]", "a,b\n1,1\n",
                "{\"epsilon\":5,\"delta\":1e-6}");
        Response tooLarge = postJson("/v1/datasets/" + big + "/queries/quote", query("LOW_RANK_MECHANISM",
                "\"epsilon\":1", "{\"type\":\"IDENTITY\"}"));
        assertThat(tooLarge.status()).as(tooLarge.toString()).isEqualTo(422);
        assertThat(tooLarge.json().get("type").asString()).endsWith("/workload-too-large");
        assertThat(nothingSpent(dataset)).isTrue();
        assertThat(nothingSpent(big)).isTrue();
    }

    @Test
    void aCustomWorkloadRunsOnItsRecordedContent() {
        String dataset = histogram();
        StringBuilder csv = new StringBuilder();
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 16; c++) {
                csv.append(c == 0 ? "" : ",").append((c + r) % 3 == 0 ? 1 : 0);
            }
            csv.append('\n');
        }
        Response w = send(HttpRequest.newBuilder(uri("/v1/workloads")).header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofString(csv.toString())));
        assertThat(w.status()).as("201, or 200 when this caller stored the same matrix before").isIn(200, 201);
        String id = w.json().get("id").asString();
        String sha = w.json().get("sha256").asString();
        JsonNode result = runQuery(dataset, query("GAUSSIAN_IDENTITY", "\"rho\":0.1", "{\"type\":\"CUSTOM\",\"id\":\""
                + id + "\"}"));
        assertThat(result.get("answers").size()).isEqualTo(3);
        JsonNode job = get("/v1/jobs/" + result.get("jobId").asString()).json();
        assertThat(job.toString()).contains(sha);
        // Pinning another content is refused before anything is charged.
        Response pinned = postJson("/v1/datasets/" + dataset + "/queries/quote", query("GAUSSIAN_IDENTITY",
                "\"rho\":0.5", "{\"type\":\"CUSTOM\",\"id\":\"" + id + "\",\"sha256\":\"" + "0".repeat(64) + "\"}"));
        assertThat(pinned.status()).isEqualTo(400);
    }
    @Test
    void strategyRequestsAndFurtherQueriesRefuseWhatTheyCannotAnswer() {
        String dataset = histogram();
        String identity = "{\"mechanism\":\"OPTIMIZED\",\"params\":{\"workload\":{\"type\":\"IDENTITY\"}}}";
        assertThat(postJson("/v1/datasets/" + java.util.UUID.randomUUID() + "/strategies", identity).status())
                .isEqualTo(404);
        String matrix = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "ADD_REMOVE");
        Response wrongKind = postJson("/v1/datasets/" + matrix + "/strategies", identity);
        assertThat(wrongKind.status()).as(wrongKind.toString()).isEqualTo(409);
        assertThat(wrongKind.json().get("type").asString()).endsWith("/wrong-dataset-kind");
        Response noParams = postJson("/v1/datasets/" + dataset + "/strategies", "{\"mechanism\":\"OPTIMIZED\"}");
        assertThat(noParams.status()).isEqualTo(400);
        assertThat(noParams.json().get("parameter").asString()).isEqualTo("params");
        Response badWorkload = postJson("/v1/datasets/" + dataset + "/strategies", "{\"mechanism\":\"OPTIMIZED\","
                + "\"params\":{\"workload\":{\"type\":\"PREFIX\",\"attributes\":[\"height\"]}}}");
        assertThat(badWorkload.status()).isEqualTo(400);
        assertThat(badWorkload.json().get("parameter").asString()).isEqualTo("params.workload.attributes[0]");
        assertThat(postJson("/v1/datasets/" + dataset + "/strategies", "{\"mechanism\":\"LAPLACE_IDENTITY\","
                + "\"params\":{\"workload\":{\"type\":\"IDENTITY\"}}}").status()).isEqualTo(400);
        String big = histogram("[{\"name\":\"a\",\"size\":100},{\"name\":\"b\",\"size\":50}]", "a,b\n1,1\n",
                "{\"epsilon\":5,\"delta\":1e-6}");
        Response tooLarge = postJson("/v1/datasets/" + big + "/strategies", "{\"mechanism\":\"LOW_RANK_MECHANISM\","
                + "\"params\":{\"workload\":{\"type\":\"IDENTITY\"}}}");
        assertThat(tooLarge.status()).as(tooLarge.toString()).isEqualTo(422);
        assertThat(tooLarge.json().get("type").asString()).endsWith("/workload-too-large");

        // LAPLACE_WORKLOAD measures W itself: answers, no estimate to ask further queries of.
        JsonNode direct = runQuery(dataset, query("LAPLACE_WORKLOAD", "\"epsilon\":0.5",
                "{\"type\":\"MARGINALS\",\"k\":1}"));
        assertThat(direct.get("answers").size()).as("8 ages + 2 regions").isEqualTo(10);
        assertThat(direct.has("releaseId")).isFalse();

        // Further queries: bounded counts, both or neither form, non-finite entries, another release kind.
        JsonNode result = runQuery(dataset, query("GAUSSIAN_IDENTITY", "\"rho\":0.1", "{\"type\":\"IDENTITY\"}"));
        String url = "/v1/releases/" + result.get("releaseId").asString() + "/linear-queries";
        StringBuilder many = new StringBuilder("{\"boxes\":[{}");
        for (int b = 0; b < 100_000; b++) {
            many.append(",{}");
        }
        Response tooMany = postJson(url, many.append("]}").toString());
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.json().get("parameter").asString()).isEqualTo("boxes");
        assertThat(postJson(url, "{\"boxes\":[]}").status()).isEqualTo(400);
        Response both = postJson(url, "{\"boxes\":[{}],\"queries\":[[" + "1,".repeat(15) + "1]]}");
        assertThat(both.status()).isEqualTo(400);
        Response notFinite = postJson(url, "{\"queries\":[[" + "1,".repeat(15) + "1e400]]}");
        assertThat(notFinite.status()).as(notFinite.toString()).isEqualTo(400);
        Response wrongAttributeBox = postJson(url, "{\"boxes\":[{\"age\":[3,2]}]}");
        assertThat(wrongAttributeBox.status()).isEqualTo(400);
        assertThat(wrongAttributeBox.json().get("parameter").asString()).isEqualTo("boxes[0].age");
        assertThat(postJson("/v1/releases/" + java.util.UUID.randomUUID() + "/linear-queries", "{\"boxes\":[{}]}")
                .status()).isEqualTo(404);
        // The whole histogram under the identity strategy: the sum of x̂, with sd √16 = 4 times one cell's.
        Response all = postJson(url, "{\"boxes\":[{}]}");
        assertThat(all.status()).isEqualTo(200);
        double sum = 0;
        for (JsonNode v : result.get("answers")) {
            sum += v.asDouble();
        }
        assertThat(all.json().get("answers").get(0).get("value").asDouble()).isCloseTo(sum, within(1e-9 * (1 + Math.abs(sum))));
        double sd0 = result.get("standardDeviations").get(0).asDouble();
        assertThat(all.json().get("answers").get(0).get("standardDeviation").asDouble())
                .as("16 independent cells of equal variance").isCloseTo(4 * sd0, within(1e-9 * sd0));
    }

    @Test
    void theLowRankMechanismStatesItsBiasBoundSeparately() {
        String dataset = histogram();
        // Marginals on 8 × 2 cells have rank 9 < 16: the Low-Rank Mechanism's own regime; n = 16 is inline.
        String q = query("LOW_RANK_MECHANISM", "\"epsilon\":0.5", "{\"type\":\"MARGINALS\",\"k\":1}");
        Response quote = postJson("/v1/datasets/" + dataset + "/queries/quote", q);
        assertThat(quote.status()).as(quote.toString()).isEqualTo(200);
        JsonNode noise = quote.json().get("noise");
        assertThat(noise.has("residualFrobenius")).isTrue();
        assertThat(noise.get("residualFrobenius").asDouble()).isNotNegative();
        assertThat(noise.get("l1Sensitivity").asDouble()).isPositive();
        JsonNode result = runQuery(dataset, q);
        assertThat(result.get("expectedRmsePerQuery").asDouble()).isEqualTo(noise.get("expectedRmsePerQuery").asDouble());
        assertThat(result.get("residualFrobenius").asDouble()).isEqualTo(noise.get("residualFrobenius").asDouble());
        Response further = postJson("/v1/releases/" + result.get("releaseId").asString() + "/linear-queries",
                "{\"boxes\":[{\"age\":[0,7]},{\"age\":[2,2],\"region\":[0,0]}]}");
        assertThat(further.status()).as(further.toString()).isEqualTo(200);
        boolean biased = further.json().get("biased").asBoolean();
        for (JsonNode a : further.json().get("answers")) {
            assertThat(a.get("standardDeviation").asDouble()).isPositive();
            assertThat(a.has("biasFactor") && !a.get("biasFactor").isNull()).as("bias factor iff biased").isEqualTo(biased);
            if (biased) {
                assertThat(a.get("biasFactor").asDouble()).isNotNegative();
            }
        }
    }
}
