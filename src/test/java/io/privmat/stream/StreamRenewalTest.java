package io.privmat.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.window.WindowDefinition;
import io.privmat.mechanism.window.WindowMechanism;
import io.privmat.mechanism.window.WindowRelease;
import io.privmat.mechanism.window.WindowStream;
import io.privmat.plan.PlanDocuments;
import io.privmat.stream.jdbc.StreamRepository;
import io.privmat.support.ApiTest;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Budgets that renew per period on STREAM datasets (docs/accounting.md, "Budgets that renew per
 * period"): a subscription never reads a block unless it holds a committed charge for the block's
 * period; a period that cannot pay pauses it for that period, and the next period restarts it like a
 * new subscription (empty windows, a new stream key). Real PostgreSQL; ROW_COUNT blocks (the only
 * ones that take periodBlocks for now: docs/accounting.md §13, "TIME streams").
 */
class StreamRenewalTest extends ApiTest {

    @Autowired
    TransactionTemplate tx;

    /** A matrix stream of width 3 (blocks of {@code b} rows, w = 2, 40 blocks) whose budget renews every {@code p} blocks. */
    String periodicStream(int b, int p, String budget) {
        Response r = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,\"neighbouring\":"
                + "\"REPLACE_ONE\",\"stream\":{\"columns\":3,\"blockRows\":" + b + ",\"windowBlocks\":2,"
                + "\"horizonBlocks\":40,\"periodBlocks\":" + p + "},\"budget\":" + budget + "}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        assertThat(r.json().at("/stream/periodBlocks").asLong()).isEqualTo(p);
        return r.json().get("id").asString();
    }

    Response append(String dataset, int rows) {
        return send(HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/rows")).header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofString(StreamApiTest.rows(rows, rows * 31L + 7),
                        StandardCharsets.UTF_8)));
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

    JsonNode subscription(String id) {
        return get("/v1/subscriptions/" + id).json();
    }

    /** The stream blocks a subscription released, in order. */
    List<Long> releasedBlocks(String subscription) {
        return jdbc.queryForList("SELECT stream_block FROM subscription_release WHERE subscription_id = ?::uuid "
                + "ORDER BY stream_block", Long.class, subscription);
    }

    /** The periods a subscription's job holds an entry of this type for, in order. */
    List<Long> periods(String subscription, String type) {
        return jdbc.queryForList("SELECT e.period FROM ledger_entry e JOIN subscription s ON s.job_id = e.job_id "
                + "WHERE s.id = ?::uuid AND e.entry_type = ? ORDER BY e.period", Long.class, subscription, type);
    }

    /**
     * Every release of every subscription of the dataset is of a block whose period its job holds a
     * COMMIT for: the charging invariant, checked in SQL.
     */
    void everyReleaseIsPaid(String dataset, long periodBlocks) {
        Long unpaid = jdbc.queryForObject("""
                SELECT count(*) FROM subscription_release r JOIN subscription s ON s.id = r.subscription_id
                WHERE s.dataset_id = ?::uuid AND NOT EXISTS (
                    SELECT 1 FROM ledger_entry e WHERE e.job_id = s.job_id AND e.entry_type = 'COMMIT'
                    AND e.period = r.stream_block / ?)""", Long.class, dataset, periodBlocks);
        assertThat(unpaid).as("releases of blocks whose period the subscription did not pay").isZero();
    }

    /**
     * Three periods of two blocks each; the analyst's allocation pays one subscription per period and
     * the unallocated pool one more: a third is refused in period 0. The analyst's subscription keeps
     * releasing into every period, charged again each time. The owner's first one, refused by the
     * pool in period 1 (a subscription created in period 1 took the pool before its charge), reads
     * none of period 1's blocks and restarts in period 2 with empty windows and a new key; the one
     * created in period 1 is paused in period 2.
     */
    @Test
    void aPeriodsBudgetRenewsAndAPausedSubscriptionRestartsFreshInTheNextPeriod() {
        String id = periodicStream(2, 2, "{\"epsilon\":1,\"delta\":1e-6}");
        assertThat(postJson("/v1/datasets/" + id + "/grants", "{\"analyst\":\"" + ANALYST + "\"}").status())
                .isEqualTo(201);
        BigDecimal cap = get("/v1/datasets/" + id + "/budget").json().at("/total/tracks/rho").decimalValue();
        BigDecimal rho = cap.multiply(new BigDecimal("0.45")).round(new MathContext(4, RoundingMode.DOWN));
        String request = "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":" + rho.toPlainString() + "}";
        JsonNode quote = postJson("/v1/datasets/" + id + "/subscriptions/quote", request).json();
        assertThat(quote.get("period").asLong()).isZero();
        BigDecimal cost = quote.at("/cost/rho").decimalValue();
        // The analyst's allocation pays exactly one subscription per period (allocations are per period).
        assertThat(send(HttpRequest.newBuilder(uri("/v1/datasets/" + id + "/allocations/" + ANALYST))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(
                        "{\"rho\":" + cost.toPlainString() + "}"))).status()).isEqualTo(200);

        Response a = postJson("/v1/datasets/" + id + "/subscriptions", request);
        assertThat(a.status()).as(a.toString()).isEqualTo(201);
        assertThat(a.json().get("chargedPeriod").asLong()).isZero();
        String owners = a.json().get("id").asString();
        Response b = asAnalyst("POST", "/v1/datasets/" + id + "/subscriptions", request);
        assertThat(b.status()).as(b.toString()).isEqualTo(201);
        String analysts = b.json().get("id").asString();
        assertThat(postJson("/v1/datasets/" + id + "/subscriptions/quote", request).json().get("admissible")
                .asBoolean()).isFalse();
        Response refused = postJson("/v1/datasets/" + id + "/subscriptions", request);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.json().get("type").asString()).endsWith("/budget-exhausted");

        // Period 0: blocks 0 and 1, released by both.
        assertThat(append(id, 4).json().get("releases")).hasSize(4);
        // Period 1 is open (block 2): a subscription created now pays period 1 (the account rolls).
        JsonNode quote1 = postJson("/v1/datasets/" + id + "/subscriptions/quote", request).json();
        assertThat(quote1.get("period").asLong()).isEqualTo(1);
        assertThat(quote1.get("admissible").asBoolean()).as("a new period has its whole budget").isTrue();
        Response c = postJson("/v1/datasets/" + id + "/subscriptions", request);
        assertThat(c.status()).as(c.toString()).isEqualTo(201);
        assertThat(c.json().get("chargedPeriod").asLong()).isEqualTo(1);
        assertThat(c.json().get("firstStreamBlock").asLong()).isEqualTo(2);
        String late = c.json().get("id").asString();
        JsonNode budget = get("/v1/datasets/" + id + "/budget").json();
        assertThat(budget.at("/period/period").asLong()).isEqualTo(1);
        assertThat(budget.at("/period/firstBlock").asLong()).isEqualTo(2);
        assertThat(budget.at("/period/renewsAtBlock").asLong()).isEqualTo(4);
        assertThat(budget.at("/spent/tracks/rho").decimalValue()).isEqualByComparingTo(cost);
        JsonNode own = asAnalyst("GET", "/v1/datasets/" + id + "/allocations", null).json().at("/allocations/0");
        assertThat(own.at("/spent/rho").decimalValue()).as("period 1: nothing spent yet").isZero();

        // Blocks 2 and 3: the analyst's pays period 1 and releases; the owner's first is refused by the pool.
        byte[] keyBefore = key(owners);
        Response p1 = append(id, 4);
        assertThat(p1.json().get("releases").valueStream().map(r -> r.get("subscriptionId").asString()).toList())
                .containsExactlyInAnyOrder(analysts, analysts, late, late);
        JsonNode paused = subscription(owners);
        assertThat(paused.get("state").asString()).isEqualTo("ACTIVE");
        assertThat(paused.get("waitingForPeriod").asLong()).isEqualTo(2);
        assertThat(paused.get("pausedBy").asString()).isEqualTo("POOL");
        assertThat(paused.get("chargedPeriod").asLong()).isZero();
        assertThat(paused.get("completedBlocks").asLong()).as("blocks passed, unread").isEqualTo(4);
        assertThat(asAnalyst("GET", "/v1/datasets/" + id + "/allocations", null).json()
                .at("/allocations/0/spent/rho").decimalValue()).isEqualByComparingTo(cost);

        // Period 2 (blocks 4 and 5): the owner's first and the analyst's are charged; the late one no longer fits.
        assertThat(append(id, 4).json().get("releases")).hasSize(4);
        JsonNode restarted = subscription(owners);
        assertThat(restarted.has("waitingForPeriod")).isFalse();
        assertThat(restarted.get("chargedPeriod").asLong()).isEqualTo(2);
        assertThat(restarted.get("restartedAtStreamBlock").asLong()).isEqualTo(4);
        assertThat(key(owners)).as("a restart draws a new stream key").isNotEqualTo(keyBefore);
        assertThat(subscription(late).get("waitingForPeriod").asLong()).isEqualTo(3);
        assertThat(subscription(late).get("pausedBy").asString()).isEqualTo("POOL");

        assertThat(releasedBlocks(analysts)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(releasedBlocks(owners)).as("nothing for period 1's blocks").containsExactly(0L, 1L, 4L, 5L);
        assertThat(releasedBlocks(late)).containsExactly(2L, 3L);
        // The restarted windows cover only blocks since the restart; the analyst's span periods.
        assertThat(get("/v1/subscriptions/" + owners + "/releases").json().get("total").asLong()).isEqualTo(4);
        JsonNode at4 = release(owners, 4);
        assertThat(at4.get("firstBlock").asLong()).isEqualTo(4);
        assertThat(at4.get("blocks").asLong()).isEqualTo(1);
        assertThat(release(owners, 5).get("blocks").asLong()).isEqualTo(2);
        assertThat(release(analysts, 4).get("firstBlock").asLong()).as("continuous across periods").isEqualTo(3);
        assertThat(release(analysts, 4).get("blocks").asLong()).isEqualTo(2);
        assertThat(get("/v1/subscriptions/" + owners + "/releases/2").status()).isEqualTo(404);
        // Bit for bit what a new subscription with the new key releases over blocks 4 and 5 alone (every
        // append here carries the same rows: with the old key and a restarted counter, block 4's release
        // would repeat block 0's exactly).
        String spec = jdbc.queryForObject("SELECT spec::text FROM subscription WHERE id = ?::uuid", String.class, owners);
        WindowMechanism m = WindowDefinition.mechanism(MechanismCatalog.standard(),
                new PlanDocuments(MechanismCatalog.standard()).rebuild(spec).spec());
        double[] batch = java.util.Arrays.stream(StreamApiTest.rows(4, 4 * 31L + 7).split("[,\n]"))
                .mapToDouble(Double::parseDouble).toArray();
        List<WindowRelease> expected = WindowStream.start(m, key(owners)).appendRows(batch, 4).releases();
        assertThat(payload(owners, 4)).containsExactly(expected.get(0).window());
        assertThat(payload(owners, 5)).containsExactly(expected.get(1).window());
        assertThat(payload(owners, 4)).isNotEqualTo(payload(owners, 0));

        // The ledger: one RESERVE and one COMMIT per period paid, each naming its period.
        assertThat(periods(analysts, "RESERVE")).containsExactly(0L, 1L, 2L);
        assertThat(periods(analysts, "COMMIT")).containsExactly(0L, 1L, 2L);
        assertThat(periods(owners, "COMMIT")).containsExactly(0L, 2L);
        assertThat(periods(late, "COMMIT")).containsExactly(1L);
        assertThat(get("/v1/datasets/" + id + "/ledger").json().get("entries").valueStream()
                .allMatch(e -> e.has("period"))).isTrue();
        everyReleaseIsPaid(id, 2);
        JsonNode verified = get("/v1/datasets/" + id + "/ledger/verify").json();
        assertThat(verified.get("ok").asBoolean()).as(verified.toString()).isTrue();
        assertThat(verified.get("totalsChecked").asBoolean()).isTrue();
        assertThat(get("/v1/datasets/" + id + "/budget").json().at("/spent/tracks/rho").decimalValue())
                .as("period 2's two charges").isEqualByComparingTo(cost.add(cost));
        // The transparency record says the guarantee is per period, and which period each charge paid.
        JsonNode record = get("/v1/datasets/" + id + "/transparency").json();
        assertThat(record.at("/totals/periodBlocks").asLong()).isEqualTo(2);
        assertThat(record.get("releases").valueStream().allMatch(r -> r.has("period"))).isTrue();
    }

    private JsonNode release(String subscription, long streamBlock) {
        return get("/v1/subscriptions/" + subscription + "/releases/" + streamBlock).json();
    }

    private double[] payload(String subscription, long streamBlock) {
        return StreamRepository.doubles(jdbc.queryForObject("SELECT r.payload FROM release r JOIN subscription_release s "
                + "ON s.release_id = r.id WHERE s.subscription_id = ?::uuid AND s.stream_block = ?", byte[].class,
                subscription, streamBlock));
    }

    private byte[] key(String subscription) {
        return jdbc.queryForObject("SELECT stream_key FROM subscription WHERE id = ?::uuid", byte[].class, subscription);
    }

    /** An edited period breaks the chain at that entry: periodic entries are hashed with their period (v2). */
    @Test
    void anEditedPeriodFailsVerificationAtThatEntry() {
        String id = periodicStream(1, 1, "{\"epsilon\":10,\"delta\":1e-6}");
        assertThat(postJson("/v1/datasets/" + id + "/subscriptions",
                "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.001}").status()).isEqualTo(201);
        assertThat(append(id, 3).json().get("releases")).hasSize(3);
        List<Long> ids = jdbc.queryForList("SELECT id FROM ledger_entry WHERE dataset_id = ?::uuid ORDER BY id",
                Long.class, id);
        assertThat(ids).hasSize(6);
        assertThat(get("/v1/datasets/" + id + "/ledger/verify").json().get("ok").asBoolean()).isTrue();
        tx.executeWithoutResult(s -> {
            jdbc.execute("SET LOCAL session_replication_role = replica");
            jdbc.update("UPDATE ledger_entry SET period = period + 100 WHERE id = ?", ids.get(3));
        });
        JsonNode v = get("/v1/datasets/" + id + "/ledger/verify").json();
        assertThat(v.get("ok").asBoolean()).isFalse();
        assertThat(v.get("firstBadEntry").asLong()).isEqualTo(ids.get(3));
        assertThat(v.get("reason").asString()).contains("edited");
    }

    @Test
    void periodsAreRefusedOnATimeStreamUnderReplaceOneAndOutOfRange() {
        long before = jdbc.queryForObject("SELECT count(*) FROM dataset", Long.class);
        for (String body : new String[] {
                // A replacement may carry another event time, in another period: refused.
                "\"REPLACE_ONE\",\"stream\":{\"columns\":3,\"blockSeconds\":60,\"windowBlocks\":2,\"horizonBlocks\":9,"
                        + "\"periodBlocks\":4}",
                "\"REPLACE_ONE\",\"stream\":{\"columns\":3,\"blockRows\":2,\"windowBlocks\":2,\"horizonBlocks\":9,"
                        + "\"periodBlocks\":0}",
                "\"REPLACE_ONE\",\"stream\":{\"columns\":3,\"blockRows\":2,\"windowBlocks\":2,\"horizonBlocks\":9,"
                        + "\"periodBlocks\":1000000001}"}) {
            Response r = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                    + "\"neighbouring\":" + body + ",\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
            assertThat(r.status()).as(body + " → " + r).isEqualTo(400);
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(r.json().get("parameter").asString()).isEqualTo("stream.periodBlocks");
        }
        Response timeReplace = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"REPLACE_ONE\",\"stream\":{\"columns\":3,\"blockSeconds\":60,\"windowBlocks\":2,"
                + "\"horizonBlocks\":9,\"periodBlocks\":4},\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        assertThat(timeReplace.status()).as(timeReplace.toString()).isEqualTo(400);
        assertThat(timeReplace.json().get("parameter").asString()).isEqualTo("stream.periodBlocks");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM dataset", Long.class)).as("nothing stored")
                .isEqualTo(before);
        // TIME under ADD_REMOVE too, for now: when a new period's charges are made would show before the
        // public release time (docs/accounting.md §13, "TIME streams").
        Response timed = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"ADD_REMOVE\",\"stream\":{\"columns\":3,\"blockSeconds\":60,\"windowBlocks\":2,"
                + "\"horizonBlocks\":9,\"periodBlocks\":4},\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        assertThat(timed.status()).as(timed.toString()).isEqualTo(400);
        assertThat(timed.json().get("parameter").asString()).isEqualTo("stream.periodBlocks");
        assertThat(timed.json().get("detail").asString()).contains("blockRows");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM dataset", Long.class)).as("nothing stored")
                .isEqualTo(before);
        // Without periodBlocks, nothing changes: no period anywhere.
        String plain = plainStream();
        assertThat(get("/v1/datasets/" + plain).json().at("/stream").has("periodBlocks")).isFalse();
        assertThat(get("/v1/datasets/" + plain + "/budget").json().has("period")).isFalse();
    }

    /**
     * Creations race appends that cross period boundaries (one row per block, periods of two blocks):
     * whatever the interleaving, every release is of a block whose period the subscription holds a
     * COMMIT for, the chain and the account's totals verify.
     */
    @Test
    void creationsRacingPeriodBoundariesNeverReadAnUnpaidPeriod() throws Exception {
        String id = periodicStream(1, 2, "{\"epsilon\":3,\"delta\":1e-6}");
        BigDecimal cap = get("/v1/datasets/" + id + "/budget").json().at("/total/tracks/rho").decimalValue();
        // Three fit a period: with up to eight subscriptions, some are refused or paused in each period.
        String request = "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":"
                + cap.divide(new BigDecimal(3), new MathContext(4, RoundingMode.DOWN)).toPlainString() + "}";
        ExecutorService pool = Executors.newFixedThreadPool(3);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<CompletableFuture<Integer>> futures = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                futures.add(CompletableFuture.supplyAsync(() -> {
                    await(go);
                    int created = 0;
                    for (int i = 0; i < 4; i++) {
                        int status = postJson("/v1/datasets/" + id + "/subscriptions", request).status();
                        assertThat(status).isIn(201, 409);
                        created += status == 201 ? 1 : 0;
                    }
                    return created;
                }, pool));
            }
            futures.add(CompletableFuture.supplyAsync(() -> {
                await(go);
                for (int i = 0; i < 12; i++) {
                    assertThat(append(id, 1).status()).isEqualTo(200);
                }
                return 0;
            }, pool));
            go.countDown();
            int created = 0;
            for (CompletableFuture<Integer> f : futures) {
                created += f.get();
            }
            assertThat(created).isPositive();
        } finally {
            pool.shutdownNow();
        }
        everyReleaseIsPaid(id, 2);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM subscription_release r JOIN subscription s "
                + "ON s.id = r.subscription_id WHERE s.dataset_id = ?::uuid", Long.class, id)).isPositive();
        // Each (job, period) has at most one RESERVE and its COMMIT; no period's charges exceed its total.
        List<Map<String, Object>> perPeriod = jdbc.queryForList("SELECT period, sum(rho) AS rho FROM ledger_entry "
                + "WHERE dataset_id = ?::uuid AND entry_type = 'COMMIT' GROUP BY period", UUID.fromString(id));
        assertThat(perPeriod).allSatisfy(p -> assertThat((BigDecimal) p.get("rho")).isLessThanOrEqualTo(cap));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM ledger_entry r WHERE r.dataset_id = ?::uuid AND "
                + "r.entry_type = 'RESERVE' AND NOT EXISTS (SELECT 1 FROM ledger_entry c WHERE c.job_id = r.job_id "
                + "AND c.entry_type = 'COMMIT' AND c.period = r.period)", Long.class, UUID.fromString(id))).isZero();
        JsonNode verified = get("/v1/datasets/" + id + "/ledger/verify").json();
        assertThat(verified.get("ok").asBoolean()).as(verified.toString()).isTrue();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A stream without periodBlocks. */
    private String plainStream() {
        Response r = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"REPLACE_ONE\",\"stream\":{\"columns\":3,\"blockRows\":2,\"windowBlocks\":2,"
                + "\"horizonBlocks\":9},\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        return r.json().get("id").asString();
    }
}
