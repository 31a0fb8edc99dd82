package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linear.LinearQueriesRelease;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.AccountingMode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The inverse quote (docs/accuracy/inverse-quote.md): the budget it returns is the smallest (one unit
 * less in its last digit misses the target) and, used in real releases, meets the target at the
 * stated level — a seeded Monte Carlo over {@value #RUNS} releases per case: an EXACT statement
 * covers at a rate consistent with its level (|z| ≤ {@value IntervalCoverageTest#Z}), a BOUND at least
 * that, an RMS target within the binomial-free tolerance of a χ² mean.
 */
class InverseQuoteTest {

    static final int RUNS = 1000;
    static final MechanismCatalog CATALOG = MechanismCatalog.standard();

    static PublicFacts matrix(int d, long n, AccountingMode mode) {
        return new PublicFacts(DataShape.MATRIX, d, n, 1.0, NeighbouringRelation.REPLACE_ONE, mode);
    }

    static InverseQuote.Answer smallest(String kind, String mechanism, BigDecimal delta, Map<String, ?> params,
            PublicFacts facts, InverseQuote.Target target) {
        return InverseQuote.smallest(CATALOG, kind, mechanism, delta, RequestParams.of(params), facts, PublicArtifacts.inline(), target);
    }

    /** The budget one unit less in its last significant digit, as the request field. */
    static QueryBudget justBelow(InverseQuote.Answer a) {
        QueryBudget b = a.budget();
        BigDecimal v = a.searched() == InverseQuote.Searched.RHO ? b.rho() : b.epsilon();
        BigDecimal less = v.subtract(v.ulp());
        return a.searched() == InverseQuote.Searched.RHO ? new QueryBudget(null, null, less)
                : new QueryBudget(less, b.delta(), null);
    }

    static double stated(Plan plan, InverseQuote.Target t) {
        return CATALOG.expectedError(plan).stream().filter(t::matches).findFirst().orElseThrow().value();
    }

    /** Smallest: the statement at the budget meets the target, one unit below it does not. */
    static void smallestMeets(InverseQuote.Answer a, InverseQuote.Target t, String kind, Map<String, ?> params,
            PublicFacts facts) {
        assertThat(a.reachable()).as(a.unreachable()).isTrue();
        assertThat(a.achieved().value()).isLessThanOrEqualTo(t.value());
        Plan below = CATALOG.plan(kind, a.mechanism(), justBelow(a), RequestParams.of(params), facts);
        assertThat(stated(below, t)).as("one unit below " + a.budget()).isGreaterThan(t.value());
    }

    /** Fraction of trials covered, checked as IntervalCoverageTest does (EXACT two-sided, BOUND one-sided). */
    static void covers(int covered, int trials, double level, ErrorBasis basis, String what) {
        double rate = (double) covered / trials;
        double z = (rate - level) / Math.sqrt(level * (1 - level) / trials);
        System.out.printf("| %s | %s | %.3f | %d |%n", what, basis, rate, trials);
        if (basis == ErrorBasis.EXACT) {
            assertThat(Math.abs(z)).as(what + " rate " + rate).isLessThanOrEqualTo(IntervalCoverageTest.Z);
        } else {
            assertThat(z).as(what + " rate " + rate).isGreaterThanOrEqualTo(-IntervalCoverageTest.Z);
        }
    }

    /**
     * GAUSSIAN column sums, ±10 per entry at 95% (EXACT): ρ searched on a ZCDP dataset, then ε at
     * δ = 10⁻⁶ on a BASIC one; LAPLACE (pure ε, EXACT quantile). Each entry of each release is within
     * 10 of the truth at the stated rate.
     */
    @Test
    void columnSumsMeetTheTargetAtItsLevel() {
        InMemoryData data = InMemoryData.matrix(IntervalCoverageTest.matrix(50, 5, 1));
        double[] truth = data.columnSums();
        InverseQuote.Target t = new InverseQuote.Target("columnSums", "absPerEntry", 0.95, 10);
        record Case(String mechanism, BigDecimal delta, AccountingMode mode, InverseQuote.Searched searched) {}
        long seed = 100;
        for (Case c : List.of(new Case("GAUSSIAN", null, AccountingMode.ZCDP, InverseQuote.Searched.RHO),
                new Case("GAUSSIAN", new BigDecimal("1e-6"), AccountingMode.BASIC, InverseQuote.Searched.EPSILON),
                new Case("LAPLACE", null, AccountingMode.PURE, InverseQuote.Searched.EPSILON))) {
            PublicFacts facts = matrix(5, 50, c.mode());
            InverseQuote.Answer a = smallest("COLUMN_SUMS", c.mechanism(), c.delta(), Map.of(), facts, t);
            assertThat(a.searched()).isEqualTo(c.searched());
            smallestMeets(a, t, "COLUMN_SUMS", Map.of(), facts);
            int covered = 0;
            for (int run = 0; run < RUNS; run++) {
                double[] sums = ((Release.Vector) a.plan().release(data, TestNoiseSources.seeded(seed++))).values();
                for (int j = 0; j < sums.length; j++) {
                    covered += Math.abs(sums[j] - truth[j]) <= t.value() ? 1 : 0;
                }
            }
            covers(covered, RUNS * truth.length, 0.95, a.achieved().basis(), c.mechanism() + " " + a.budget());
        }
    }

    /**
     * ANALYZE_GAUSS PCA, every eigenvalue within 40 at 95% (a BOUND: Weyl with a Davidson–Szarek
     * tail): the found ρ's releases have all their eigenvalues within 40 in at least 95% of runs.
     */
    @Test
    void eigenvaluesMeetABoundTarget() {
        int d = 6;
        InMemoryData data = InMemoryData.matrix(IntervalCoverageTest.matrix(200, d, 3));
        double[] truth = LinearAlgebra.eigen(data.gram(false).gram(), d).values();
        PublicFacts facts = matrix(d, 200, AccountingMode.ZCDP);
        Map<String, Object> params = Map.of("k", d);
        InverseQuote.Target t = new InverseQuote.Target("eigenvalues", "absPerEigenvalue", 0.95, 40);
        InverseQuote.Answer a = smallest("PCA", "ANALYZE_GAUSS", null, params, facts, t);
        smallestMeets(a, t, "PCA", params, facts);
        assertThat(a.achieved().basis()).isEqualTo(ErrorBasis.BOUND);
        int covered = 0;
        for (int run = 0; run < RUNS; run++) {
            double[] ev = ((Release.Covariance) a.plan().release(data, TestNoiseSources.seeded(500 + run))).result()
                    .eigenvalues();
            double worst = 0;
            for (int i = 0; i < d; i++) {
                worst = Math.max(worst, Math.abs(ev[i] - truth[i]));
            }
            covered += worst <= t.value() ? 1 : 0;
        }
        covers(covered, RUNS, 0.95, ErrorBasis.BOUND, "ANALYZE_GAUSS eigenvalues " + a.budget());
    }

    /**
     * LINEAR_QUERIES, a root-mean-square target (no level): GAUSSIAN_IDENTITY on 16 cells, RMSE per
     * query ≤ 5 (EXACT). The mean squared error over the runs is within 5% of 25 or below it (the
     * sample mean of 16 000 squared Gaussians has a relative sd of about 1.1%).
     */
    @Test
    void rootMeanSquareTarget() {
        HistogramDomain domain = new HistogramDomain(List.of("a"), List.of(16));
        PublicFacts facts = new PublicFacts(DataShape.HISTOGRAM, 16, 1600L, 1.0, NeighbouringRelation.REPLACE_ONE,
                AccountingMode.ZCDP, domain);
        Map<String, Object> params = Map.of("workload", Map.of("type", "IDENTITY"));
        InverseQuote.Target t = new InverseQuote.Target(null, "rmsePerQuery", null, 5);
        InverseQuote.Answer a = smallest("LINEAR_QUERIES", "GAUSSIAN_IDENTITY", null, params, facts, t);
        smallestMeets(a, t, "LINEAR_QUERIES", params, facts);
        double[] counts = new double[16];
        java.util.Arrays.fill(counts, 100);
        InMemoryData data = InMemoryData.histogram(counts);
        double squares = 0;
        for (int run = 0; run < RUNS; run++) {
            double[] answers = ((LinearQueriesRelease) a.plan().release(data, TestNoiseSources.seeded(900 + run)))
                    .result().answers();
            for (double x : answers) {
                squares += (x - 100) * (x - 100);
            }
        }
        double mse = squares / (RUNS * 16.0);
        System.out.printf("| GAUSSIAN_IDENTITY rmsePerQuery %s | %.3f |%n", a.budget(), Math.sqrt(mse));
        assertThat(mse).isLessThanOrEqualTo(25 * 1.05).isGreaterThan(25 * 0.9);
    }

    /** Gaussian noise's half-width is z·σ + g/2 with σ = Δ/√(2ρ): the search agrees with the closed form. */
    @Test
    void exactWhereTheErrorIsExact() {
        PublicFacts facts = matrix(5, 50, AccountingMode.ZCDP);
        InverseQuote.Target t = new InverseQuote.Target("columnSums", "rmsePerEntry", null, 4);
        InverseQuote.Answer a = smallest("COLUMN_SUMS", "GAUSSIAN", null, Map.of(), facts, t);
        // σ ≤ 4 with Δ = 2 (REPLACE_ONE, B = 1): ρ = Δ²/(2σ²) = 0.125 before the grid's inflation of Δ.
        assertThat(a.budget().rho().doubleValue()).isBetween(0.125, 0.125 * 1.01);
        assertThat(a.budget().rho()).isEqualTo(a.budget().rho().round(new MathContext(InverseQuote.DIGITS,
                RoundingMode.CEILING)));
    }

    /**
     * PRIVATE_FRANK_WOLFE with its defaults (no nuclearRadius; T from the budget, so the stated noise
     * steps up where T does) and with the paper's schedule (nuclearRadius and T given: monotone): both
     * find a budget whose quote meets a `spectrum` target, and the fixed-T search is the smallest.
     */
    @Test
    void frankWolfeWithOptionalNuclearRadius() {
        PublicFacts facts = RatingsData.facts(NeighbouringRelation.REPLACE_ONE, AccountingMode.ZCDP);
        Map<String, Object> paper = Map.of("schedule", "CONSTANT", "nuclearRadius", 30, "iterations", 3);
        for (Map<String, Object> params : List.of(Map.<String, Object>of(), paper)) {
            Plan atOne = CATALOG.plan("COMPLETION", "PRIVATE_FRANK_WOLFE", new QueryBudget(null, null, BigDecimal.ONE), RequestParams.of(params),
                    facts);
            InverseQuote.Target t = new InverseQuote.Target("spectrum", "noiseNorm", 0.95, stated(atOne,
                    new InverseQuote.Target("spectrum", "noiseNorm", 0.95, 1)));
            InverseQuote.Answer a = smallest("COMPLETION", "PRIVATE_FRANK_WOLFE", null, params, facts, t);
            assertThat(a.reachable()).as(params + ": " + a.unreachable()).isTrue();
            Plan found = CATALOG.plan("COMPLETION", "PRIVATE_FRANK_WOLFE", a.budget(), RequestParams.of(params), facts);
            assertThat(stated(found, t)).as(params + " at " + a.budget()).isLessThanOrEqualTo(t.value());
            if (params == paper) {
                assertThat(a.budget().rho().doubleValue()).isLessThanOrEqualTo(1.0);
                smallestMeets(a, t, "COMPLETION", params, facts);
            }
        }
    }

    @Test
    void unreachableAndUnstatedTargets() {
        PublicFacts facts = matrix(5, 50, AccountingMode.ZCDP);
        InverseQuote.Answer a = smallest("COLUMN_SUMS", "GAUSSIAN", null, Map.of(), facts,
                new InverseQuote.Target("columnSums", "absPerEntry", 0.95, 1e-6));
        assertThat(a.reachable()).isFalse();
        assertThat(a.budget()).isNull();
        assertThat(a.unreachable()).contains("largest budget");
        assertThatThrownBy(() -> smallest("COLUMN_SUMS", "GAUSSIAN", null, Map.of(), facts,
                new InverseQuote.Target("columnSums", "absPerEntry", 0.99, 10)))
                .isInstanceOf(PlanningException.class).hasMessageContaining("states no absPerEntry error")
                .hasMessageContaining("columnSums absPerEntry at level 0.95");
        assertThatThrownBy(() -> smallest("COLUMN_SUMS", "LAPLACE", new BigDecimal("1e-6"), Map.of(), matrix(5, 50,
                AccountingMode.PURE), new InverseQuote.Target("columnSums", "absPerEntry", 0.95, 10)))
                .isInstanceOf(PlanningException.class).hasMessageContaining("pure epsilon-DP");
        assertThatThrownBy(() -> smallest("COLUMN_SUMS", "GAUSSIAN", null, Map.of(), matrix(5, 50,
                AccountingMode.BASIC), new InverseQuote.Target("columnSums", "absPerEntry", 0.95, 10)))
                .isInstanceOf(PlanningException.class).hasMessageContaining("give delta");
        assertThatThrownBy(() -> new InverseQuote.Target(null, "nonsense", 0.95, 1))
                .isInstanceOf(PlanningException.class).hasMessageContaining("target.metric");
    }

    /**
     * Attack 32, F3: a loose target on HARDT_ROTH walks down to budgets too small for its calibration,
     * which throws PrivacyArgumentException; such a budget is refused (like a planning refusal), not
     * the request.
     */
    @Test
    void aBudgetTooSmallForTheCalibrationIsARefusedBudget() {
        PublicFacts facts = matrix(32, 1000, AccountingMode.BASIC);
        InverseQuote.Target t = new InverseQuote.Target(null, "excessFrobeniusNorm", null, 1e7);
        InverseQuote.Answer a = smallest("LOW_RANK", "HARDT_ROTH", new BigDecimal("1e-6"), Map.of("k", 2), facts, t);
        assertThat(a.reachable()).as(a.unreachable()).isTrue();
        assertThat(a.smallest()).isTrue();
        assertThat(a.achieved().value()).isLessThanOrEqualTo(1e7);
        assertThat(a.budget().epsilon().doubleValue()).isPositive().isLessThan(0.03027);
    }

    /**
     * Attack 32, F1: the request's plan limit bounds a search; cut short, the answer is the smallest
     * budget seen to meet the target, marked not smallest.
     */
    @Test
    void aPlanLimitCutsTheSearchShortWithAnHonestAnswer() {
        PublicFacts facts = matrix(5, 50, AccountingMode.ZCDP);
        InverseQuote.Target t = new InverseQuote.Target("columnSums", "rmsePerEntry", null, 4);
        InverseQuote.Answer full = smallest("COLUMN_SUMS", "GAUSSIAN", null, Map.of(), facts, t);
        PlanLimit limit = PlanLimit.of(4, Long.MAX_VALUE / 4);
        InverseQuote.Answer cut = InverseQuote.smallest(CATALOG, "COLUMN_SUMS", "GAUSSIAN", null, RequestParams.empty(), facts,
                PublicArtifacts.inline(), t, limit);
        assertThat(limit.plans()).isEqualTo(4);
        assertThat(limit.exhausted()).isTrue();
        assertThat(cut.smallest()).isFalse();
        assertThat(full.smallest()).isTrue();
        assertThat(cut.achieved().value()).isLessThanOrEqualTo(4);
        assertThat(stated(cut.plan(), t)).isLessThanOrEqualTo(4);
        assertThat(cut.plan().spec().budget().rho()).isEqualTo(cut.budget().rho());
        assertThat(cut.budget().rho()).isGreaterThanOrEqualTo(full.budget().rho());
        // Not even the first plan: the caller is told.
        PlanLimit none = PlanLimit.of(1, 1);
        assertThatThrownBy(() -> InverseQuote.smallest(CATALOG, "COLUMN_SUMS", "GAUSSIAN", null, RequestParams.empty(), facts,
                PublicArtifacts.inline(), t, none)).isInstanceOf(PlanLimit.Exhausted.class);
    }

    /**
     * Attack 32, F5: the rounding up after the bracket is bounded. A statement that (against the
     * contract) misses the target at every budget of 4 significant digits below the maximum used to
     * walk up in 4-digit steps to the maximum (about 94 000 plans here); now it stops after
     * {@link InverseQuote#ROUNDING_STEPS} and answers the bracket's unrounded end, which meets it.
     */
    @Test
    void roundingUpIsBounded() {
        MechanismDefinition gaussian = CATALOG.find("GAUSSIAN").orElseThrow();
        int[] plans = {0};
        MechanismDefinition roundMisses = (MechanismDefinition) java.lang.reflect.Proxy.newProxyInstance(
                MechanismDefinition.class.getClassLoader(), new Class<?>[] {MechanismDefinition.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("plan")) {
                        plans[0]++;
                    }
                    if (method.getName().equals("expectedError") && args.length == 1) {
                        Plan plan = (Plan) args[0];
                        BigDecimal rho = plan.spec().budget().rho();
                        boolean round = rho.compareTo(QueryBudget.MAX_RHO) < 0 && rho.stripTrailingZeros().precision() <= 4;
                        return gaussian.expectedError(plan).stream().map(e -> round ? new ErrorStatement(e.quantity(),
                                e.metric(), e.value() * 10, e.level(), e.basis(), e.derivation()) : e).toList();
                    }
                    try {
                        return method.invoke(gaussian, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        MechanismCatalog catalog = new MechanismCatalog(List.of(roundMisses));
        PublicFacts facts = matrix(5, 50, AccountingMode.ZCDP);
        InverseQuote.Target t = new InverseQuote.Target("columnSums", "rmsePerEntry", null, 4);
        InverseQuote.Answer a = InverseQuote.smallest(catalog, "COLUMN_SUMS", "GAUSSIAN", null, RequestParams.empty(), facts,
                PublicArtifacts.inline(), t);
        // 100/16 = 6.25 is round, so it misses; every budget in (6.25, 100) that is not round meets.
        assertThat(a.budget().rho().doubleValue()).isBetween(6.25, 6.26);
        assertThat(a.achieved().value()).isLessThanOrEqualTo(4);
        assertThat(plans[0]).isLessThanOrEqualTo(2 + 200 + InverseQuote.ROUNDING_STEPS);
    }
}
