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
 * NOISY_POWER (Hardt–Roth 2013, Hardt–Price 2014): L releases of C·V + G with Δ = B²√k per step
 * (‖ΔC‖₂ ≤ B² under both relations), composed as μ-GDP. Holds XᵀX when d ≤ the Gram limit, else
 * streams Xᵀ(X·V) from the rows once per iteration. docs/mechanisms/low-rank.md.
 */
public final class NoisyPower extends Described {

    public NoisyPower() {
        super("NOISY_POWER", "The noisy power method on XᵀX (Gaussian-DP composition over the iterations).",
                EnumSet.of(QueryKind.TOP_SINGULAR_VECTORS), MATRIX, BOTH, QueryBudget.Form.GAUSSIAN, QueryBudget.MAX_EPSILON,
                Input.GRAM_OR_ROW_STREAM, List.of(LowRanks.kOne(Limits.MAX_K),
                        Param.integer("iterations", 1, 1000, 10, "power iterations (each one pass when d > 5000)")));
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        double b = facts.rowNormBound();
        return new Sensitivity("XᵀX·V (V orthonormal d × k)", "L2", Math.nextUp(b * b * Math.sqrt(params.integer("k"))),
                "‖ΔC·V‖_F ≤ ‖ΔC‖₂·‖V‖_F ≤ B²√k; attained at k = 1 (at k ≥ 2 a rank-one or rank-two ΔC moves it by "
                + "at most √2·B², so the declaration is conservative there)");
    }

    @Override
    public RequestParams exampleParams(QueryKind kind) {
        return RequestParams.of("k", 1);
    }

    /** Rows inside span(V) (V = the first k unit vectors), so that ΔC·V keeps ΔC's norm. */
    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        return orthogonalRows(facts);
    }

    @Override
    public double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data) {
        return LowRanks.gramTimesBasis(data, facts.cols(), params.integer("k"));
    }

    /**
     * The L Gaussian steps composed ({@link PrivacyMap#compose(int, PrivacyMap)}: ρ's add), calibrated
     * together to the budget's (ε, δ) when it is one (Gaussian-DP composition: each step μ* / √L).
     */
    public static PrivacyMap privacy(NoisyPowerMechanism np, QueryBudget budget) {
        return PrivacyMap.compose(np.iterations(), PrivacyMap.of(np.stepLoss())).calibratedTo(budget);
    }

    @Override
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
        int d = facts.cols();
        int k = Limits.requireK(params, Math.min(d, Limits.MAX_K), kind.name());
        Limits.checkFactorSize(d, k);
        int iterations = params.integer("iterations");
        double b = facts.rowNormBound();
        NoisyPowerMechanism np = budget.isRho() ? NoisyPowerMechanism.forRho(d, k, iterations, b, budget.rhoDown())
                : NoisyPowerMechanism.forApproxDp(d, k, iterations, b, budget.epsilonDown(), budget.deltaDown());
        Facts.Builder noise = LowRanks.noise("discrete Gaussian d × k per iteration, on a grid");
        noise.put(NoiseFacts.SIGMA, np.sigma());
        noise.put(NoiseFacts.L2_SENSITIVITY, b * b * Math.sqrt(k));
        noise.put(NoiseFacts.ITERATIONS, iterations);
        boolean streamed = d > Limits.MAX_GRAM_DIMENSION;
        return new Plan(spec(kind, budget, params, facts), privacy(np, budget), noise,
                streamed ? Input.ROW_STREAM : Input.GRAM, (data, random) -> LowRanks.factors(streamed
                        ? np.release(data.gramOperator(d, iterations), random)
                        : np.release(data.gram(false).gram(), random), kind));
    }

    /** Hardt–Price's numerator 5·max‖Gₗ‖₂ ({@link LowRankAccuracy}). */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        return List.of(statement(plan, ResultAccuracy.DEFAULT_LEVEL));
    }

    private static ErrorStatement statement(Plan plan, double level) {
        return LowRankAccuracy.noisyPower(plan.noise().get(NoiseFacts.SIGMA), plan.spec().facts().cols(),
                plan.spec().params().integer("k"), plan.noise().get(NoiseFacts.ITERATIONS), level);
    }

    /**
     * The released s_j = √‖Y_L e_j‖ estimate √λ_j of XᵀX through a product that carries noise of
     * spectral norm at most max‖G_l‖₂ (the stated numerator over 5): s_j² not above it cannot be told
     * from a pure-noise column (docs/accuracy/warnings.md).
     */
    @Override
    public List<NoiseWarning> warnings(Plan plan, Release release, ResultAccuracy accuracy) {
        double stepNoise = statement(plan, accuracy.level()).value() / 5;
        return SignalToNoise.spectrum("singularValues", ((Release.Factors) release).factorization().s(),
                Math.sqrt(stepNoise), accuracy.level());
    }

    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        return new ResultAccuracy(level, List.of(), List.of(statement(plan, level)), "the subspace error is this "
                + "value divided by the (unknown) eigengap λₖ − λₖ₊₁ of XᵀX, once the iterations suffice");
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            FactorizationFacts.L2_SENSITIVITY_PER_ITERATION.note("NOISY_POWER: L2 sensitivity per step (B²√k, "
                    + "grid-inflated)"),
            FactorizationFacts.SINGULAR_VALUES.note("NOISY_POWER: how the singular values were estimated"));
    }
}
