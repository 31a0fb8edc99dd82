package io.privmat.mechanism.sums;

import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.GaussianVectorMechanism;
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
import java.util.EnumSet;
import java.util.List;

/**
 * GAUSSIAN column sums: Σᵢ xᵢ plus discrete Gaussian noise on a grid (docs/mechanisms/catalogue.md).
 * L2 sensitivity B (ADD_REMOVE) or 2B (REPLACE_ONE), {@link Sensitivities#columnSumsL2}; loss exactly
 * ρ = Δ′²/2σ² with the grid-inflated Δ′; calibrated to ρ or, analytically, to (ε, δ).
 */
public final class GaussianColumnSums extends Described {

    public GaussianColumnSums() {
        super("GAUSSIAN", "Column sums plus discrete Gaussian noise (rho-zCDP, or (epsilon, delta) by analytic "
                + "calibration).", EnumSet.of(QueryKind.COLUMN_SUMS), MATRIX, BOTH, QueryBudget.Form.GAUSSIAN,
                QueryBudget.MAX_EPSILON, Input.COLUMN_SUMS, List.of());
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return new Sensitivity("Σᵢ xᵢ", "L2", Sensitivities.columnSumsL2(facts.rowNormBound(), facts.relation()),
                "one row of norm ≤ B added/removed moves the sum by ≤ B; replaced, by ≤ 2B");
    }


    @Override
    public RequestParams exampleParams(QueryKind kind) {
        return RequestParams.empty();
    }

    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        return rowAgainstNegation(facts, axis(facts, 0));
    }

    @Override
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
        double sensitivity = sensitivity(kind, params, facts).value();
        int d = facts.cols();
        GaussianVectorMechanism m = budget.isRho() ? GaussianVectorMechanism.forRho(sensitivity, budget.rhoDown(), d)
                : GaussianVectorMechanism.forApproxDp(sensitivity, budget.epsilonDown(), budget.deltaDown(), d);
        Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
        noise.put(NoiseFacts.DISTRIBUTION, "discrete Gaussian on a grid");
        noise.put(NoiseFacts.SIGMA, m.sigma());
        noise.put(NoiseFacts.GRANULARITY, m.granularity());
        noise.put(NoiseFacts.L2_SENSITIVITY, sensitivity);
        PrivacyMap privacy = PrivacyMap.calibrated(m.privacyLoss(), budget);
        return new Plan(spec(kind, budget, params, facts), privacy, noise, Input.COLUMN_SUMS,
                (data, random) -> new Release.Vector(m.release(data.columnSums(), random)));
    }

    /**
     * Per entry: RMSE σ (exact: the discrete Gaussian's variance is at most σ²) and the 95% half-width
     * z·σ + g/2 ({@link Accuracies#gaussianHalfWidth}).
     */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        double sigma = plan.noise().get(NoiseFacts.SIGMA);
        double g = plan.noise().get(NoiseFacts.GRANULARITY);
        return List.of(new ErrorStatement("columnSums", "rmsePerEntry", sigma, null, ErrorBasis.EXACT,
                        "Gaussian noise of standard deviation σ on each sum"),
                new ErrorStatement("columnSums", "absPerEntry", Accuracies.gaussianHalfWidth(sigma, g,
                        ResultAccuracy.DEFAULT_LEVEL), ResultAccuracy.DEFAULT_LEVEL, ErrorBasis.EXACT,
                        "z_{α/2}·σ + g/2 (Gaussian quantile plus the grid rounding)"));
    }

    /** Each released sum ± z_{α/2}·σ + g/2; sums may be negative, so no clamp. */
    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        double half = Accuracies.gaussianHalfWidth(plan.noise().get(NoiseFacts.SIGMA),
                plan.noise().get(NoiseFacts.GRANULARITY), level);
        return new ResultAccuracy(level, List.of(IntervalSet.symmetric("columnSums", ErrorBasis.EXACT, level,
                ((Release.Vector) release).values(), half)), List.of(), "each interval holds on its own at the level; "
                + "all d at once hold with probability ≥ 1 − d·(1 − level)");
    }
}
