package io.privmat.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.linear.Strategy;
import io.privmat.release.NewRelease;
import io.privmat.release.ReleaseKind;
import io.privmat.release.ReleaseService;
import io.privmat.support.FairUseApiTest;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Issue 36, item 1: every free quote on a distinct workload stored a strategy that was never
 * deleted. The pruning job deletes strategies unused for the retention, and beyond the stored-bytes
 * cap least recently used first, but never one a stored estimate release needs; a deleted one is
 * computed again, to the same bytes, when asked for; a release stores its strategy again if a pass
 * deleted it after its job read it.
 */
class StrategyPruningTest extends FairUseApiTest {

    @Autowired
    StrategyPruner pruner;

    @Autowired
    StrategyService strategies;

    @Autowired
    ReleaseService releases;

    @Autowired
    PlatformTransactionManager transactionManager;

    private String quoteKey(String dataset, String workload) {
        Response q = postJson("/v1/datasets/" + dataset + "/queries/quote", "{\"kind\":\"LINEAR_QUERIES\",\"mechanism\":"
                + "\"OPTIMIZED\",\"rho\":0.1,\"params\":{\"workload\":" + workload + "}}");
        assertThat(q.status()).as(q.toString()).isEqualTo(200);
        return q.json().get("noise").get("strategyKey").asString();
    }

    private byte[] codec(String key) {
        return jdbc.queryForObject("SELECT codec FROM strategy WHERE id = ?", byte[].class, key);
    }

    @Test
    void unusedStrategiesArePrunedButNotThoseAReleaseNeeds() {
        Response h = postJson("/v1/datasets", "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"neighbouring\":\"ADD_REMOVE\","
                + "\"budget\":{\"epsilon\":5,\"delta\":1e-6},\"attributes\":[{\"name\":\"x\",\"size\":24}]}");
        String dataset = h.json().get("id").asString();
        assertThat(put("/v1/datasets/" + dataset + "/data", "text/csv", "x\n1\n5\n7\n".getBytes()).status())
                .isEqualTo(200);
        JsonNode result = runQuery(dataset, "{\"kind\":\"LINEAR_QUERIES\",\"mechanism\":\"OPTIMIZED\",\"rho\":0.1,"
                + "\"params\":{\"workload\":{\"type\":\"PREFIX\"}}}");
        String release = result.get("releaseId").asString();
        String needed = get("/v1/releases/" + release).json().get("meta").get("strategyKey").asString();
        String free = quoteKey(dataset, "{\"type\":\"RANGES\",\"boxes\":[{\"x\":[2,9]},{\"x\":[3,20]}]}");
        byte[] before = codec(free);
        assertThat(free).isNotEqualTo(needed);

        // Nothing is old yet.
        assertThat(pruner.prune()).doesNotContain(free, needed);
        // Sixty days later (retention 30 d): the free quote's strategy goes, the release's stays.
        jdbc.update("UPDATE strategy SET last_used_at = now() - interval '60 days'");
        List<String> pruned = pruner.prune();
        assertThat(pruned).contains(free).doesNotContain(needed);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM strategy WHERE id = ?", Long.class, needed)).isEqualTo(1);
        assertThat(postJson("/v1/releases/" + release + "/linear-queries", "{\"boxes\":[{\"x\":[0,3]}]}").status())
                .as("the release still answers").isEqualTo(200);
        // Asked for again, the same strategy is computed to the same bytes.
        assertThat(quoteKey(dataset, "{\"type\":\"RANGES\",\"boxes\":[{\"x\":[3,20]},{\"x\":[2,9]}]}"))
                .as("the same Gram, in another order: the same key").isEqualTo(free);
        assertThat(codec(free)).isEqualTo(before);
        // Shared by both orders, its public view names the Gram, not either caller's workload.
        JsonNode view = get("/v1/strategies/" + free).json();
        assertThat(view.get("gramHash").asString()).matches("[0-9a-f]{64}");
        assertThat(view.has("workloadHash") && !view.get("workloadHash").isNull()).as(view.toString()).isFalse();
        assertThat(view.has("workloadKind") && !view.get("workloadKind").isNull()).as(view.toString()).isFalse();
        assertThat(jdbc.queryForObject("SELECT info->>'workloadHash' IS NOT NULL OR info->>'workloadKind' IS NOT NULL FROM "
                + "strategy WHERE id = ?",
                Boolean.class, free)).as("nor does its stored info").isFalse();
        // Over the size cap, least recently used first, releases' strategies kept whatever the cap.
        assertThat(pruner.pruneBeyond(0)).contains(free).doesNotContain(needed);
    }

