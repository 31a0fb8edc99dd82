package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.AccountingMode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The dry run's stand-in data (docs/dry-run.md) keeps every public fact a mechanism relies on — row
 * norms ≤ B, distinct edges of weight 1 inside the vertex set, integer counts summing to the stand-in's
 * records, ratings inside the range and at most s per user on distinct items — so a plan of the
 * dataset runs on it exactly as on real data; and its size is bounded.
 */
class StandInDataTest {

    @Test
    void matrixRowsRespectTheBound() {
        PublicFacts facts = new PublicFacts(DataShape.MATRIX, 7, null, 2.5, NeighbouringRelation.ADD_REMOVE,
                AccountingMode.ZCDP);
        StandInData data = StandInData.of(facts, 300, TestNoiseSources.seeded(1));
        int[] seen = {0};
        data.rows(1).forEachBlock((block, count, first) -> {
            for (int i = 0; i < count; i++) {
                double norm = 0;
                for (int j = 0; j < 7; j++) {
                    norm += block[i * 7 + j] * block[i * 7 + j];
                }
                assertThat(Math.sqrt(norm)).isBetween(2.5 / 2 - 1e-9, 2.5 + 1e-9);
            }
            seen[0] += count;
        });
        assertThat(seen[0]).isEqualTo(300);
        double[] g = data.gram(true).gram();
        assertThat(g[0]).as("trace term of a non-empty matrix").isPositive();
        assertThat(data.describe().rows()).isEqualTo(300L);
        assertThat(data.describe().edges()).isNull();
        assertThat(StandInData.maxSize(facts)).isEqualTo(StandInData.MAX_ENTRIES / 7);
        assertThatThrownBy(() -> StandInData.of(facts, StandInData.MAX_ENTRIES, TestNoiseSources.seeded(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Attack 32, F2: a matrix stand-in's work is capped from public sizes (n·d² for its Gram, and d),
     * and its Gram is the BLAS one, equal to XᵀX summed row by row.
     */
    @Test
    void matrixWorkIsCappedAndTheGramIsExact() {
        java.util.function.IntFunction<PublicFacts> wide = d -> new PublicFacts(DataShape.MATRIX, d, null, 1.0,
                NeighbouringRelation.ADD_REMOVE, AccountingMode.ZCDP);
        assertThat(StandInData.maxSize(wide.apply(1000))).isEqualTo(1000);
        assertThat(StandInData.maxSize(wide.apply(500))).isEqualTo(4000);
        assertThat(StandInData.maxSize(wide.apply(100))).isEqualTo(StandInData.MAX_ENTRIES / 100);
        assertThatThrownBy(() -> StandInData.maxSize(wide.apply(1001))).isInstanceOf(PlanningException.class)
                .hasMessageContaining("at most 1000 columns")
                .extracting(e -> ((PlanningException) e).reason()).isEqualTo(PlanningException.Reason.DATASET_TOO_LARGE);
        int d = 9;
        int n = 301;
        StandInData data = StandInData.of(wide.apply(d), n, TestNoiseSources.seeded(7));
        double[] x = new double[n * d];
        int[] at = {0};
        data.rows(1).forEachBlock((block, count, first) -> {
            System.arraycopy(block, 0, x, at[0] * d, count * d);
            at[0] += count;
        });
        double[] g = data.gram(false).gram();
        for (int a = 0; a < d; a++) {
            for (int c = 0; c < d; c++) {
                double sum = 0;
                for (int i = 0; i < n; i++) {
                    sum += x[i * d + a] * x[i * d + c];
                }
                assertThat(g[a * d + c]).isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-9 * (1 + Math.abs(sum))));
            }
        }
    }

    @Test
    void graphEdgesAreDistinctAndInside() {
        PublicFacts facts = new PublicFacts(DataShape.GRAPH, 40, 40L, 1.0, NeighbouringRelation.ADD_REMOVE,
                AccountingMode.BASIC);
        assertThat(StandInData.maxSize(facts)).isEqualTo(40 * 39 / 4);
        StandInData data = StandInData.of(facts, 390, TestNoiseSources.seeded(2));
        Set<Long> pairs = new HashSet<>();
        data.edges().forEachEdge((u, v, w) -> {
            assertThat(u).isBetween(0, 38);
            assertThat(v).isBetween(u + 1, 39);
            assertThat(w).isEqualTo(1.0);
            assertThat(pairs.add((long) u * 40 + v)).as("distinct").isTrue();
        });
        assertThat(pairs).hasSize(390);
    }

    @Test
    void histogramCountsSumToTheRecords() {
        HistogramDomain domain = new HistogramDomain(List.of("a", "b"), List.of(4, 3));
        PublicFacts facts = new PublicFacts(DataShape.HISTOGRAM, 12, 5000L, 1.0, NeighbouringRelation.REPLACE_ONE,
                AccountingMode.ZCDP, domain);
        double[] counts = StandInData.of(facts, 5000, TestNoiseSources.seeded(3)).histogram();
        assertThat(counts).hasSize(12);
        double total = 0;
        for (double c : counts) {
            assertThat(c).isEqualTo(Math.rint(c)).isGreaterThanOrEqualTo(0);
            total += c;
        }
        assertThat(total).isEqualTo(5000);
    }

    @Test
    void ratingsStayInTheDomain() {
        RatingsDomain domain = new RatingsDomain(30, 1, 5, 4);
        PublicFacts facts = PublicFacts.ratings(new RatingsFacts(domain, RatingsRelation.USER), null,
                AccountingMode.ZCDP);
        StandInData data = StandInData.of(facts, 200, TestNoiseSources.seeded(4));
        int[] users = {0};
        data.ratings().forEachUser((user, items, ratings, count) -> {
            assertThat(count).isBetween(1, 4);
            Set<Integer> distinct = new HashSet<>();
            for (int k = 0; k < count; k++) {
                assertThat(items[k]).isBetween(0, 29);
                assertThat(distinct.add(items[k])).isTrue();
                assertThat(ratings[k]).isBetween(1.0, 5.0);
            }
            users[0]++;
        });
        assertThat(users[0]).isEqualTo(200);
    }

    /** Every contract case's plan releases on a stand-in of its facts (the dry run's path, without HTTP). */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("io.privmat.mechanism.catalog.MechanismContractTest#cases")
    void everyCataloguePlanRunsOnAStandIn(MechanismContractTest.Case c) {
        // Streams answer subscriptions, not one-shot queries: they have no dry run.
        org.junit.jupiter.api.Assumptions.assumeTrue(c.shape() != DataShape.STREAM);
        Plan plan = MechanismContractTest.plan(c, 1);
        PublicFacts facts = plan.spec().facts();
        long size = facts.publicRows() != null && facts.shape() != DataShape.GRAPH ? facts.publicRows()
                : Math.min(StandInData.maxSize(facts), 200);
        Release release = plan.release(StandInData.of(facts, size, TestNoiseSources.seeded(5)),
                TestNoiseSources.seeded(6));
        MechanismCatalog catalog = MechanismCatalog.standard();
        assertThat(catalog.warnings(plan, release, catalog.accuracy(plan, release, 0.95))).isNotNull();
    }
}
