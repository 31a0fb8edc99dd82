package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.MechanismContractTest.Case;
import io.privmat.privacy.AccountingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A failure is an output (docs/adr/0011-a-failure-is-an-output.md): after data access, no catalogue
 * value may throw because of the values read, or a job's DONE/FAILED state would release a function of
 * the data outside the mechanism. For every registered value, each kind it answers, each relation and
 * shape (the cases of {@link MechanismContractTest}: a new value gets this test without an edit), the
 * release runs on adversarial inputs within the declared limits and must return finite values:
 * <ul>
 *   <li>matrices and stream blocks: all zero rows; every row at the norm bound on one axis (a saturated
 *       column); rows of alternating sign at the bound; and 2⁵⁰ copies of the saturated rows, given
 *       to the Gram and the column sums (their entries 2⁵³·B², far past any dataset's), with the
 *       public row count 2⁵³ where it is a fact;</li>
 *   <li>histograms: all zero; one cell at 2⁵³ − 1 and its neighbour at 2⁵³ (the largest exactly
 *       representable count); every cell at 2⁵⁰;</li>
 *   <li>ratings: every user at the per-user cap with every rating at the top, or the bottom, of the
 *       scale, for 2 000 users;</li>
 *   <li>graphs: the complete graph with unit weights on the smallest vertex count the value admits.</li>
 * </ul>
 * Each input also runs with its neighbour where one is built (the histogram pair above): the failure
 * probability is then equal — zero — on neighbouring extreme inputs, the audit's view of FAILED as an
 * output (docs/privacy-audit.md). This test fails on a grid rounding that throws past 2⁵² steps.
 */
class TotalityContractTest {

    /** Copies of the test rows that the "huge" matrix stands for: 2⁵⁰ copies of 8 rows, 2⁵³ rows. */
    static final double COPIES = 0x1p50;

    record Extreme(String name, DataAccess data, PublicFacts facts) {}

    static List<Case> cases() {
        return MechanismContractTest.cases().map(a -> (Case) a.get()[0]).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void releaseIsTotalOnExtremeInputs(Case c) {
        PublicFacts base = MechanismContractTest.plan(c, 1).spec().facts();
        for (Extreme e : extremes(c, base)) {
            Plan plan;
            try {
                plan = MechanismContractTest.plan(c, 1, e.facts());
            } catch (PlanningException refused) {
                // Refused from public facts, before any charge or data access: not an output of the data.
                continue;
            }
            // The rounding maps a NaN statistic to 0 steps, which would hide one: check it before the noise.
            double[] statistic = c.mechanism().statistic(c.kind(), plan.spec().params(), plan.spec().facts(), e.data());
            assertThat(Arrays.stream(statistic).noneMatch(Double::isNaN))
                    .as("%s on %s: the statistic before noise has no NaN", c, e.name()).isTrue();
            for (long seed = 1; seed <= 2; seed++) {
                Release release;
                try {
                    release = plan.release(e.data(), MechanismContractTest.seeded(seed));
                } catch (RuntimeException thrown) {
                    fail("%s on %s threw after data access: %s", c, e.name(), thrown);
                    return;
                }
                double[] values = MechanismContractTest.values(release);
                // Infinite values are allowed (an interval whose half-width needs a private n is infinite
                // whatever the data); NaN is not.
                assertThat(Arrays.stream(values).noneMatch(Double::isNaN))
                        .as("%s on %s: no released value is NaN", c, e.name()).isTrue();
            }
        }
    }

    /** The adversarial inputs of a case's shape, each with the public facts a dataset holding it has. */
    static List<Extreme> extremes(Case c, PublicFacts base) {
        List<Extreme> out = new ArrayList<>();
        AccountingMode mode = base.mode();
        NeighbouringRelation relation = c.relation();
        int n = MechanismContractTest.N;
        int d = MechanismContractTest.D;
        double b = MechanismContractTest.B;
        switch (c.shape()) {
            case MATRIX, STREAM -> {
                double[][] zero = new double[n][d];
                double[][] saturated = new double[n][];
                double[][] alternating = new double[n][];
                for (int i = 0; i < n; i++) {
                    saturated[i] = MechanismContractTest.axis(0, b);
                    alternating[i] = MechanismContractTest.axis(i % d, i % 2 == 0 ? b : -b);
                }
                out.add(matrix(c, "all-zero rows", InMemoryData.matrix(zero), n, base));
                out.add(matrix(c, "rows at the bound on one axis", InMemoryData.matrix(saturated), n, base));
                out.add(matrix(c, "rows at the bound, alternating", InMemoryData.matrix(alternating), n, base));
                if (c.shape() == DataShape.MATRIX) {
                    out.add(matrix(c, "2^53 rows at the bound on one axis",
                            new Replicated(InMemoryData.matrix(saturated), COPIES), (long) (n * COPIES), base));
                }
            }
            case HISTOGRAM -> {
                int cells = MechanismContractTest.DOMAIN.cells();
                double[] zero = new double[cells];
                double[] below = new double[cells];
                below[0] = 0x1p53 - 1;
                double[] top = new double[cells];
                top[0] = 0x1p53;
                double[] spread = new double[cells];
                Arrays.fill(spread, 0x1p50);
                out.add(histogram(relation, mode, "all-zero histogram", zero));
                out.add(histogram(relation, mode, "one cell at 2^53 - 1", below));
                out.add(histogram(relation, mode, "one cell at 2^53 (its neighbour)", top));
                out.add(histogram(relation, mode, "every cell at 2^50", spread));
            }
            case RATINGS -> {
                var domain = RatingsData.DOMAIN;
                for (double rating : new double[] {domain.hi(), domain.lo()}) {
                    List<int[]> items = new ArrayList<>();
                    List<double[]> ratings = new ArrayList<>();
                    for (int u = 0; u < 2000; u++) {
                        int[] row = new int[domain.perUserCap()];
                        for (int k = 0; k < row.length; k++) {
                            row[k] = (u + k * 2) % domain.items();
                        }
                        Arrays.sort(row);
                        items.add(row);
                        double[] r = new double[row.length];
                        Arrays.fill(r, rating);
                        ratings.add(r);
                    }
                    RatingsData data = new RatingsData(items, ratings);
                    PublicFacts facts = MechanismContractTest.entryLevel(c)
                            ? RatingsData.ratingFacts(mode, data.users()) : RatingsData.facts(relation, mode);
                    out.add(new Extreme("2000 users at the cap, every rating " + rating, data, facts));
                }
            }
            case GRAPH -> {
                int vertices = base.cols();
                List<double[]> edges = new ArrayList<>();
                if (vertices <= 512) {
                    for (int u = 0; u < vertices; u++) {
                        for (int v = u + 1; v < vertices; v++) {
                            edges.add(new double[] {u, v, 1.0});
                        }
                    }
                } else {
                    // A star (one vertex of the largest degree) and a path, unit weights.
                    for (int v = 1; v < vertices; v++) {
                        edges.add(new double[] {0, v, 1.0});
                        edges.add(new double[] {v - 1, v, 1.0});
                    }
                }
                out.add(new Extreme("dense graph with unit weights", InMemoryData.graph(edges), base));
            }
            default -> throw new IllegalStateException("no extreme inputs for " + c.shape());
        }
        return out;
    }

    static Extreme matrix(Case c, String name, DataAccess data, long rows, PublicFacts base) {
        PublicFacts facts = c.shape() == DataShape.STREAM || c.relation() == NeighbouringRelation.ADD_REMOVE ? base
                : new PublicFacts(DataShape.MATRIX, base.cols(), rows, base.rowNormBound(), c.relation(), base.mode());
        return new Extreme(name, data, facts);
    }

    static Extreme histogram(NeighbouringRelation relation, AccountingMode mode, String name, double[] counts) {
        double total = 0;
        for (double x : counts) {
            total += x;
        }
        PublicFacts facts = MechanismContractTest.histogramFacts(relation, mode, (long) total);
        return new Extreme(name, InMemoryData.histogram(counts), facts);
    }

    /**
     * A matrix standing for {@code copies} copies of its rows where a mechanism reads aggregates (the
     * Gram and the column sums, as an external engine hands them over); row passes see the rows once.
     */
    record Replicated(InMemoryData rows, double copies) implements DataAccess {

        @Override
        public double[] columnSums() {
            return scaled(rows.columnSums());
        }

        @Override
        public Gram gram(boolean withSums) {
            Gram g = rows.gram(withSums);
            return new Gram(scaled(g.gram()), scaled(g.sums()));
        }

        @Override
        public RowStream rows(int passes) {
            return rows.rows(passes);
        }

        @Override
        public EdgeSource edges() {
            return rows.edges();
        }

        private double[] scaled(double[] x) {
            double[] out = x.clone();
            for (int i = 0; i < out.length; i++) {
                out[i] *= copies;
            }
            return out;
        }
    }
}
