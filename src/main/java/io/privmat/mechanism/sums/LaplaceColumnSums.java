package io.privmat.mechanism.sums;

import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.LaplaceVectorMechanism;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.Accuracies;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorBasis;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.IntervalSet;
import io.privmat.mechanism.catalog.NeighbouringChange;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Params;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PrivacyMap;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.Sensitivity;
import io.privmat.privacy.PureDp;
import java.util.EnumSet;
import java.util.List;

/**
 * LAPLACE column sums: Σᵢ xᵢ plus discrete Laplace noise on a grid, pure ε-DP. L1 sensitivity
 * √d·B (ADD_REMOVE) or 2√d·B (REPLACE_ONE), {@link Sensitivities#columnSumsL1}.
 */
public final class LaplaceColumnSums extends Described {

    public LaplaceColumnSums() {
        super("LAPLACE", "Column sums plus discrete Laplace noise (pure epsilon-DP).", EnumSet.of(QueryKind.COLUMN_SUMS),
                MATRIX, BOTH, QueryBudget.Form.PURE_EPSILON, QueryBudget.MAX_EPSILON, Input.COLUMN_SUMS, List.of());
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return new Sensitivity("Σᵢ xᵢ", "L1",
                Sensitivities.columnSumsL1(facts.rowNormBound(), facts.cols(), facts.relation()),
                "‖x‖₁ ≤ √d·‖x‖₂ ≤ √d·B for one row; twice that when a row is replaced");
    }


    @Override
    public RequestParams exampleParams(QueryKind kind) {
        return RequestParams.empty();
    }

    /** A row with equal entries ±B/√d: its L1 norm √d·B meets the Cauchy–Schwarz bound. */
    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        double[] flat = new double[facts.cols()];
        java.util.Arrays.fill(flat, facts.rowNormBound() / Math.sqrt(facts.cols()));
        return rowAgainstNegation(facts, flat);
    }

    @Override
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
        double l1 = sensitivity(kind, params, facts).value();
        LaplaceVectorMechanism m = LaplaceVectorMechanism.of(l1, budget.epsilonDown(), facts.cols());
        Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
        noise.put(NoiseFacts.DISTRIBUTION, "discrete Laplace on a grid");
        noise.put(NoiseFacts.SCALE, m.scale());
        noise.put(NoiseFacts.GRANULARITY, m.granularity());
        noise.put(NoiseFacts.L1_SENSITIVITY, l1);
        return new Plan(spec(kind, budget, params, facts),
                PrivacyMap.of(new PureDp(budget.epsilon())), noise, Input.COLUMN_SUMS,
                (data, random) -> new Release.Vector(m.release(data.columnSums(), random)));
    }

    /** Per entry: the discrete Laplace's exact standard deviation and its exact 95% half-width. */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        double b = plan.noise().get(NoiseFacts.SCALE);
        double g = plan.noise().get(NoiseFacts.GRANULARITY);
        return List.of(new ErrorStatement("columnSums", "rmsePerEntry", Accuracies.laplaceSd(b, g), null,
                        ErrorBasis.EXACT, "discrete Laplace noise of scale b on each sum (≈ √2·b)"),
                new ErrorStatement("columnSums", "absPerEntry", Accuracies.laplaceHalfWidth(b, g,
                        ResultAccuracy.DEFAULT_LEVEL), ResultAccuracy.DEFAULT_LEVEL, ErrorBasis.EXACT,
                        "discrete Laplace quantile (≈ b·ln(1/α)) plus the grid rounding g/2"));
    }

    /** Each released sum ± the discrete Laplace quantile + g/2; no clamp. */
    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        double half = Accuracies.laplaceHalfWidth(plan.noise().get(NoiseFacts.SCALE),
                plan.noise().get(NoiseFacts.GRANULARITY), level);
        return new ResultAccuracy(level, List.of(IntervalSet.symmetric("columnSums", ErrorBasis.EXACT, level,
                ((Release.Vector) release).values(), half)), List.of(), "each interval holds on its own at the level; "
                + "all d at once hold with probability ≥ 1 − d·(1 − level)");
    }
}
