package io.privmat.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.FairUseApiTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Issue 36, item 1: every free quote on a distinct workload stored a strategy that was never
 * deleted. The pruning job deletes strategies unused for the retention, and beyond the stored-bytes
 * cap least recently used first, but never one a stored estimate release needs; a deleted one is
 * computed again, to the same bytes, when asked for.
 */
class StrategyPruningTest extends FairUseApiTest {

    @Autowired
    StrategyPruner pruner;

    @Autowired
    StrategyRepository repository;

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
        // Over the size cap, least recently used first, releases' strategies kept whatever the cap.
        assertThat(repository.deleteBeyond(0)).contains(free).doesNotContain(needed);
    }
}
