package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.Limits;
import io.privmat.mechanism.catalog.LowRanks;
import io.privmat.mechanism.catalog.NeighbouringChange;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.Param;
import io.privmat.mechanism.catalog.Params;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PrivacyMap;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.Sensitivity;
import io.privmat.mechanism.catalog.SignalToNoise;
import java.util.EnumSet;
import java.util.List;

/**
 * PRIVATE_OJA (Jain–Thakkar–Thakurta style private Oja on XᵀX): Γ noisy steps v ← v + η(C·v + g),
 * Δ = B² per step under both relations, composed as μ-GDP; the top singular vector (k = 1).
 * docs/mechanisms/low-rank.md.
 */
public final class PrivateOja extends Described {

    public PrivateOja() {
        super("PRIVATE_OJA", "Private Oja iterations for the top singular vector (k = 1).",
                EnumSet.of(QueryKind.TOP_SINGULAR_VECTORS), MATRIX, BOTH, QueryBudget.Form.GAUSSIAN, QueryBudget.MAX_EPSILON,
                Input.GRAM_OR_ROW_STREAM, List.of(Param.integer("k", 1, 1, 1, "the rank: 1 only (the default)"),
                        Param.integer("iterations", 1, 1000, 30, "Oja steps (each one pass when d > 5000)"),
                        Param.number("stepSize", Double.MIN_NORMAL, 1e12, null, "the public step size η (default 1/B²)")));
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        double b = facts.rowNormBound();
        return new Sensitivity("XᵀX·v (unit v)", "L2", b * b, "‖ΔC·v‖ ≤ ‖ΔC‖₂ ≤ B² for a unit v");
    }

    @Override
    public RequestParams exampleParams(QueryKind kind) {
        return RequestParams.of("k", 1);
    }

    /** Rows along v = e₁ (the statistic's public unit vector): ‖ΔC·e₁‖ = B². */
    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        return orthogonalRows(facts);
    }

    @Override
    public double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data) {
        return LowRanks.gramTimesBasis(data, facts.cols(), 1);
    }

    /**
     * The L Gaussian steps composed ({@link PrivacyMap#compose(int, PrivacyMap)}: ρ's add), calibrated
     * together to the budget's (ε, δ) when it is one (Gaussian-DP composition: each step μ* / √L).
     */
    public static PrivacyMap privacy(PrivateOjaMechanism oja, QueryBudget budget) {
        return PrivacyMap.compose(oja.iterations(), PrivacyMap.of(oja.stepLoss())).calibratedTo(budget);
    }

    @Override
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
        int d = facts.cols();
        Limits.requireK(params, 1, kind.name());
        int iterations = params.integer("iterations");
        double b = facts.rowNormBound();
        Double given = params.optionalNumber("stepSize");
        double stepSize = given != null ? given : 1 / (b * b);
        PrivateOjaMechanism oja = budget.isRho()
                ? PrivateOjaMechanism.forRho(d, iterations, stepSize, b, budget.rhoDown())
                : PrivateOjaMechanism.forApproxDp(d, iterations, stepSize, b, budget.epsilonDown(), budget.deltaDown());
        Facts.Builder noise = LowRanks.noise("discrete Gaussian d-vector per step, on a grid");
        noise.put(NoiseFacts.L2_SENSITIVITY, b * b);
        noise.put(NoiseFacts.ITERATIONS, iterations);
        noise.put(NoiseFacts.STEP_SIZE, stepSize);
        boolean streamed = d > Limits.MAX_GRAM_DIMENSION;
        return new Plan(spec(kind, budget, params, facts), privacy(oja, budget), noise,
                streamed ? Input.ROW_STREAM : Input.GRAM, (data, random) -> LowRanks.factors(streamed
                        ? oja.release(data.gramOperator(d, iterations), random)
                        : oja.release(data.gram(false).gram(), random), kind));
    }

    private static ErrorStatement statement(Plan plan, double level) {
        PublicFacts facts = plan.spec().facts();
        QueryBudget budget = plan.spec().budget();
        int iterations = plan.noise().get(NoiseFacts.ITERATIONS);
        double stepSize = plan.noise().get(NoiseFacts.STEP_SIZE);
        double b = facts.rowNormBound();
        PrivateOjaMechanism oja = budget.isRho()
                ? PrivateOjaMechanism.forRho(facts.cols(), iterations, stepSize, b, budget.rhoDown())
                : PrivateOjaMechanism.forApproxDp(facts.cols(), iterations, stepSize, b, budget.epsilonDown(),
                        budget.deltaDown());
        return LowRankAccuracy.oja(oja.sigma(), facts.cols(), iterations, level);
    }

    /** The noise of every step at once ({@link LowRankAccuracy}); the subspace error is measured in the docs. */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        return List.of(statement(plan, ResultAccuracy.DEFAULT_LEVEL));
    }

    /**
     * The released s = √‖C·v + g‖ of the last step against the bound on every step's noise norm ‖g‖:
     * s² not above it cannot be told from a pure-noise step (docs/accuracy/warnings.md).
     */
    @Override
    public List<NoiseWarning> warnings(Plan plan, Release release, ResultAccuracy accuracy) {
        return SignalToNoise.spectrum("singularValues", ((Release.Factors) release).factorization().s(),
                Math.sqrt(statement(plan, accuracy.level()).value()), accuracy.level());
    }

    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        return new ResultAccuracy(level, List.of(), List.of(statement(plan, level)), "a bound on the noise only: "
                + "private Oja has no data-free subspace bound; docs/accuracy/intervals.md gives its measured error");
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            NoiseFacts.STEP_SIZE.note("PRIVATE_OJA: the public step size η"),
            FactorizationFacts.NOISE_NORM_BOUND95.note("PRIVATE_OJA: norm of one step's noise vector, bound "
                    + "holding with probability ≥ 0.95"),
            FactorizationFacts.STEP_SIZE.note("PRIVATE_OJA: the step size η"),
            FactorizationFacts.SINGULAR_VALUE.note("PRIVATE_OJA: how the singular value was estimated"));
    }
}
