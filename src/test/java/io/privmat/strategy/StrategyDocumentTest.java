package io.privmat.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.PublicArtifacts;
import io.privmat.mechanism.linear.StrategyInfo;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A strategy's stored info: the JSON the hand-built map wrote before (same members, same order, the
 * objective and lower bound written as null when not finite), and every stored form read back with
 * the service's strict settings (unknown members refused elsewhere, floats as BigDecimal).
 */
class StrategyDocumentTest {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    private static final StrategyInfo LOW_RANK = new StrategyInfo("h", "LOW_RANK", "p", 72, Double.NaN, 3, true);

    @Test
    void aComputedStrategyIsStoredAsBefore() {
        PublicArtifacts.TaskInfo task = new PublicArtifacts.TaskInfo("LOW_RANK_MECHANISM", null, "h", "ALL_RANGE", 8,
                36, "o", 0.5, 1024);
        String stored = JSON.writeValueAsString(StrategyDocument.of(task).computed(LOW_RANK, 12L));
        assertThat(stored).isEqualTo("{\"mechanism\":\"LOW_RANK_MECHANISM\",\"workloadHash\":\"h\","
                + "\"workloadKind\":\"ALL_RANGE\",\"cells\":8,\"queries\":36,\"options\":\"o\",\"estimatedSeconds\":0.5,"
                + "\"estimatedBytes\":1024,\"method\":\"LOW_RANK\",\"parameters\":\"p\",\"objective\":72.0,"
                + "\"lowerBound\":null,\"iterations\":3,\"converged\":true,\"expectedRmsePerUnitNoise\":"
                + Math.sqrt(2.0) + ",\"computeMillis\":12}");
        assertThat(JSON.readValue(stored, StrategyDocument.class)).isEqualTo(StrategyDocument.of(task)
                .computed(LOW_RANK, 12L));
    }

    @Test
    void aStrategyStoredAgainWithoutItsTaskHasItsMechanismAndItsOwnFactsOnly() {
        StrategyInfo optimized = new StrategyInfo("g", "OPTIMIZED/CONVEX", "q", Double.POSITIVE_INFINITY, 4, 0, false);
        assertThat(JSON.writeValueAsString(StrategyDocument.mechanism("OPTIMIZED").computed(optimized, null)))
                .isEqualTo("{\"mechanism\":\"OPTIMIZED\",\"method\":\"OPTIMIZED/CONVEX\",\"parameters\":\"q\","
                        + "\"objective\":null,\"lowerBound\":4.0,\"iterations\":0,\"converged\":false}");
    }

    @Test
    void anOptimizedStrategyStoredWithItsFirstWorkloadReadsBack() {
        // Stored before OPTIMIZED left the first caller's workload out, in jsonb's key order, with a member
        // this version does not know.
        StrategyDocument d = JSON.readValue("{\"cells\": 16, \"method\": \"OPTIMIZED/CONVEX\", \"options\": \"o\", "
                + "\"queries\": 136, \"mechanism\": \"OPTIMIZED\", \"objective\": 210.5, \"converged\": true, "
                + "\"iterations\": 40, \"lowerBound\": null, \"parameters\": \"o\", \"workloadHash\": \"w\", "
                + "\"workloadKind\": \"ALL_RANGE\", \"computeMillis\": 1234, \"somethingOlder\": [1], "
                + "\"expectedRmsePerUnitNoise\": 1.2440}", StrategyDocument.class);
        assertThat(d.workloadHash()).isEqualTo("w");
        assertThat(d.cells()).isEqualTo(16);
        assertThat(d.objective()).isEqualTo(210.5);
        assertThat(d.lowerBound()).isNull();
        assertThat(d.expectedRmsePerUnitNoise()).isEqualTo(1.244);
        assertThat(d.computeMillis()).isEqualTo(1234L);
        assertThat(d.gramHash()).isNull();
        assertThat(d.estimatedSeconds()).isNull();
    }
}
