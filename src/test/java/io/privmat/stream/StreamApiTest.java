package io.privmat.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.hashing.Sha256;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.plan.PlanDocuments;
import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * STREAM datasets through the API: declaration, appends (all or nothing), subscriptions charged once
 * at creation and recorded as jobs, one stored release per completed block answering directional
 * variances and cuts with intervals, PCA components, cancellation, visibility.
 */
class StreamApiTest extends ApiTest {

    static final String BUDGET = "{\"epsilon\":10,\"delta\":1e-6}";

    /** A matrix stream of width 3, blocks of {@code b} rows, window w, horizon T, owned by the OWNER. */
    String matrixStream(int b, int w, long horizon, String neighbouring) {
        Response r = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,\"neighbouring\":\""
                + neighbouring + "\",\"stream\":{\"columns\":3,\"blockRows\":" + b + ",\"windowBlocks\":" + w
                + ",\"horizonBlocks\":" + horizon + "},\"budget\":" + BUDGET + "}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        return r.json().get("id").asString();
    }

    Response append(String dataset, String csv) {
        return put("/v1/datasets/" + dataset + "/rows", "POST", "text/csv", csv);
    }

    Response put(String path, String method, String contentType, String body) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
                .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    Response asAnalyst(String method, String path, String json) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path));
        if (json == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        }
        return sendAs(analystKey(), b);
    }

    void grant(String dataset) {
        assertThat(postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"" + ANALYST + "\"}").status())
                .isEqualTo(201);
    }

    static String rows(int n, long seed) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) {
            out.append(r.nextDouble(-0.5, 0.5)).append(',').append(r.nextDouble(-0.5, 0.5)).append(',')
                    .append(r.nextDouble(-0.5, 0.5)).append('\n');
        }
        return out.toString();
    }

    /**
     * A subscription's one-time charge goes through the same reservation as a query: it is paid by
     * the subscriber's allocation (docs/accounting.md §10), and its quote and refusal name it.
     */
    @Test
    void aSubscriptionIsPaidByItsSubscribersAllocation() {
        String id = matrixStream(4, 2, 6, "REPLACE_ONE");
        grant(id);
        Response set = put("/v1/datasets/" + id + "/allocations/" + ANALYST, "PUT", "application/json",
                "{\"rho\":0.015}");
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        String request = "{\"kind\":\"COVARIANCE\",\"mechanism\":\"FACTORIZATION\",\"rho\":0.01}";
        JsonNode quote = asAnalyst("POST", "/v1/datasets/" + id + "/subscriptions/quote", request).json();
        assertThat(quote.get("limit").asString()).isEqualTo("ALLOCATION");
        assertThat(quote.get("admissible").asBoolean()).isTrue();
        assertThat(asAnalyst("POST", "/v1/datasets/" + id + "/subscriptions", request).status()).isEqualTo(201);
        JsonNode own = asAnalyst("GET", "/v1/datasets/" + id + "/allocations", null).json().get("allocations").get(0);
        assertThat(own.at("/spent/rho").asDouble()).isEqualTo(quote.at("/cost/rho").asDouble());
        // A second one does not fit the allocation's remaining 0.005, although the total has room.
        JsonNode again = asAnalyst("POST", "/v1/datasets/" + id + "/subscriptions/quote", request).json();
        assertThat(again.get("admissible").asBoolean()).isFalse();
        assertThat(again.at("/remaining/rho").asDouble()).isGreaterThan(quote.at("/cost/rho").asDouble());
        Response refused = asAnalyst("POST", "/v1/datasets/" + id + "/subscriptions", request);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.json().get("limit").asString()).isEqualTo("ALLOCATION");
    }

    @Test
    void aSubscriptionIsChargedOnceAndReleasesEveryCompletedBlock() {
        String id = matrixStream(4, 2, 6, "REPLACE_ONE");
        JsonNode dataset = get("/v1/datasets/" + id).json();
        assertThat(dataset.get("status").asString()).isEqualTo("READY");
        assertThat(dataset.get("cols").asLong()).isEqualTo(3);
        assertThat(dataset.at("/stream/blockRule").asString()).isEqualTo("ROW_COUNT");
        assertThat(dataset.at("/stream/windowRows").asLong()).isEqualTo(8);
        grant(id);
        String request = "{\"kind\":\"COVARIANCE\",\"mechanism\":\"FACTORIZATION\",\"rho\":0.01}";
        Response quote = asAnalyst("POST", "/v1/datasets/" + id + "/subscriptions/quote", request);
        assertThat(quote.status()).as(quote.toString()).isEqualTo(200);
        assertThat(quote.json().get("admissible").asBoolean()).isTrue();
        assertThat(quote.json().at("/noise/bands").asInt()).isEqualTo(2);
        Response created = asAnalyst("POST", "/v1/datasets/" + id + "/subscriptions", request);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode sub = created.json();
        String subscription = sub.get("id").asString();
        assertThat(created.location()).isEqualTo("/v1/subscriptions/" + subscription);
        assertThat(sub.get("state").asString()).isEqualTo("ACTIVE");
        assertThat(sub.get("firstStreamBlock").asLong()).isZero();
        assertThat(sub.at("/cost/rho").decimalValue()).isEqualByComparingTo(quote.json().at("/cost/rho").decimalValue());

        // The charge: one job, DONE with data access started, its ledger entries RESERVE then COMMIT.
        JsonNode job = asAnalyst("GET", "/v1/jobs/" + sub.get("jobId").asString(), null).json();
        assertThat(job.get("kind").asString()).isEqualTo("SUBSCRIPTION");
        assertThat(job.get("state").asString()).isEqualTo("DONE");
        assertThat(job.get("dataAccessStarted").asBoolean()).isTrue();
        JsonNode result = asAnalyst("GET", "/v1/jobs/" + sub.get("jobId").asString() + "/result", null).json();
        assertThat(result.get("subscriptionId").asString()).isEqualTo(subscription);
        JsonNode ledger = get("/v1/datasets/" + id + "/ledger").json().get("entries");
        assertThat(ledger.valueStream().map(e -> e.get("type").asString()).toList()).containsExactly("RESERVE", "COMMIT");
        String spent = get("/v1/datasets/" + id + "/budget").text();

        // 6 rows: block 0 completes (one release), 2 rows stay open.
        Response a = append(id, rows(6, 1));
        assertThat(a.status()).as(a.toString()).isEqualTo(200);
        assertThat(a.json().get("completedBlocks").asLong()).isEqualTo(1);
        assertThat(a.json().get("openRows").asLong()).isEqualTo(2);
        assertThat(a.json().get("releases")).hasSize(1);
        // 10 more: blocks 1, 2 and 3.
        assertThat(append(id, rows(10, 2)).json().get("releases")).hasSize(3);
        assertThat(get("/v1/datasets/" + id + "/budget").text()).as("releases are free").isEqualTo(spent);
        assertThat(get("/v1/datasets/" + id + "/ledger").json().get("entries")).hasSize(2);

        JsonNode page = asAnalyst("GET", "/v1/subscriptions/" + subscription + "/releases?limit=2", null).json();
        assertThat(page.get("total").asLong()).isEqualTo(4);
        List<Long> blocks = page.get("items").valueStream().map(n -> n.get("block").asLong()).toList();
        assertThat(blocks).containsExactly(3L, 2L); // newest first
        JsonNode latest = page.get("items").get(0);
        assertThat(latest.get("windowRows").asLong()).isEqualTo(8);
        assertThat(latest.get("blocks").asLong()).isEqualTo(2);
        assertThat(latest.has("createdAt")).as("analysts see no release time").isFalse();
        assertThat(get("/v1/subscriptions/" + subscription + "/releases?limit=1").json().at("/items/0/createdAt")
                .isMissingNode()).as("the owner does").isFalse();
        String release = latest.get("releaseId").asString();
        Response dv = asAnalyst("POST", "/v1/releases/" + release + "/directional-variance",
                "{\"vectors\":[[1,0,0],[0,1,1]]}");
        assertThat(dv.status()).as(dv.toString()).isEqualTo(200);
        JsonNode first = dv.json().get("answers").get(0);
        double half = first.get("upper").asDouble() - first.get("estimate").asDouble();
        double zTau = 1.959964 * Math.sqrt(latest.get("noiseVariance").asDouble());
        if (first.get("estimate").asDouble() > 0) {
            assertThat(half).as("interval half-width z·τ + rounding").isCloseTo(zTau, within(1e-3 + 0.01 * zTau));
        } else {
            // A negative raw estimate of a variance is clamped to 0 (docs/accuracy/intervals.md): the
            // upper end is raw + z·τ, below z·τ.
            assertThat(half).as("clamped estimate: upper end below z·τ").isLessThanOrEqualTo(zTau * 1.01 + 1e-3);
        }
        assertThat(dv.json().get("confidence").asDouble()).isCloseTo(0.95, within(1e-12));
        JsonNode detail = asAnalyst("GET", "/v1/subscriptions/" + subscription + "/releases/3", null).json();
        assertThat(detail.get("covariance")).hasSize(3);
        assertThat(asAnalyst("GET", "/v1/subscriptions/" + subscription + "/releases/9", null).status()).isEqualTo(404);

        // Cancelled: no more releases; the charge stays; a second cancel is a conflict.
        Response cancel = asAnalyst("DELETE", "/v1/subscriptions/" + subscription, null);
        assertThat(cancel.json().get("state").asString()).isEqualTo("CANCELLED");
        assertThat(append(id, rows(4, 3)).json().get("releases")).isEmpty();
        assertThat(asAnalyst("DELETE", "/v1/subscriptions/" + subscription, null).status()).isEqualTo(409);
        assertThat(get("/v1/datasets/" + id + "/budget").text()).isEqualTo(spent);
        // Visibility: the subscriber and the owner; another analyst gets 404.
        assertThat(sendAs(otherAnalystKey(), HttpRequest.newBuilder(uri("/v1/subscriptions/" + subscription)).GET())
                .status()).isEqualTo(404);
        assertThat(get("/v1/datasets/" + id + "/subscriptions").json().get("total").asLong()).isEqualTo(1);

        // Deleting the stream removes its state, subscriptions and releases; the ledger outlives it.
        assertThat(delete("/v1/datasets/" + id).status()).isEqualTo(204);
        assertThat(get("/v1/subscriptions/" + subscription).status()).isEqualTo(404);
        assertThat(get("/v1/releases/" + release).status()).isEqualTo(404);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM stream WHERE dataset_id = ?::uuid", Long.class, id)).isZero();
        assertThat(get("/v1/datasets/" + id + "/ledger").json().get("entries")).hasSize(2);
    }

    @Test
    void pcaSubscriptionsCarryTheirComponentsAndAMidStreamSubscriptionStartsWithTheOpenBlock() {
        String id = matrixStream(3, 2, 100, "REPLACE_ONE");
        assertThat(append(id, rows(4, 5)).status()).isEqualTo(200); // block 0 released to nobody; 1 row open
        Response created = postJson("/v1/datasets/" + id + "/subscriptions",
                "{\"kind\":\"PCA\",\"mechanism\":\"DYADIC_TREE\",\"rho\":0.05,\"params\":{\"k\":2}}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("firstStreamBlock").asLong()).isEqualTo(1);
        String subscription = created.json().get("id").asString();
        Response a = append(id, rows(2, 6));
        assertThat(a.json().get("releases")).hasSize(1);
        assertThat(a.json().at("/releases/0/block").asLong()).isZero();
        assertThat(a.json().at("/releases/0/streamBlock").asLong()).isEqualTo(1);
        JsonNode r = get("/v1/subscriptions/" + subscription + "/releases").json().at("/items/0");
        assertThat(r.get("eigenvalues")).hasSize(2);
        assertThat(r.get("components")).hasSize(3);
        assertThat(r.get("components").get(0)).hasSize(2);
        assertThat(r.get("windowRows").asLong()).isEqualTo(3);
    }

    @Test
    void badBatchesAreRefusedWholeAndChangeNothing() {
        String id = matrixStream(4, 2, 2, "REPLACE_ONE");
        postJson("/v1/datasets/" + id + "/subscriptions", "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.01}");
        assertThat(append(id, rows(3, 1)).status()).isEqualTo(200);
        String before = get("/v1/datasets/" + id).json().get("rows").asString();
        record Bad(String body, String contentType, String query, int status, String type) {}
        for (Bad bad : List.of(
                new Bad("0.1,0.2\n", "text/csv", "", 422, "invalid-data"),
                new Bad("0.1,0.2,0.3\n0.1,NaN,0.3\n", "text/csv", "", 422, "invalid-data"),
                new Bad("0.1,0.2,0.3\n0.1,0.2\n", "text/csv", "", 422, "invalid-data"),
                new Bad("0.1,0.2,0.3\n", "application/json", "", 415, "unsupported-media-type"),
                new Bad(rows(6, 9), "text/csv", "", 409, "stream-horizon-reached"),
                new Bad("0.1,0.2,0.3\n", "text/csv", "?eventTime=2999-01-01T00:00:00Z", 400, "invalid-parameter"),
                new Bad("0.1,0.2,0.3\n", "text/csv", "?eventTime=yesterday", 400, "invalid-parameter"),
                new Bad("0.1,0.2,0.3\n", "text/csv", "?eventTime=2000-01-01T00:00:00Z", 409, "event-time-out-of-order"))) {
            Response r = put("/v1/datasets/" + id + "/rows" + bad.query(), "POST", bad.contentType(), bad.body());
            assertThat(r.status()).as(bad + " → " + r).isEqualTo(bad.status());
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(r.json().get("type").asString()).endsWith("/" + bad.type());
        }
        assertThat(get("/v1/datasets/" + id).json().get("rows").asString()).as("nothing half-appended").isEqualTo(before);
        // The last 5 rows fit exactly; then the horizon is reached.
        Response last = append(id, rows(5, 10));
        assertThat(last.json().get("completedBlocks").asLong()).isEqualTo(2);
        assertThat(append(id, rows(1, 11)).json().get("type").asString()).endsWith("/stream-horizon-reached");
        JsonNode sub = get("/v1/datasets/" + id + "/subscriptions").json().at("/items/0");
        assertThat(sub.get("state").asString()).isEqualTo("FINISHED");
        assertThat(postJson("/v1/datasets/" + id + "/subscriptions",
                "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.01}").status()).isEqualTo(409);

        // A matrix takes no appends, a stream no upload and no one-shot query.
        String matrix = createMatrix(1);
        Response notStream = append(matrix, "0.1,0.2,0.3\n");
        assertThat(notStream.status()).isEqualTo(409);
        assertThat(notStream.json().get("type").asString()).endsWith("/wrong-dataset-kind");
        String stream = matrixStream(4, 2, 10, "REPLACE_ONE");
        assertThat(put("/v1/datasets/" + stream + "/data", "text/csv", "1,2,3\n".getBytes()).status()).isEqualTo(409);
        assertThat(postJson("/v1/datasets/" + stream + "/queries", "{\"kind\":\"COVARIANCE\",\"mechanism\":"
                + "\"ANALYZE_GAUSS\",\"rho\":0.01}").status()).isEqualTo(409);
        Response wrongShape = postJson("/v1/datasets/" + matrix + "/subscriptions",
                "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.01}");
        assertThat(wrongShape.status()).isEqualTo(409);
        Response staticMechanism = postJson("/v1/datasets/" + stream + "/subscriptions",
                "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.01}");
        assertThat(staticMechanism.status()).as(staticMechanism.toString()).isEqualTo(409);
        // Out-of-order event times: a stream's event times never go back.
        assertThat(put("/v1/datasets/" + stream + "/rows?eventTime=2026-01-02T00:00:00Z", "POST", "text/csv",
                "0.1,0.2,0.3\n").status()).isEqualTo(200);
        assertThat(put("/v1/datasets/" + stream + "/rows?eventTime=2026-01-01T00:00:00Z", "POST", "text/csv",
                "0.1,0.2,0.3\n").status()).isEqualTo(409);
    }

    /**
     * Issue 36: concurrent appends without an event time must not refuse one another as out of order.
     * The default event time is taken under the stream's lock, so the order of the default times is
     * the order in which the appends apply. 503s from the upload gate (at most
     * privmat.ingest.max-concurrent-uploads batches are parsed at once) are retried after their
     * Retry-After, as a client does; a 409 is a failure.
     */
    @Test
    void concurrentAppendsWithoutAnEventTimeAllSucceed() throws Exception {
        String id = matrixStream(4, 2, 1000, "REPLACE_ONE");
        int appends = 32;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(appends);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        try {
            List<java.util.concurrent.Future<List<Integer>>> futures = new java.util.ArrayList<>();
            for (int i = 0; i < appends; i++) {
                String batch = rows(3, 100 + i);
                futures.add(pool.submit(() -> {
                    go.await();
                    List<Integer> statuses = new java.util.ArrayList<>();
                    for (int attempt = 0; attempt < 200; attempt++) {
                        Response r = append(id, batch);
                        statuses.add(r.status());
                        if (r.status() != 503) {
                            break;
                        }
                        Thread.sleep(20);
                    }
                    return statuses;
                }));
            }
            go.countDown();
            List<Integer> finals = new java.util.ArrayList<>();
            for (java.util.concurrent.Future<List<Integer>> f : futures) {
                List<Integer> statuses = f.get();
                assertThat(statuses).as("only the upload gate may ask for a retry").allMatch(s -> s == 200 || s == 503);
                finals.add(statuses.get(statuses.size() - 1));
            }
            assertThat(finals).as("every append applied").containsOnly(200).hasSize(appends);
        } finally {
            pool.shutdownNow();
        }
        assertThat(get("/v1/datasets/" + id).json().get("rows").asLong()).isEqualTo(3L * appends);
    }

    @org.springframework.beans.factory.annotation.Autowired
    StreamService streams;

    /**
     * A subscription whose stored plan no longer rebuilds to the loss it was charged (here: its stored
     * loss altered) is stopped, FAILED with PLAN_MISMATCH, instead of releasing under another noise
     * scale; the stream and its other subscriptions go on.
     */
    @Test
    void aSubscriptionWhosePlanNoLongerMatchesItsChargeIsStopped() {
        String id = matrixStream(2, 2, 100, "REPLACE_ONE");
        String broken = postJson("/v1/datasets/" + id + "/subscriptions",
                "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.01}").json().get("id").asString();
        String sound = postJson("/v1/datasets/" + id + "/subscriptions",
                "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.02}").json().get("id").asString();
        jdbc.update("UPDATE subscription SET loss = jsonb_set(loss, '{charged,rho}', '0.001') WHERE id = ?::uuid",
                broken);
        streams.clearCaches();
        JsonNode a = append(id, rows(2, 4)).json();
        assertThat(a.get("releases")).hasSize(1);
        assertThat(a.at("/releases/0/subscriptionId").asString()).isEqualTo(sound);
        JsonNode failed = get("/v1/subscriptions/" + broken).json();
        assertThat(failed.get("state").asString()).isEqualTo("FAILED");
        assertThat(failed.get("errorCode").asString()).isEqualTo("PLAN_MISMATCH");
    }

    /**
     * Idempotency keys name one subscription and one charge, with the request hash query jobs use; a
     * subscription created before the two wings shared it stored SHA-256 of its spec JSON, and a retry
     * of it still replays instead of being refused or charged again.
     */
    @Test
    void anIdempotentRetryReplaysTheSubscriptionAlsoUnderItsEarlierHash() {
        String id = matrixStream(2, 2, 100, "REPLACE_ONE");
        String request = "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.01}";
        Response first = postJson("/v1/datasets/" + id + "/subscriptions", request, "sub-1");
        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        String subscription = first.json().get("id").asString();
        String jobId = first.json().get("jobId").asString();
        Response again = postJson("/v1/datasets/" + id + "/subscriptions", request, "sub-1");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("id").asString()).isEqualTo(subscription);
        assertThat(postJson("/v1/datasets/" + id + "/subscriptions",
                "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.02}", "sub-1").status()).isEqualTo(422);

        // The same row as a subscription created before: its hash is SHA-256 of the spec JSON it wrote.
        PlanDocuments documents = new PlanDocuments(MechanismCatalog.standard());
        String spec = documents.specJson(documents.rebuild(jdbc.queryForObject(
                "SELECT parameters::text FROM job WHERE id = ?::uuid", String.class, jobId)));
        String earlier = Sha256.hex(spec);
        assertThat(jdbc.update("UPDATE job SET request_hash = ? WHERE id = ?::uuid", earlier, jobId)).isEqualTo(1);
        Response retried = postJson("/v1/datasets/" + id + "/subscriptions", request, "sub-1");
        assertThat(retried.status()).as(retried.toString()).isEqualTo(200);
        assertThat(retried.json().get("id").asString()).isEqualTo(subscription);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM subscription WHERE dataset_id = ?::uuid", Long.class, id))
                .isEqualTo(1);
        assertThat(postJson("/v1/datasets/" + id + "/subscriptions",
                "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.02}", "sub-1").status()).isEqualTo(422);
    }

    /**
     * On a TIME stream under REPLACE_ONE a replaced row may carry another event time (another block):
     * FACTORIZATION takes at most w bands there (docs/mechanisms/windows.md), refused before any charge.
     */
    @Test
    void moreBandsThanTheWindowAreRefusedBeforeAnyChargeOnATimeStreamUnderReplaceOne() {
        Response created = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"REPLACE_ONE\",\"stream\":{\"columns\":3,\"blockSeconds\":60,\"windowBlocks\":2,"
                + "\"horizonBlocks\":9},\"budget\":" + BUDGET + "}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        assertThat(created.json().get("privacyUnit").asString()).contains("any event time");
        Response refused = postJson("/v1/datasets/" + id + "/subscriptions", "{\"kind\":\"SKETCH\",\"mechanism\":"
                + "\"FACTORIZATION\",\"rho\":0.01,\"params\":{\"bands\":3}}");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.json().get("type").asString()).endsWith("/invalid-parameter");
        assertThat(refused.json().get("parameter").asString()).isEqualTo("params.bands");
        assertThat(refused.json().get("detail").asString()).contains("[1, 2]").contains("another event time");
        assertThat(get("/v1/datasets/" + id + "/ledger").json().get("entries")).as("nothing charged").isEmpty();
        assertThat(postJson("/v1/datasets/" + id + "/subscriptions", "{\"kind\":\"SKETCH\",\"mechanism\":"
                + "\"FACTORIZATION\",\"rho\":0.01,\"params\":{\"bands\":2}}").status()).isEqualTo(201);
    }

    @Test
    void badDeclarationsAreRefused() {
        String budget = ",\"budget\":" + BUDGET + "}";
        for (String body : new String[] {
                "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1" + budget,
                "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,\"stream\":{\"columns\":3,\"windowBlocks\":2,"
                        + "\"horizonBlocks\":9}" + budget,
                "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,\"stream\":{\"columns\":3,\"blockRows\":2,"
                        + "\"blockSeconds\":60,\"windowBlocks\":2,\"horizonBlocks\":9}" + budget,
                "{\"name\":\"s\",\"kind\":\"STREAM\",\"stream\":{\"columns\":3,\"blockRows\":2,\"windowBlocks\":2,"
                        + "\"horizonBlocks\":9}" + budget,
                "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,\"stream\":{\"columns\":0,\"blockRows\":2,"
                        + "\"windowBlocks\":2,\"horizonBlocks\":9}" + budget,
                "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,\"stream\":{\"columns\":3,\"blockRows\":2,"
                        + "\"windowBlocks\":0,\"horizonBlocks\":9}" + budget,
                "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,\"vertices\":{\"count\":4},\"stream\":"
                        + "{\"blockRows\":2,\"windowBlocks\":2,\"horizonBlocks\":9}" + budget,
                "{\"name\":\"m\",\"kind\":\"MATRIX\",\"rowNormBound\":1,\"stream\":{\"columns\":3,\"blockRows\":2,"
                        + "\"windowBlocks\":2,\"horizonBlocks\":9}" + budget,
                // Removing a row would shift every later row into an earlier block: refused.
                "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,\"neighbouring\":\"ADD_REMOVE\",\"stream\":"
                        + "{\"columns\":3,\"blockRows\":2,\"windowBlocks\":2,\"horizonBlocks\":9}" + budget}) {
            Response r = postJson("/v1/datasets", body);
            assertThat(r.status()).as(body + " → " + r).isEqualTo(400);
        }
        // Time blocks place a row by its time: ADD_REMOVE is fine there.
        Response timed = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"ADD_REMOVE\",\"stream\":{\"columns\":3,\"blockSeconds\":60,\"windowBlocks\":2,"
                + "\"horizonBlocks\":9}" + budget);
        assertThat(timed.status()).as(timed.toString()).isEqualTo(201);
    }

    @Test
    void edgeStreamsAnswerCutsOnTheirWindowReleases() {
        Response created = postJson("/v1/datasets", "{\"name\":\"e\",\"kind\":\"STREAM\",\"vertices\":{\"labels\":"
                + "[\"a\",\"b\",\"c\",\"d\"]},\"stream\":{\"blockRows\":3,\"windowBlocks\":2,\"horizonBlocks\":50},"
                + "\"budget\":" + BUDGET + "}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        assertThat(created.json().get("privacyUnit").asString()).contains("edge event");
        Response sub = postJson("/v1/datasets/" + id + "/subscriptions",
                "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.5}");
        assertThat(sub.status()).as(sub.toString()).isEqualTo(201);
        assertThat(put("/v1/datasets/" + id + "/rows", "POST", "text/csv", "a,b\nb,z\n").status()).isEqualTo(422);
        assertThat(put("/v1/datasets/" + id + "/rows", "POST", "text/csv", "a,a\n").status()).isEqualTo(422);
        assertThat(put("/v1/datasets/" + id + "/rows", "POST", "text/csv", "a,b,1.5\n").status()).isEqualTo(422);
        Response a = put("/v1/datasets/" + id + "/rows", "POST", "text/csv", "a,b\na,b,0.5\nc,d\n");
        assertThat(a.status()).as(a.toString()).isEqualTo(200);
        String release = a.json().at("/releases/0/releaseId").asString();
        assertThat(get("/v1/releases/" + release).json().get("kind").asString()).isEqualTo("WINDOW_LAPLACIAN");
        Response cuts = postJson("/v1/releases/" + release + "/cuts", "{\"sets\":[[\"a\"],[\"a\",\"c\"]]}");
        assertThat(cuts.status()).as(cuts.toString()).isEqualTo(200);
        // Exact cuts: ({a}: 1.5), ({a, c}: 1.5 + 1); the intervals (ν = 0.05) are wide at ρ = 0.5 but must
        // be centred on an estimate within a few τ of them.
        double[] exact = {1.5, 2.5};
        for (int q = 0; q < 2; q++) {
            JsonNode ans = cuts.json().get("answers").get(q);
            double estimate = ans.get("estimate").asDouble();
            assertThat(ans.get("lower").asDouble()).isLessThanOrEqualTo(estimate);
            assertThat(ans.get("upper").asDouble()).isGreaterThanOrEqualTo(estimate);
            if (estimate > 0) {
                double width = ans.get("upper").asDouble() - estimate;
                assertThat(width).isPositive();
                assertThat(Math.abs(estimate - exact[q])).isLessThan(3 * width);
            } else {
                // A negative raw cut is clamped to 0 with its lower end (docs/accuracy/intervals.md).
                assertThat(estimate).isZero();
                assertThat(ans.get("lower").asDouble()).isZero();
            }
        }
        assertThat(postJson("/v1/releases/" + release + "/cuts", "{\"sets\":[[\"zz\"]]}").status()).isEqualTo(400);
        assertThat(postJson("/v1/releases/" + release + "/directional-variance", "{\"vectors\":[[1,-1,0,0]]}")
                .status()).isEqualTo(200);
    }

    /**
     * The §11.1 pitfall through the API: two consecutive releases of a subscription must not differ by
     * a function of one block without fresh noise. The same block appended twice to two streams with
     * the same public parameters: each stream's second release minus its first is the block plus
     * noise that is fresh (different from the first release's), and the two streams' releases differ.
     */
    @Test
    void consecutiveReleasesDifferByFreshNoise() {
        String block = "0.6,0.8,0\n0,0.6,0.8\n";
        double[] x = {1, 0, 0};
        double exact = 0.36; // xᵀ(Σ aaᵀ)x for the block above
        double[][] estimates = new double[2][];
        for (int s = 0; s < 2; s++) {
            String id = matrixStream(2, 4, 10, "REPLACE_ONE");
            String sub = postJson("/v1/datasets/" + id + "/subscriptions",
                    "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":1}").json().get("id").asString();
            append(id, block);
            append(id, block);
            JsonNode items = get("/v1/subscriptions/" + sub + "/releases").json().get("items");
            estimates[s] = new double[2];
            for (int b = 0; b < 2; b++) {
                // The free answer clamps a negative estimate to 0 (docs/accuracy/intervals.md), which would
                // hide the noise compared here: the raw estimate is the interval's upper end minus its
                // half-width z·τ + rounding (valid unless the upper end is clamped too, probability < 3%).
                JsonNode item = items.get(1 - b);
                JsonNode answer = postJson("/v1/releases/" + item.get("releaseId").asString() + "/directional-variance",
                        "{\"vectors\":[" + java.util.Arrays.toString(x) + "]}").json().at("/answers/0");
                double estimate = answer.get("estimate").asDouble();
                double upper = answer.get("upper").asDouble();
                double half = estimate > 0 ? upper - estimate
                        : 1.959963984540054 * Math.sqrt(item.get("noiseVariance").asDouble())
                                + item.get("roundingBound").asDouble();
                estimates[s][b] = upper > 0 ? upper - half : Double.NaN;
            }
            if (Double.isNaN(estimates[s][0]) || Double.isNaN(estimates[s][1])) {
                continue; // both ends clamped: this stream's raw noise is not observable from the answer
            }
            double firstNoise = estimates[s][0] - exact;
            double secondNoise = estimates[s][1] - estimates[s][0] - exact;
            assertThat(secondNoise).as("the second block carries noise").isNotEqualTo(0.0);
            assertThat(secondNoise).as("fresh, not the first block's noise again")
                    .isNotCloseTo(firstNoise, within(1e-6));
        }
        if (!Double.isNaN(estimates[0][1]) && !Double.isNaN(estimates[1][1])) {
            assertThat(estimates[0][1]).as("independent streams draw independent noise")
                    .isNotCloseTo(estimates[1][1], within(1e-6));
        }
    }
}
