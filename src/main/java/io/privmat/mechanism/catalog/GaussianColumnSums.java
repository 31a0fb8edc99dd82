package io.privmat.mechanism.catalog;

import io.privmat.mechanism.GaussianVectorMechanism;
import io.privmat.mechanism.Sensitivities;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GAUSSIAN column sums: Σᵢ xᵢ plus discrete Gaussian noise on a grid (docs/mechanisms/catalogue.md).
 * L2 sensitivity B (ADD_REMOVE) or 2B (REPLACE_ONE), {@link Sensitivities#columnSumsL2}; loss exactly
 * ρ = Δ′²/2σ² with the grid-inflated Δ′; calibrated to ρ or, analytically, to (ε, δ).
 */
public final class GaussianColumnSums extends Described {

    public GaussianColumnSums() {
        super("GAUSSIAN", "Column sums plus discrete Gaussian noise (rho-zCDP, or (epsilon, delta) by analytic "
                + "calibration).", EnumSet.of(QueryKind.COLUMN_SUMS), MATRIX, BOTH, Budget.Form.GAUSSIAN,
                Budget.MAX_EPSILON, Input.COLUMN_SUMS, List.of());
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return new Sensitivity("Σᵢ xᵢ", "L2", Sensitivities.columnSumsL2(facts.rowNormBound(), facts.relation()),
                "one row of norm ≤ B added/removed moves the sum by ≤ B; replaced, by ≤ 2B");
    }


    @Override
    public Map<String, Object> exampleParams(QueryKind kind) {
        return Map.of();
    }

    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        return rowAgainstNegation(facts, axis(facts, 0));
    }

    @Override
    public Plan plan(QueryKind kind, Budget budget, Params params, PublicFacts facts) {
        double sensitivity = sensitivity(kind, params, facts).value();
        int d = facts.cols();
        GaussianVectorMechanism m = budget.isRho() ? GaussianVectorMechanism.forRho(sensitivity, budget.rhoDown(), d)
                : GaussianVectorMechanism.forApproxDp(sensitivity, budget.epsilonDown(), budget.deltaDown(), d);
        Map<String, Object> noise = new LinkedHashMap<>();
        noise.put("distribution", "discrete Gaussian on a grid");
        noise.put("sigma", m.sigma());
        noise.put("granularity", m.granularity());
        noise.put("l2Sensitivity", sensitivity);
        PrivacyMap privacy = PrivacyMap.calibrated(m.privacyLoss(), budget);
        return new Plan(spec(kind, budget, params, facts), privacy, noise, Input.COLUMN_SUMS,
                (data, random) -> new Release.Vector(m.release(data.columnSums(), random)));
    }
}
