package io.privmat.mechanism.sums;

import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.LaplaceVectorMechanism;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.NeighbouringChange;
import io.privmat.mechanism.catalog.NoiseFacts;
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
import io.privmat.mechanism.linalg.CompensatedSums;
import io.privmat.privacy.PureDp;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;

/**
 * CLIPPED_LAPLACE column sums: every entry clipped to [−c, c] (c the public {@code entryBound}),
 * summed per column, plus discrete Laplace noise on a grid; pure ε-DP (docs/mechanisms/catalogue.md).
 *
 * <p><b>Privacy</b>: the released statistic is S(X) = Σᵢ clip_c(xᵢ). Adding or removing one row x
 * (‖x‖₂ ≤ B) moves S by clip_c(x), whose L1 norm is Σⱼ min(c, |xⱼ|) ≤ min(d·c, ‖x‖₁) ≤ min(d·c, √d·B);
 * replacing x by y moves it by clip_c(x) − clip_c(y), at most twice that
 * ({@link Sensitivities#clippedColumnSumsL1}). {@link LaplaceVectorMechanism} with that L1
 * sensitivity is ε-DP; c is a request parameter, so the cost depends on public values only.
 *
 * <p><b>Against LAPLACE</b> (sensitivity √d·B): the noise scale shrinks by √d·B/(d·c) when
 * c &lt; B/√d, and is LAPLACE's otherwise; the price is the bias of clipping, entries beyond ±c
 * count as ±c, and the stated intervals cover the clipped sums.
 */
public final class ClippedLaplaceColumnSums extends Described {

    /** Its error statements and intervals are LAPLACE's at this plan's noise scale. */
    private static final LaplaceColumnSums LAPLACE = new LaplaceColumnSums();

    public ClippedLaplaceColumnSums() {
        super("CLIPPED_LAPLACE", "Column sums of entries clipped to [-entryBound, entryBound] plus discrete Laplace "
                + "noise (pure epsilon-DP); less noise than LAPLACE when entryBound < B/sqrt(d).",
                EnumSet.of(QueryKind.COLUMN_SUMS), MATRIX, BOTH, QueryBudget.Form.PURE_EPSILON,
                QueryBudget.MAX_EPSILON, Input.ROW_STREAM, List.of(Param.number("entryBound", Double.MIN_NORMAL,
                        1e15, null, "c: every entry is clipped to [-c, c] before the column sums")));
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return new Sensitivity("Σᵢ clip_c(xᵢ)", "L1", Sensitivities.clippedColumnSumsL1(facts.rowNormBound(),
                params.number("entryBound"), facts.cols(), facts.relation()),
                "‖clip_c(x)‖₁ ≤ min(d·c, √d·B) for one row; twice that when a row is replaced");
    }

    @Override
    public RequestParams exampleParams(QueryKind kind) {
        return RequestParams.of("entryBound", 0.25);
    }

    /** A row with equal entries min(c, B/√d): unclipped, its L1 norm meets the bound. */
    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        double[] flat = new double[facts.cols()];
        Arrays.fill(flat, Math.min(params.number("entryBound"), facts.rowNormBound() / Math.sqrt(facts.cols())));
        return rowAgainstNegation(facts, flat);
    }

    @Override
    public double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data) {
        return clippedSums(data, facts.cols(), params.number("entryBound"));
    }

    @Override
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
        double l1 = sensitivity(kind, params, facts).value();
        int d = facts.cols();
        double c = params.number("entryBound");
        LaplaceVectorMechanism m = LaplaceVectorMechanism.of(l1, budget.epsilonDown(), d);
        Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
        noise.put(NoiseFacts.DISTRIBUTION, "discrete Laplace on a grid");
        noise.put(NoiseFacts.SCALE, m.scale());
        noise.put(NoiseFacts.GRANULARITY, m.granularity());
        noise.put(NoiseFacts.L1_SENSITIVITY, l1);
        return new Plan(spec(kind, budget, params, facts), PrivacyMap.of(new PureDp(budget.epsilon())), noise,
                Input.ROW_STREAM, (data, random) -> new Release.Vector(m.release(clippedSums(data, d, c), random)));
    }

    /** As LAPLACE's: the noise is the same distribution at this plan's scale. */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        return LAPLACE.expectedError(plan);
    }

    /** Each released sum ± the discrete Laplace quantile + g/2, around the clipped sums. */
    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        return LAPLACE.accuracy(plan, release, level);
    }

    /** Σᵢ clip_c(xᵢ), one pass over the rows, summed like LAPLACE's column sums (compensated). */
    static double[] clippedSums(DataAccess data, int d, double c) {
        CompensatedSums sums = new CompensatedSums(d);
        data.rows(1).forEachBlock((block, count, first) -> {
            for (int i = 0; i < count; i++) {
                for (int j = 0; j < d; j++) {
                    sums.add(j, Math.max(-c, Math.min(c, block[i * d + j])));
                }
            }
        });
        return sums.result();
    }
}
