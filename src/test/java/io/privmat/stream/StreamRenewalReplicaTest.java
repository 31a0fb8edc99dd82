package io.privmat.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.DatasetService;
import io.privmat.ledger.BudgetService;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.metrics.ServiceMetrics;
import io.privmat.plan.PlanDocuments;
import io.privmat.release.ReleaseService;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.privmat.stream.jdbc.StreamRepository;
import io.privmat.support.ApiTest;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Budgets that renew per period with two replicas releasing one stream's blocks (docs/accounting.md,
 * "Budgets that renew per period"): a replica's memory copies of a subscription (its mechanism with
 * its stream key, its state) must not outlive a restart another replica made, or the old key's
 * index-to-noise map is used again over other data (docs/mechanisms/windows.md, "Keyed noise"). The
 * second replica here is a second StreamService with its own BlockReleaser over the same PostgreSQL.
 */
class StreamRenewalReplicaTest extends ApiTest {

    @Autowired StreamRepository streamRepository;
    @Autowired DatasetService datasets;
    @Autowired BudgetService budget;
    @Autowired ReleaseService releaseService;
    @Autowired JsonMapper jsonMapper;
    @Autowired PlanDocuments documents;
    @Autowired MechanismCatalog catalog;
    @Autowired StreamSettings settings;
    @Autowired TransactionTemplate tx;
    @Autowired Clock clock;
    @Autowired ServiceMetrics metrics;

    /** Another replica: its own memory copies of mechanisms, keys and states; the same database. */
    private StreamService otherReplica() {
        BlockReleaser releaser = new BlockReleaser(streamRepository, budget, releaseService, jsonMapper, documents,
                catalog, settings);
        return new StreamService(streamRepository, datasets, releaser, tx, clock, settings, metrics);
    }

    private void appendOn(StreamService replica, String dataset, String csv) {
        byte[] body = csv.getBytes(StandardCharsets.UTF_8);
        replica.append(UUID.fromString(dataset), new Caller(UUID.randomUUID(), "owner-a", Role.OWNER), "text/csv",
                body.length, false, null, new ByteArrayInputStream(body));
    }

