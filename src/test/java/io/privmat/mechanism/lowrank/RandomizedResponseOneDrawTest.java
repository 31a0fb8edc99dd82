package io.privmat.mechanism.lowrank;

import static io.privmat.mechanism.catalog.IntervalCoverageTest.matrix;
import static io.privmat.mechanism.catalog.IntervalCoverageTest.matrixFacts;
import static io.privmat.mechanism.catalog.IntervalCoverageTest.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.EdgeSource;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.InMemoryData;
import io.privmat.mechanism.catalog.IntervalCoverageTest;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.AccountingMode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * RANDOMIZED_RESPONSE draws its noise once, holding the noisy rows, exactly where the data says it
 * would hold the clean rows between two passes ({@link DataAccess#holdsRows}, public values only),
 * and releases the same factors for the same seeded stream either way (docs/mechanisms/low-rank.md,
 * "Randomized response").
 */
class RandomizedResponseOneDrawTest {

    /** {@code data} that says whether it holds rows between passes, recording the passes asked for. */
    private record Holding(InMemoryData data, boolean holds, List<Integer> asked) implements DataAccess {

        @Override
        public double[] columnSums() {
            return data.columnSums();
        }

        @Override
        public Gram gram(boolean withSums) {
            return data.gram(withSums);
        }

        @Override
        public RowStream rows(int passes) {
            asked.add(passes);
            RowStream rows = data.rows(passes);
            return visitor -> {
                asked.add(-1); // one pass read
                rows.forEachBlock(visitor);
            };
        }

        @Override
        public boolean holdsRows(int passes) {
            return holds;
        }

        @Override
        public EdgeSource edges() {
            return data.edges();
        }
    }

    @Test
    void theSameReleaseWithOneDrawWhereTheRowsWouldBeHeld() {
        int m = 50;
        int d = 7;
        InMemoryData data = InMemoryData.matrix(matrix(m, d, 11));
        for (Map<String, Object> params : List.of(Map.<String, Object>of("k", 2), Map.<String, Object>of("k", 3,
                "shrink", true), Map.<String, Object>of())) {
            Plan plan = plan("RANDOMIZED_RESPONSE", "LOW_RANK", new QueryBudget(null, null, new BigDecimal("0.5")), params,
                    matrixFacts(d, (long) m, AccountingMode.ZCDP));
            Holding streamed = new Holding(data, false, new ArrayList<>());
            Holding held = new Holding(data, true, new ArrayList<>());
            Factorization twice = ((Release.Factors) plan.release(streamed, TestNoiseSources.seeded(31))).factorization();
            Factorization once = ((Release.Factors) plan.release(held, TestNoiseSources.seeded(31))).factorization();
            assertThat(streamed.asked()).as("two passes asked for and read").containsExactly(2, -1, -1);
            assertThat(held.asked()).as("one pass asked for and read").containsExactly(1, -1);
            assertThat(once.u()).containsExactly(twice.u());
            assertThat(once.s()).containsExactly(twice.s());
            assertThat(once.v()).containsExactly(twice.v());
            assertThat(once.facts()).isEqualTo(twice.facts());
            Factorization other = ((Release.Factors) plan.release(held, TestNoiseSources.seeded(32))).factorization();
            assertThat(other.v()).as("the noise is there").isNotEqualTo(once.v());
        }
    }
}
