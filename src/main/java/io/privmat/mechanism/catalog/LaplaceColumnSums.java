package io.privmat.mechanism.catalog;

import io.privmat.mechanism.LaplaceVectorMechanism;
import io.privmat.mechanism.Sensitivities;
import io.privmat.privacy.PureDp;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * LAPLACE column sums: Σᵢ xᵢ plus discrete Laplace noise on a grid, pure ε-DP. L1 sensitivity
 * √d·B (ADD_REMOVE) or 2√d·B (REPLACE_ONE), {@link Sensitivities#columnSumsL1}.
 */
public final class LaplaceColumnSums extends Described {

    public LaplaceColumnSums() {
        super("LAPLACE", "Column sums plus discrete Laplace noise (pure epsilon-DP).", EnumSet.of(QueryKind.COLUMN_SUMS),
                MATRIX, BOTH, Budget.Form.PURE_EPSILON, Budget.MAX_EPSILON, Input.COLUMN_SUMS, List.of());
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return new Sensitivity("Σᵢ xᵢ", "L1",
                Sensitivities.columnSumsL1(facts.rowNormBound(), facts.cols(), facts.relation()),
                "‖x‖₁ ≤ √d·‖x‖₂ ≤ √d·B for one row; twice that when a row is replaced");
    }


    @Override
    public Map<String, Object> exampleParams(QueryKind kind) {
        return Map.of();
    }

    /** A row with equal entries ±B/√d: its L1 norm √d·B meets the Cauchy–Schwarz bound. */
    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        double[] flat = new double[facts.cols()];
        java.util.Arrays.fill(flat, facts.rowNormBound() / Math.sqrt(facts.cols()));
        return rowAgainstNegation(facts, flat);
    }

    @Override
    public Plan plan(QueryKind kind, Budget budget, Params params, PublicFacts facts) {
        double l1 = sensitivity(kind, params, facts).value();
        LaplaceVectorMechanism m = LaplaceVectorMechanism.of(l1, budget.epsilonDown(), facts.cols());
        Map<String, Object> noise = new LinkedHashMap<>();
        noise.put("distribution", "discrete Laplace on a grid");
        noise.put("scale", m.scale());
        noise.put("granularity", m.granularity());
        noise.put("l1Sensitivity", l1);
        return new Plan(spec(kind, budget, params, facts),
                PrivacyMap.of(new PureDp(budget.epsilon())), noise, Input.COLUMN_SUMS,
                (data, random) -> new Release.Vector(m.release(data.columnSums(), random)));
    }
}
