package io.privmat.mechanism.sums;

import io.privmat.mechanism.catalog.RequestParams;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.InMemoryData;
import io.privmat.mechanism.catalog.IntervalCoverageTest;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.privacy.AccountingMode;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * CLIPPED_LAPLACE against the LAPLACE baseline (docs/mechanisms/catalogue.md): its sensitivity is
 * min(d·c, √d·B), it sums clipped entries, and its stated intervals cover the clipped sums. The
 * mechanism contract suite checks the rest (empirical sensitivity, extremal changes, input, accuracy).
 */
class ClippedLaplaceColumnSumsTest {

    private static final QueryBudget EPSILON_ONE = new QueryBudget(BigDecimal.ONE, null, null);

    private static PublicFacts facts(int d, double b, NeighbouringRelation relation) {
        return new PublicFacts(DataShape.MATRIX, d, relation == NeighbouringRelation.REPLACE_ONE ? 100L : null, b,
                relation, AccountingMode.PURE);
    }

    private static Plan plan(String mechanism, Map<String, Object> params, PublicFacts facts) {
        return MechanismCatalog.standard().plan("COLUMN_SUMS", mechanism, EPSILON_ONE, RequestParams.of(params), facts);
    }

    private static double l1(Plan plan) {
        return plan.noise().get(NoiseFacts.L1_SENSITIVITY);
    }

    @Test
    void aSmallEntryBoundShrinksTheSensitivityAndTheNoiseBelowLaplaces() {
        // d = 16, B = 8: LAPLACE's √d·B = 32; entries clipped to 0.5 give d·c = 8, a quarter of it.
        PublicFacts facts = facts(16, 8, NeighbouringRelation.ADD_REMOVE);
        Plan laplace = plan("LAPLACE", Map.of(), facts);
        Plan clipped = plan("CLIPPED_LAPLACE", Map.of("entryBound", 0.5), facts);
        assertThat(l1(laplace)).isCloseTo(32, within(1e-9));
        assertThat(l1(clipped)).isCloseTo(8, within(1e-12));
        double ratio = clipped.noise().get(NoiseFacts.SCALE) / laplace.noise().get(NoiseFacts.SCALE);
        assertThat(ratio).as("noise scale against LAPLACE's (grids differ by at most a few percent)")
                .isCloseTo(0.25, within(0.02));
    }

    @Test
    void aLargeEntryBoundCostsWhatLaplaceCostsAndReplacingARowDoublesIt() {
        for (NeighbouringRelation relation : NeighbouringRelation.values()) {
            PublicFacts facts = facts(16, 8, relation);
            assertThat(l1(plan("CLIPPED_LAPLACE", Map.of("entryBound", 100.0), facts))).as(relation.name())
                    .isCloseTo(l1(plan("LAPLACE", Map.of(), facts)), within(1e-9));
        }
        assertThat(l1(plan("CLIPPED_LAPLACE", Map.of("entryBound", 0.5), facts(16, 8,
                NeighbouringRelation.REPLACE_ONE)))).isCloseTo(16, within(1e-12));
    }

    @Test
    void itSumsClippedEntriesAndItsIntervalsCoverThoseSums() {
        double[][] rows = {{3, -0.2, 0}, {-2, 0.4, 0.1}, {0.5, -5, 0}};
        InMemoryData data = InMemoryData.matrix(rows);
        double[] clipped = ClippedLaplaceColumnSums.clippedSums(data, 3, 1);
        assertThat(clipped).containsExactly(new double[] {1 - 1 + 0.5, -0.2 + 0.4 - 1, 0.1}, within(1e-12));
        Plan plan = IntervalCoverageTest.plan("CLIPPED_LAPLACE", "COLUMN_SUMS", EPSILON_ONE, Map.of("entryBound",
                1.0), facts(3, 6, NeighbouringRelation.ADD_REMOVE));
        IntervalCoverageTest.entries(plan, data, "columnSums", clipped, 3000).check();
    }
}
