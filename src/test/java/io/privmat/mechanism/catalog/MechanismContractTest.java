package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.completion.CompletionFacts;
import io.privmat.mechanism.completion.CompletionModels;
import io.privmat.mechanism.completion.CompletionRelease;
import io.privmat.mechanism.linear.LinearQueriesRelease;
import io.privmat.mechanism.lowrank.FactorizationFacts;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.mechanism.regression.RegressionFacts;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.BudgetFilter;
import io.privmat.privacy.Tracks;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every mechanism of the catalogue must meet (EJML's shared contract tests are the
 * model): registered mechanisms get these tests without writing them. For each mechanism, each kind
 * it answers and each relation it supports, on small matrices (d = 4, n = 8), graphs, or streams
 * whose first block is such a matrix (the window mechanisms):
 * <ul>
 *   <li>the plan depends only on public facts: two datasets with the same public facts and different
 *       data (under ADD_REMOVE also a different, private, row count) give the same spec, loss and
 *       noise, the stored spec rebuilds into exactly the same plan, and the releases do differ;</li>
 *   <li>empirical sensitivity: over random and adversarial neighbouring pairs, and the mechanism's own
 *       extremal changes ({@link MechanismDefinition#extremalChanges}), the pre-noise statistic moves
 *       by at most the declared sensitivity, in the declared norm — and, on the extremal changes, by
 *       more than half of it, so a mutant declaring half the sensitivity is caught;</li>
 *   <li>a seeded release is reproducible;</li>
 *   <li>the privacy map is monotone: a larger budget is charged at least as much on every track;</li>
 *   <li>the release has the shape its kind promises.</li>
 * </ul>
 * Requests use the mechanism's own {@link MechanismDefinition#exampleParams}: a new mechanism needs no
 * edit here.
 */
class MechanismContractTest {

    static final int D = 4;
    static final int N = 8;
    static final double B = 1.0;
    /** Vertices of the test graphs: enough for the JL overlay weight at ε = 1. */
    static final int[] GRAPH_SIZES = {64, 256, 1024, 2048, 4096};

    record Case(MechanismDefinition mechanism, QueryKind kind, NeighbouringRelation relation, DataShape shape) {
        @Override
        public String toString() {
            return mechanism.name() + " " + kind + " " + relation + " " + shape
                    + (entryLevel(this) ? " RATING" : "");
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (MechanismDefinition m : MechanismCatalog.standard().all()) {
            for (QueryKind kind : m.kinds()) {
                for (NeighbouringRelation r : m.relations()) {
                    for (DataShape shape : m.shapes()) {
                        if (shape == DataShape.GRAPH && r == NeighbouringRelation.ADD_REMOVE) {
                            continue; // a graph's privacy unit is an edge; its vertex count is public
                        }
                        out.add(Arguments.of(new Case(m, kind, r, shape)));
                    }
                }
            }
        }
        return out.stream();
    }

    /**
     * The block layout of the test streams: blocks of 8 rows (the test matrices form one block), a
     * window of 4 blocks, a horizon of 100 blocks.
     */
    static final StreamLayout STREAM = new StreamLayout(io.privmat.mechanism.catalog.BlockRule.ROW_COUNT, N, 4, 100,
            false);

    /** The domain of the test histograms: two attributes, 4 × 2 = 8 cells. */
    static final HistogramDomain DOMAIN = new HistogramDomain(List.of("a", "b"), List.of(4, 2));

    static PublicFacts facts(Case c, int vertices) {
        AccountingMode mode = c.mechanism().budgetForm() == QueryBudget.Form.PURE_EPSILON ? AccountingMode.PURE
                : AccountingMode.ZCDP;
        if (c.shape() == DataShape.HISTOGRAM) {
            return histogramFacts(c.relation(), mode, N);
        }
        if (c.shape() == DataShape.RATINGS) {
            return entryLevel(c) ? RatingsData.ratingFacts(mode, N) : RatingsData.facts(c.relation(), mode);
        }
        if (c.shape() == DataShape.STREAM) {
            return PublicFacts.stream(D, B, c.relation(), mode, STREAM);
        }
        if (c.shape() == DataShape.GRAPH) {
            return new PublicFacts(DataShape.GRAPH, vertices, (long) vertices, 1.0, c.relation(), mode);
        }
        Long rows = c.relation() == NeighbouringRelation.REPLACE_ONE ? (long) N : null;
        return new PublicFacts(DataShape.MATRIX, D, rows, B, c.relation(), mode);
    }

    /**
     * A ratings case of an entry-level mechanism (one that refuses USER): tested under RATING, with
     * neighbours that change one observed rating; the user-level ones are tested under USER and
     * USER_ADD_REMOVE.
     */
    static boolean entryLevel(Case c) {
        return c.shape() == DataShape.RATINGS
                && !c.mechanism().ratingsRelations().contains(io.privmat.mechanism.catalog.RatingsRelation.USER);
    }

    /** A random ratings dataset and a neighbour under the case's relation (trial: every third adversarial). */
    static DataAccess[] ratingsPair(Case c, SplittableRandom random, int trial) {
        return entryLevel(c) ? RatingsData.ratingPair(random, N, trial) : RatingsData.pair(c.relation(), random, N, trial);
    }

    static PublicFacts histogramFacts(NeighbouringRelation relation, AccountingMode mode, long records) {
        return new PublicFacts(DataShape.HISTOGRAM, DOMAIN.cells(), relation == NeighbouringRelation.REPLACE_ONE
                ? records : null, 1.0, relation, mode, DOMAIN);
    }

    static QueryBudget budget(MechanismDefinition m, DataShape shape, double scale) {
        // Graphs: a larger ε keeps the JL overlay weight, and so the smallest admissible graph, small.
        BigDecimal s = BigDecimal.valueOf(shape == DataShape.GRAPH ? 8 * scale : scale);
        return switch (m.budgetForm()) {
            case GAUSSIAN, PURE_OR_GAUSSIAN -> new QueryBudget(null, null, new BigDecimal("0.5").multiply(s));
            case PURE_EPSILON -> new QueryBudget(s, null, null);
            case APPROXIMATE -> new QueryBudget(s, new BigDecimal("1e-6"), null);
        };
    }

    static Map<String, Object> params(Case c) {
        return new java.util.LinkedHashMap<>(c.mechanism().exampleParams(c.kind()).asMap());
    }

    /** Plans the case, on the smallest test graph the mechanism accepts. */
    static Plan plan(Case c, double scale) {
        PlanningException last = null;
        for (int n : c.shape() == DataShape.GRAPH ? GRAPH_SIZES : new int[] {0}) {
            try {
                return plan(c, scale, facts(c, n));
            } catch (PlanningException e) {
                if (e.reason() != PlanningException.Reason.GRAPH_TOO_SMALL) {
                    throw e;
                }
                last = e;
            }
        }
        throw last;
    }

    static Plan plan(Case c, double scale, PublicFacts facts) {
        return MechanismCatalog.standard().plan(c.kind().name(), c.mechanism().name(),
                budget(c.mechanism(), c.shape(), scale), RequestParams.of(params(c)), facts);
    }

    /** A dataset's public facts, derived as the service derives them: n only where it is public. */
    static PublicFacts factsOf(Case c, DataAccess data, int cols) {
        AccountingMode mode = facts(c, cols).mode();
        if (c.shape() == DataShape.STREAM) {
            return PublicFacts.stream(((InMemoryData) data).d(), B, c.relation(), mode, STREAM);
        }
        if (c.shape() == DataShape.GRAPH) {
            return new PublicFacts(DataShape.GRAPH, cols, (long) cols, 1.0, c.relation(), mode);
        }
        if (c.shape() == DataShape.HISTOGRAM) {
            return histogramFacts(c.relation(), mode, ((InMemoryData) data).records());
        }
        if (c.shape() == DataShape.RATINGS) {
            // m is a fact under RATING only (Ω public), not under USER or USER_ADD_REMOVE.
            return entryLevel(c) ? RatingsData.ratingFacts(mode, ((RatingsData) data).users())
                    : RatingsData.facts(c.relation(), mode);
        }
        InMemoryData m = (InMemoryData) data;
        Long rows = c.relation() == NeighbouringRelation.REPLACE_ONE ? (long) m.matrixRows().length : null;
        return new PublicFacts(DataShape.MATRIX, m.d(), rows, B, c.relation(), mode);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void planDependsOnlyOnPublicFacts(Case c) {
        int cols = plan(c, 1).spec().facts().cols();
        SplittableRandom random = new SplittableRandom(21);
        // Two datasets with different data; under ADD_REMOVE also a different (private) row count.
        int secondRows = c.relation() == NeighbouringRelation.ADD_REMOVE ? N + 5 : N;
        DataAccess first = c.shape() == DataShape.GRAPH ? graphPair(cols, random, 1)[0]
                : c.shape() == DataShape.HISTOGRAM ? randomHistogram(random, N)
                : c.shape() == DataShape.RATINGS ? RatingsData.random(random, N) : randomMatrix(random, N);
        DataAccess second = c.shape() == DataShape.GRAPH ? graphPair(cols, random, 2)[0]
                : c.shape() == DataShape.HISTOGRAM ? randomHistogram(random, secondRows)
                : c.shape() == DataShape.RATINGS ? RatingsData.random(random, secondRows)
                : randomMatrix(random, secondRows);
        PublicFacts facts = factsOf(c, first, cols);
        assertThat(factsOf(c, second, cols)).as("same public facts").isEqualTo(facts);
        Plan a = plan(c, 1, facts);
        Plan b = plan(c, 1, factsOf(c, second, cols));
        assertThat(b.spec().parsed()).isEqualTo(a.spec().parsed());
        assertThat(b.chargedLoss()).isEqualTo(a.chargedLoss());
        assertThat(b.mechanismLoss()).isEqualTo(a.mechanismLoss());
        assertThat(b.noise()).isEqualTo(a.noise());
        Plan rebuilt = MechanismCatalog.standard().rebuild(a.spec().parsed());
        assertThat(rebuilt.spec().parsed()).isEqualTo(a.spec().parsed());
        assertThat(rebuilt.chargedLoss()).isEqualTo(a.chargedLoss());
        assertThat(rebuilt.mechanismLoss()).isEqualTo(a.mechanismLoss());
        assertThat(rebuilt.noise()).isEqualTo(a.noise());
        // The facts carry n only where it is public (a stream's row count is never a fact).
        assertThat(a.spec().facts().publicRows() == null).as(c.toString())
                .isEqualTo((c.shape() == DataShape.MATRIX || c.shape() == DataShape.HISTOGRAM)
                        && c.relation() == NeighbouringRelation.ADD_REMOVE || c.shape() == DataShape.STREAM
                        || c.shape() == DataShape.RATINGS && !entryLevel(c));
        // The data does reach the release (so the equalities above are not vacuous).
        assertThat(values(a.release(first, seeded(5)))).as("%s: releases on different data", c)
                .isNotEqualTo(values(b.release(second, seeded(5))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void statisticMovesAtMostTheDeclaredSensitivity(Case c) {
        Plan plan = plan(c, 1);
        Sensitivity declared = declared(c, plan);
        assertThat(Math.max(worstMovement(c, plan), extremalMovement(c, plan)))
                .as("%s: largest movement of %s in %s norm", c, declared.statistic(), declared.norm())
                .isLessThanOrEqualTo(declared.value() * (1 + 1e-9)).isGreaterThan(0);
    }

    /**
     * The check has teeth: on the mechanism's extremal changes the statistic moves by more than half
     * the declared sensitivity, so a mutant declaring half of it would fail the check above.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void halvedSensitivityWouldBeCaught(Case c) {
        Plan plan = plan(c, 1);
        double halved = declared(c, plan).value() / 2;
        assertThat(extremalMovement(c, plan)).as("%s: a mutant declaring %s would be caught", c, halved)
                .isGreaterThan(halved);
    }

    static Sensitivity declared(Case c, Plan plan) {
        return c.mechanism().sensitivity(c.kind(), plan.spec().params(), plan.spec().facts());
    }

    /**
     * The largest movement over the mechanism's declared extremal changes, each applied to 5 random
     * base datasets (and checked to be a valid neighbouring change of the case's relation).
     */
    static double extremalMovement(Case c, Plan plan) {
        PublicFacts facts = plan.spec().facts();
        Params params = plan.spec().params();
        List<NeighbouringChange> changes = c.mechanism().extremalChanges(c.kind(), params, facts);
        assertThat(changes).as("%s declares its extremal changes", c).isNotEmpty();
        String norm = declared(c, plan).norm();
        SplittableRandom random = new SplittableRandom(15);
        double worst = 0;
        for (NeighbouringChange change : changes) {
            for (int base = 0; base < 5; base++) {
                DataAccess[] pair = apply(change, c, facts, random);
                double[] x = c.mechanism().statistic(c.kind(), params, facts, pair[0]);
                double[] y = c.mechanism().statistic(c.kind(), params, facts, pair[1]);
                worst = Math.max(worst, distance(norm, x, y));
            }
        }
        return worst;
    }

    /** A random base dataset and its neighbour by {@code change}, after checking the change is valid. */
    static DataAccess[] apply(NeighbouringChange change, Case c, PublicFacts facts, SplittableRandom random) {
        if (change instanceof NeighbouringChange.ChangedRating r) {
            assertThat(entryLevel(c)).as("%s: a changed rating is a RATING neighbour", c).isTrue();
            RatingsDomain domain = facts.ratings().domain();
            assertThat(r.before()).isBetween(domain.lo(), domain.hi());
            assertThat(r.after()).isBetween(domain.lo(), domain.hi());
            return RatingsData.apply(change, random, N);
        }
        if (change instanceof NeighbouringChange.AddedUser || change instanceof NeighbouringChange.ReplacedUser) {
            assertThat(entryLevel(c)).as("%s: a user change is not a RATING neighbour", c).isFalse();
            assertThat(c.shape()).isEqualTo(DataShape.RATINGS);
            RatingsDomain domain = facts.ratings().domain();
            if (change instanceof NeighbouringChange.AddedUser a) {
                assertThat(c.relation()).isEqualTo(NeighbouringRelation.ADD_REMOVE);
                assertUser(a.items(), a.ratings(), domain);
            } else {
                NeighbouringChange.ReplacedUser r = (NeighbouringChange.ReplacedUser) change;
                assertThat(c.relation()).isEqualTo(NeighbouringRelation.REPLACE_ONE);
                assertUser(r.beforeItems(), r.beforeRatings(), domain);
                assertUser(r.afterItems(), r.afterRatings(), domain);
            }
            return RatingsData.apply(change, random, N);
        }
        if (change instanceof NeighbouringChange.AddedEdge e) {
            assertThat(c.shape()).isEqualTo(DataShape.GRAPH);
            assertThat(e.u()).isNotEqualTo(e.v()).isBetween(0, facts.cols() - 1);
            assertThat(e.v()).isBetween(0, facts.cols() - 1);
            assertThat(e.weight()).isGreaterThan(0).isLessThanOrEqualTo(1);
            DataAccess base = graphPair(facts.cols(), random, 1)[0];
            List<double[]> more = new ArrayList<>(((InMemoryData) base).edgeList());
            more.add(new double[] {e.u(), e.v(), e.weight()});
            return new DataAccess[] {base, InMemoryData.graph(more)};
        }
        if (change instanceof NeighbouringChange.AddedRecord a) {
            assertThat(c.shape()).isEqualTo(DataShape.HISTOGRAM);
            assertThat(c.relation()).isEqualTo(NeighbouringRelation.ADD_REMOVE);
            assertThat(a.cell()).isBetween(0, facts.cols() - 1);
            double[] x = ((InMemoryData) randomHistogram(random, N)).histogram();
            double[] y = x.clone();
            y[a.cell()]++;
            return new DataAccess[] {InMemoryData.histogram(x), InMemoryData.histogram(y)};
        }
        if (change instanceof NeighbouringChange.MovedRecord m) {
            assertThat(c.shape()).isEqualTo(DataShape.HISTOGRAM);
            assertThat(c.relation()).isEqualTo(NeighbouringRelation.REPLACE_ONE);
            assertThat(m.from()).isBetween(0, facts.cols() - 1);
            assertThat(m.to()).isBetween(0, facts.cols() - 1);
            double[] x = ((InMemoryData) randomHistogram(random, N - 1)).histogram();
            x[m.from()]++; // the base has the record that moves
            double[] y = x.clone();
            y[m.from()]--;
            y[m.to()]++;
            return new DataAccess[] {InMemoryData.histogram(x), InMemoryData.histogram(y)};
        }
        assertThat(c.shape()).isIn(DataShape.MATRIX, DataShape.STREAM);
        double[][] x = ((InMemoryData) randomMatrix(random, N)).matrixRows();
        if (change instanceof NeighbouringChange.AddedRow a) {
            assertThat(c.relation()).isEqualTo(NeighbouringRelation.ADD_REMOVE);
            assertRow(a.row(), facts);
            double[][] withRow = java.util.Arrays.copyOf(x, N + 1);
            withRow[N] = a.row();
            return new DataAccess[] {InMemoryData.matrix(x), InMemoryData.matrix(withRow)};
        }
        NeighbouringChange.ReplacedRow r = (NeighbouringChange.ReplacedRow) change;
        assertThat(c.relation()).isEqualTo(NeighbouringRelation.REPLACE_ONE);
        assertRow(r.before(), facts);
        assertRow(r.after(), facts);
        int i = random.nextInt(N);
        double[][] y = x.clone();
        x[i] = r.before();
        y[i] = r.after();
        return new DataAccess[] {InMemoryData.matrix(x), InMemoryData.matrix(y)};
    }

    /** A valid user: at most s distinct items in [0, n), ascending, ratings in range. */
    static void assertUser(int[] items, double[] ratings, RatingsDomain domain) {
        assertThat(items).hasSameSizeAs(ratings).isSorted().doesNotHaveDuplicates();
        assertThat(items.length).isBetween(1, domain.perUserCap());
        for (int k = 0; k < items.length; k++) {
            assertThat(items[k]).isBetween(0, domain.items() - 1);
            assertThat(ratings[k]).isBetween(domain.lo(), domain.hi());
        }
    }

    static void assertRow(double[] row, PublicFacts facts) {
        assertThat(row).hasSize(facts.cols());
        assertThat(Math.sqrt(java.util.Arrays.stream(row).map(v -> v * v).sum()))
                .isLessThanOrEqualTo(facts.rowNormBound() * (1 + 1e-12));
    }

    /** A histogram of {@code records} records in random cells of {@link #DOMAIN}. */
    static DataAccess randomHistogram(SplittableRandom random, int records) {
        double[] x = new double[DOMAIN.cells()];
        for (int i = 0; i < records; i++) {
            x[random.nextInt(x.length)]++;
        }
        return InMemoryData.histogram(x);
    }

    /**
     * A random histogram and a neighbour: a record added (ADD_REMOVE) or moved between cells
     * (REPLACE_ONE).
     */
    static DataAccess[] histogramPair(NeighbouringRelation relation, SplittableRandom random) {
        double[] x = ((InMemoryData) randomHistogram(random, N)).histogram();
        double[] y = x.clone();
        int to = random.nextInt(x.length);
        if (relation == NeighbouringRelation.REPLACE_ONE) {
            int from;
            do {
                from = random.nextInt(x.length);
            } while (x[from] == 0);
            y[from]--;
        }
        y[to]++;
        return new DataAccess[] {InMemoryData.histogram(x), InMemoryData.histogram(y)};
    }

    /** A test dataset of the case's shape (trial seeds the neighbouring pairs). */
    static DataAccess data(Case c, int cols, SplittableRandom random, int trial) {
        return c.shape() == DataShape.GRAPH ? graphPair(cols, random, trial)[0]
                : c.shape() == DataShape.HISTOGRAM ? histogramPair(c.relation(), random)[0]
                : c.shape() == DataShape.RATINGS ? ratingsPair(c, random, trial)[0]
                : matrixPair(c.relation(), random, trial)[0];
    }

    static DataAccess randomMatrix(SplittableRandom random, int rows) {
        double[][] x = new double[rows][];
        for (int i = 0; i < rows; i++) {
            x[i] = randomRow(random, random.nextDouble() * B);
        }
        return InMemoryData.matrix(x);
    }

    /** The largest movement of the mechanism's statistic over 60 neighbouring pairs (fixed seed). */
    static double worstMovement(Case c, Plan plan) {
        PublicFacts facts = plan.spec().facts();
        Params params = plan.spec().params();
        String norm = declared(c, plan).norm();
        SplittableRandom random = new SplittableRandom(14);
        double worst = 0;
        for (int trial = 0; trial < 60; trial++) {
            DataAccess[] pair = c.shape() == DataShape.GRAPH ? graphPair(facts.cols(), random, trial)
                    : c.shape() == DataShape.HISTOGRAM ? histogramPair(c.relation(), random)
                    : c.shape() == DataShape.RATINGS ? ratingsPair(c, random, trial)
                    : matrixPair(c.relation(), random, trial);
            double[] x = c.mechanism().statistic(c.kind(), params, facts, pair[0]);
            double[] y = c.mechanism().statistic(c.kind(), params, facts, pair[1]);
            worst = Math.max(worst, distance(norm, x, y));
        }
        return worst;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void seededReleaseIsReproducibleAndHasItsKindsShape(Case c) {
        Plan plan = plan(c, 1);
        DataAccess data = data(c, plan.spec().facts().cols(), new SplittableRandom(3), 1);
        Release first = plan.release(data, seeded(7));
        Release second = plan.release(data, seeded(7));
        assertArrayEquals(values(first), values(second), 0.0, c + ": same seed, same release");
        int d = plan.spec().facts().cols();
        switch (c.kind()) {
            case COLUMN_SUMS -> assertThat(((Release.Vector) first).values()).hasSize(d);
            case COVARIANCE -> assertThat(((Release.Covariance) first).result().covariance()).hasSize(d * d);
            case PCA -> {
                CovarianceRelease r = ((Release.Covariance) first).result();
                assertThat(r.k()).isEqualTo(1);
                assertThat(r.components()).hasSize(d);
            }
            case LOW_RANK, TOP_SINGULAR_VECTORS -> {
                Release.Factors f = (Release.Factors) first;
                Factorization fz = f.factorization();
                assertThat(fz.v()).hasSize(d * fz.k());
                assertThat(f.leftFactor()).isEqualTo(c.kind() == QueryKind.LOW_RANK);
                if (f.leftFactor()) {
                    assertThat(fz.u()).hasSize(N * fz.k());
                }
            }
            case REGRESSION -> {
                Release.Regression g = (Release.Regression) first;
                assertThat(g.result().estimate()).hasSize(d - 1);
                assertThat(g.result().lower()).hasSize(d - 1);
            }
            case SKETCH -> {
                Release.Sketch s = (Release.Sketch) first;
                assertThat(s.values()).hasSize(s.rows() * s.cols());
                assertThat(s.graph()).isEqualTo(c.shape() == DataShape.GRAPH);
            }
            case LINEAR_QUERIES -> {
                LinearQueriesRelease l = (LinearQueriesRelease) first;
                int m = plan.noise().get(NoiseFacts.QUERIES);
                assertThat(l.result().answers()).hasSize(m);
                assertThat(l.result().standardDeviations()).hasSize(m);
                if (l.result().estimate() != null) {
                    assertThat(l.result().estimate().values()).hasSize(d);
                }
            }
            case COMPLETION -> {
                var model = ((CompletionRelease) first).model();
                assertThat(model.domain()).isEqualTo(plan.spec().facts().ratings().domain());
                assertThat(model.predict(new int[] {0}, new double[] {2})).hasSize(d);
            }
        }
    }

    /**
     * What a release carries besides the private values is declared: factorisation facts and release
     * metadata are of their vocabularies ({@link FactorizationFacts}, {@link ReleaseMeta}, …; typed by
     * construction) with finite numbers, for
     * the example parameters and for each variant that sets a boolean parameter or picks another enum
     * value (the noise facts are checked when the plan is made).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void releaseFactsAreDeclared(Case c) {
        Plan example = plan(c, 1);
        PublicFacts facts = example.spec().facts();
        DataAccess data = data(c, facts.cols(), new SplittableRandom(4), 1);
        List<Map<String, Object>> variants = new ArrayList<>(List.of(params(c)));
        for (Param p : c.mechanism().params()) {
            if (p.type() == Param.Type.BOOLEAN) {
                variants.add(with(params(c), p.name(), true));
            }
            for (String value : p.values()) {
                variants.add(with(params(c), p.name(), value));
            }
        }
        int checked = 0;
        for (Map<String, Object> variant : variants) {
            Plan plan;
            try {
                plan = MechanismCatalog.standard().plan(c.kind().name(), c.mechanism().name(),
                        budget(c.mechanism(), c.shape(), 1), RequestParams.of(variant), facts);
            } catch (PlanningException e) {
                continue; // a variant this case does not admit (e.g. center under ADD_REMOVE)
            }
            Release r = plan.release(data, seeded(9));
            if (r instanceof Release.Factors f) {
                FactorizationFacts.VOCABULARY.check(f.factorization().facts());
            } else if (r instanceof Release.Sketch sk) {
                ReleaseMeta.VOCABULARY.check(sk.meta());
            } else if (r instanceof Release.Covariance cov) {
                ReleaseMeta.VOCABULARY.check(cov.storableMeta());
            } else if (r instanceof LinearQueriesRelease l) {
                ReleaseMeta.VOCABULARY.check(l.estimateMeta());
            } else if (r instanceof CompletionRelease m) {
                CompletionFacts.VOCABULARY.check(CompletionModels.facts(m.model()));
            } else if (r instanceof Release.Regression g) {
                RegressionFacts.VOCABULARY.check(g.facts());
            }
            checked++;
        }
        assertThat(checked).as("%s: the example parameters plan", c).isPositive();
    }

    /** The input a plan reads is the one its mechanism declares for the dataset's shape. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void planReadsTheDeclaredInput(Case c) {
        Input declared = c.mechanism().input(c.shape());
        Input read = plan(c, 1).input();
        if (declared == Input.GRAM_OR_ROW_STREAM) {
            assertThat(read).isIn(Input.GRAM, Input.ROW_STREAM);
        } else {
            assertThat(read).isEqualTo(declared);
        }
    }

    /**
     * The noise is calibrated to no less than the declared sensitivity: a Gaussian loss as run carries
     * its (grid-inflated) sensitivity, and a noise fact naming the declared norm's sensitivity must be
     * at least the declared value.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void noiseIsCalibratedToAtLeastTheDeclaredSensitivity(Case c) {
        Plan plan = plan(c, 1);
        Sensitivity declared = declared(c, plan);
        if (plan.mechanismLoss() instanceof io.privmat.privacy.GaussianLoss g) {
            assertThat(g.l2Sensitivity()).as("%s: Gaussian loss sensitivity", c)
                    .isGreaterThanOrEqualTo(declared.value() * (1 - 1e-12));
        }
        Fact<Double> key = switch (declared.norm()) {
            case "L1" -> NoiseFacts.L1_SENSITIVITY;
            case "L2" -> NoiseFacts.L2_SENSITIVITY;
            case "Frobenius" -> NoiseFacts.FROBENIUS_SENSITIVITY;
            default -> NoiseFacts.SPECTRAL_SENSITIVITY;
        };
        Double stated = plan.noise().find(key);
        if (stated != null) {
            assertThat(stated).as("%s: noise fact %s", c, key)
                    .isGreaterThanOrEqualTo(declared.value() * (1 - 1e-12));
        }
    }

    static Map<String, Object> with(Map<String, Object> params, String name, Object value) {
        Map<String, Object> out = new java.util.LinkedHashMap<>(params);
        out.put(name, value);
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void privacyMapIsMonotone(Case c) {
        Plan smallPlan = plan(c, 0.5);
        AccountingMode mode = smallPlan.spec().facts().mode();
        BudgetFilter filter = io.privmat.privacy.Budget.of(BigDecimal.TEN,
                mode == AccountingMode.PURE ? BigDecimal.ZERO : new BigDecimal("0.001"), mode).filter();
        Tracks small = filter.cost(smallPlan.chargedLoss());
        Tracks large = filter.cost(plan(c, 1).chargedLoss());
        assertThat(large.rho()).isGreaterThanOrEqualTo(small.rho());
        assertThat(large.epsilon()).isGreaterThanOrEqualTo(small.epsilon());
        assertThat(large.delta()).isGreaterThanOrEqualTo(small.delta());
        assertThat(large.isZero()).isFalse();
        assertThat(large.equals(small)).as("a larger budget costs more").isFalse();
    }

    // ---- neighbouring pairs ----

    /** A random dataset of N rows of norm ≤ B and a neighbour; every third pair is adversarial. */
    static DataAccess[] matrixPair(NeighbouringRelation relation, SplittableRandom random, int trial) {
        double[][] x = new double[N][];
        for (int i = 0; i < N; i++) {
            x[i] = randomRow(random, random.nextDouble() * B);
        }
        boolean adversarial = trial % 3 == 0;
        double[] extra = adversarial ? axis(trial % D, B) : randomRow(random, B);
        if (relation == NeighbouringRelation.ADD_REMOVE) {
            double[][] withRow = java.util.Arrays.copyOf(x, N + 1);
            withRow[N] = extra;
            return new DataAccess[] {InMemoryData.matrix(x), InMemoryData.matrix(withRow)};
        }
        double[][] y = x.clone();
        int i = random.nextInt(N);
        // Adversarial: a row at the bound against its negation.
        x[i] = adversarial ? extra : x[i];
        y[i] = adversarial ? scale(extra, -1) : extra;
        return new DataAccess[] {InMemoryData.matrix(x), InMemoryData.matrix(y)};
    }

    /** A random graph and the same graph with one more edge (weight 1 when adversarial). */
    static DataAccess[] graphPair(int n, SplittableRandom random, int trial) {
        List<double[]> edges = new ArrayList<>();
        for (int e = 0; e < 3 * n / 2; e++) {
            int u = random.nextInt(n);
            int v = random.nextInt(n);
            if (u != v) {
                edges.add(new double[] {u, v, random.nextDouble()});
            }
        }
        List<double[]> more = new ArrayList<>(edges);
        more.add(new double[] {0, n - 1, trial % 3 == 0 ? 1.0 : random.nextDouble()});
        return new DataAccess[] {InMemoryData.graph(edges), InMemoryData.graph(more)};
    }

    static double[] randomRow(SplittableRandom random, double norm) {
        double[] r = new double[D];
        double s = 0;
        for (int j = 0; j < D; j++) {
            r[j] = random.nextGaussian();
            s += r[j] * r[j];
        }
        return scale(r, norm / Math.sqrt(s));
    }

    static double[] axis(int j, double norm) {
        double[] r = new double[D];
        r[j] = norm;
        return r;
    }

    static double[] scale(double[] r, double f) {
        double[] out = r.clone();
        for (int j = 0; j < out.length; j++) {
            out[j] *= f;
        }
        return out;
    }

    // ---- norms and values ----

    static double distance(String norm, double[] x, double[] y) {
        double[] diff = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            diff[i] = x[i] - y[i];
        }
        return switch (norm) {
            case "L1" -> java.util.Arrays.stream(diff).map(Math::abs).sum();
            case "L2", "Frobenius" -> Math.sqrt(java.util.Arrays.stream(diff).map(v -> v * v).sum());
            case "Spectral" -> spectral(diff, (int) Math.round(Math.sqrt(diff.length)));
            default -> throw new IllegalArgumentException(norm);
        };
    }

    /** Largest |eigenvalue| of a symmetric matrix, by power iteration on its square. */
    static double spectral(double[] a, int d) {
        double[] v = new double[d];
        java.util.Arrays.fill(v, 1 / Math.sqrt(d));
        v[0] += 0.1;
        double lambda = 0;
        for (int it = 0; it < 500; it++) {
            double[] w = new double[d];
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    w[i] += a[i * d + j] * v[j];
                }
            }
            double norm = Math.sqrt(java.util.Arrays.stream(w).map(t -> t * t).sum());
            if (norm == 0) {
                return 0;
            }
            lambda = norm;
            for (int i = 0; i < d; i++) {
                v[i] = w[i] / norm;
            }
        }
        return lambda;
    }

    static double[] values(Release r) {
        if (r instanceof Release.Vector v) {
            return v.values();
        }
        if (r instanceof Release.Covariance c) {
            CovarianceRelease cr = c.result();
            return concat(cr.eigenvalues(), cr.components(), cr.covariance() == null ? new double[0] : cr.covariance());
        }
        if (r instanceof Release.Factors f) {
            Factorization fz = f.factorization();
            return concat(fz.s(), fz.v(), fz.u() == null ? new double[0] : fz.u());
        }
        if (r instanceof Release.Regression g) {
            return concat(g.result().estimate(), g.result().lower(), g.result().upper());
        }
        if (r instanceof LinearQueriesRelease l) {
            return concat(l.result().answers(), l.result().estimate() == null ? new double[0]
                    : l.result().estimate().values());
        }
        if (r instanceof CompletionRelease m) {
            return CompletionModels.values(m.model());
        }
        return ((Release.Sketch) r).values();
    }

    static double[] concat(double[]... parts) {
        return java.util.Arrays.stream(parts).flatMapToDouble(java.util.Arrays::stream).toArray();
    }

    static NoiseSource seeded(long seed) {
        return TestNoiseSources.seeded(seed);
    }
}