    private String histogram(int size) {
        Response h = postJson("/v1/datasets", "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"neighbouring\":\"ADD_REMOVE\","
                + "\"budget\":{\"epsilon\":5,\"delta\":1e-6},\"attributes\":[{\"name\":\"x\",\"size\":" + size + "}]}");
        String dataset = h.json().get("id").asString();
        assertThat(put("/v1/datasets/" + dataset + "/data", "text/csv", "x\n1\n5\n7\n".getBytes()).status())
                .isEqualTo(200);
        return dataset;
    }

    private long rows(String key) {
        return jdbc.queryForObject("SELECT count(*) FROM strategy WHERE id = ?", Long.class, key);
    }

    /**
     * Review of issue 36, F1: another replica's pruning pass deleted a strategy that this replica still
     * holds in memory. A job using it stores its charged release together with the strategy, to the
     * same bytes, so the release's free queries answer after this replica forgets its copy.
     */
    @Test
    void aReleaseStoresItsStrategyAgainWhenAnotherReplicaPrunedIt() {
        String dataset = histogram(20);
        String q = "{\"kind\":\"LINEAR_QUERIES\",\"mechanism\":\"OPTIMIZED\",\"rho\":0.1,"
                + "\"params\":{\"workload\":{\"type\":\"PREFIX\"}}}";
        String key = quoteKey(dataset, "{\"type\":\"PREFIX\"}");
        byte[] computed = codec(key);
        // Another replica's pass (its DELETE names the row; this replica's memory keeps its copy).
        assertThat(jdbc.update("DELETE FROM strategy WHERE id = ?", key)).isEqualTo(1);
        String release = runQuery(dataset, q).get("releaseId").asString();
        assertThat(get("/v1/releases/" + release).json().get("meta").get("strategyKey").asString()).isEqualTo(key);
        assertThat(rows(key)).as("the strategy the charged release names is stored").isEqualTo(1);
        assertThat(codec(key)).as("to the same bytes").isEqualTo(computed);
        // This replica restarts (or the release is read on the other replica): its memory copy is gone.
        strategies.forget(List.of(key));
        Response free = postJson("/v1/releases/" + release + "/linear-queries", "{\"boxes\":[{\"x\":[0,3]}]}");
        assertThat(free.status()).as(free.toString()).isEqualTo(200);
        // The release keeps it from now on, whatever the cap.
        assertThat(pruner.pruneBeyond(0)).doesNotContain(key);
    }

    /**
     * F1, the race on one replica: a pass that picked a strategy as a candidate while a release naming
     * it is being stored waits for the release's transaction and then keeps the strategy.
     */
    @Test
    void aPassWaitsForAReleaseBeingStoredAndKeepsItsStrategy() throws Exception {
        String dataset = histogram(22);
        JsonNode result = runQuery(dataset, "{\"kind\":\"LINEAR_QUERIES\",\"mechanism\":\"OPTIMIZED\","
                + "\"rho\":0.1,\"params\":{\"workload\":{\"type\":\"ALL_RANGE\"}}}");
        String jobId = result.get("jobId").asString();
        String key = quoteKey(dataset, "{\"type\":\"RANGES\",\"boxes\":[{\"x\":[1,9]},{\"x\":[4,21]}]}");
        Strategy strategy = strategies.load(key).orElseThrow();
        Facts meta = Facts.builder(ReleaseMeta.VOCABULARY).put(ReleaseMeta.STRATEGY_KEY, key).build();
        CountDownLatch stored = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> storing = threads.submit(() -> new TransactionTemplate(transactionManager).executeWithoutResult(
                    tx -> {
                        releases.store(new NewRelease(UUID.randomUUID(), UUID.fromString(dataset),
                                UUID.fromString(jobId), ReleaseKind.HISTOGRAM_ESTIMATE, "OPTIMIZED", "{}", "{}", meta,
                                1, 1, new double[] {0}, false), strategy);
                        stored.countDown();
                        try {
                            assertThat(commit.await(30, TimeUnit.SECONDS)).isTrue();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }));
            assertThat(stored.await(30, TimeUnit.SECONDS)).isTrue();
            Future<List<String>> pass = threads.submit(() -> pruner.pruneBeyond(0));
            Thread.sleep(300);
            assertThat(pass.isDone()).as("the pass waits for the release's transaction").isFalse();
            commit.countDown();
            storing.get(30, TimeUnit.SECONDS);
            assertThat(pass.get(30, TimeUnit.SECONDS)).doesNotContain(key);
            assertThat(rows(key)).isEqualTo(1);
        } finally {
            commit.countDown();
            threads.shutdownNow();
        }
    }
}