    private Response append(String dataset, String csv) {
        return send(HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/rows")).header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofString(csv, StandardCharsets.UTF_8)));
    }

    private double[] payload(String subscription, long streamBlock) {
        UUID release = jdbc.queryForObject("SELECT release_id FROM subscription_release WHERE subscription_id = ?::uuid "
                + "AND stream_block = ?", UUID.class, subscription, streamBlock);
        return streamRepository.releasePayload(release);
    }

    private static double[] difference(double[] a, double[] b) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i] - b[i];
        }
        return d;
    }

    private static double maxAbs(double[] a) {
        return Arrays.stream(a).map(Math::abs).max().orElse(0);
    }

    /** A stream (blocks of {@code blockRows} rows, periods of two blocks), a request a period pays once, its subscription. */
    record Subscribed(String dataset, String request, String subscription) {}

    private Subscribed subscribed(int blockRows) {
        Response created = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"REPLACE_ONE\",\"stream\":{\"columns\":3,\"blockRows\":" + blockRows
                + ",\"windowBlocks\":2,\"horizonBlocks\":40,\"periodBlocks\":2},\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        BigDecimal cap = get("/v1/datasets/" + id + "/budget").json().at("/total/tracks/rho").decimalValue();
        String request = "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":"
                + cap.multiply(new BigDecimal("0.6")).round(new MathContext(4, RoundingMode.DOWN)).toPlainString() + "}";
        return new Subscribed(id, request, postJson("/v1/datasets/" + id + "/subscriptions", request).json().get("id")
                .asString());
    }

    /**
     * Periods of two blocks of two rows; a period's budget pays one subscription. S (created first)
     * releases period 0 on replica B; C, created in period 1, takes period 1's budget, so S is paused
     * for period 1 and restarts in period 2 with a new key, on replica A. Replica B then releases
     * S's second block of the new run: blocks 4 and 5 hold the rows of blocks 0 and 1, so a release
     * keyed by the old key at the same run index would add block 1's noise again — the old
     * key's noise over other rows. It must be drawn with the new key.
     */
    @Test
    void aReplicaDoesNotReuseTheOldKeyAfterAnotherReplicaRestartedTheSubscription() {
        Subscribed sub = subscribed(2);
        String id = sub.dataset();
        String request = sub.request();
        String s = sub.subscription();

        String[] rows = StreamApiTest.rows(4, 131).split("\n");
        String firstTwo = rows[0] + "\n" + rows[1] + "\n";
        String lastTwo = rows[2] + "\n" + rows[3] + "\n";
        StreamService b = otherReplica();
        appendOn(b, id, firstTwo + lastTwo); // blocks 0 and 1 on replica B: it keeps S's mechanism, key and state

        Response c = postJson("/v1/datasets/" + id + "/subscriptions", request);
        assertThat(c.status()).as(c.toString()).isEqualTo(201);
        assertThat(append(id, StreamApiTest.rows(4, 77)).status()).isEqualTo(200); // period 1 on A: S paused
        assertThat(get("/v1/subscriptions/" + s).json().get("waitingForPeriod").asLong()).isEqualTo(2);
        assertThat(append(id, firstTwo).status()).isEqualTo(200); // block 4 on A: S restarts with a new key
        assertThat(get("/v1/subscriptions/" + s).json().get("restartedAtStreamBlock").asLong()).isEqualTo(4);

        appendOn(b, id, lastTwo); // block 5 on replica B
        assertThat(jdbc.queryForList("SELECT stream_block FROM subscription_release WHERE subscription_id = ?::uuid "
                + "ORDER BY stream_block", Long.class, s)).containsExactly(0L, 1L, 4L, 5L);
        // A window of BLOCKS is the sum of its blocks' noisy Grams: release(5) − release(4) is block 5's
        // (rows of block 1) plus its noise at run index 1, release(1) − release(0) block 1's plus the old key's.
        double[] now = difference(payload(s, 5), payload(s, 4));
        double[] then = difference(payload(s, 1), payload(s, 0));
        assertThat(maxAbs(difference(now, then)))
                .as("block 5 drew the old key's noise at run index 1 again, over other rows").isGreaterThan(1e-6);
    }

    /**
     * What a client may declare never yields a 500: out-of-range, fractional, huge or mistyped
     * periodBlocks are 400s before anything is stored, and the longest period on the longest
     * stream still shows the budget.
     */
    @Test
    void noPeriodDeclarationYieldsAServerError() {
        long before = jdbc.queryForObject("SELECT count(*) FROM dataset", Long.class);
        for (String period : new String[] {"1e30", "-1", "\"two\"", "true", "99999999999999999999999", "1.5",
                "2.0"}) {
            Response r = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                    + "\"neighbouring\":\"REPLACE_ONE\",\"stream\":{\"columns\":3,\"blockRows\":2,\"windowBlocks\":2,"
                    + "\"horizonBlocks\":9,\"periodBlocks\":" + period + "},\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
            assertThat(r.status()).as(period + " → " + r).isEqualTo(400);
            assertThat(r.contentType()).startsWith("application/problem+json");
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM dataset", Long.class)).isEqualTo(before);

        Response longest = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"REPLACE_ONE\",\"stream\":{\"columns\":3,\"blockRows\":1,"
                + "\"windowBlocks\":2,\"horizonBlocks\":1099511627776,\"periodBlocks\":1000000000},"
                + "\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        assertThat(longest.status()).as(longest.toString()).isEqualTo(201);
        String id = longest.json().get("id").asString();
        Response budgetView = get("/v1/datasets/" + id + "/budget");
        assertThat(budgetView.status()).as(budgetView.toString()).isEqualTo(200);
        assertThat(budgetView.json().at("/period/renewsAtBlock").asLong()).isEqualTo(1_000_000_000L);
        Response quote = postJson("/v1/datasets/" + id + "/subscriptions/quote",
                "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.001}");
        assertThat(quote.status()).as(quote.toString()).isEqualTo(200);
    }

    /**
     * A subscription paused for a period and then cancelled is never charged again: it no longer
     * shows a period it waits for (nor the limit that paused it).
     */
    @Test
    void aCancelledPausedSubscriptionWaitsForNoPeriod() {
        Subscribed sub = subscribed(1);
        String id = sub.dataset();
        String request = sub.request();
        String s = sub.subscription();
        assertThat(append(id, StreamApiTest.rows(2, 5)).status()).isEqualTo(200); // period 0
        assertThat(postJson("/v1/datasets/" + id + "/subscriptions", request).status()).isEqualTo(201); // pays period 1
        assertThat(append(id, StreamApiTest.rows(1, 6)).status()).isEqualTo(200); // block 2: s paused
        assertThat(get("/v1/subscriptions/" + s).json().get("waitingForPeriod").asLong()).isEqualTo(2);

        Response cancelled = delete("/v1/subscriptions/" + s);
        assertThat(cancelled.status()).as(cancelled.toString()).isEqualTo(200);
        for (var view : new tools.jackson.databind.JsonNode[] {cancelled.json(), get("/v1/subscriptions/" + s).json()}) {
            assertThat(view.get("state").asString()).isEqualTo("CANCELLED");
            assertThat(view.has("waitingForPeriod")).as(view.toString()).isFalse();
            assertThat(view.has("pausedBy")).as(view.toString()).isFalse();
        }
    }
}
