package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.Limits;
import io.privmat.mechanism.catalog.LowRanks;
import io.privmat.mechanism.catalog.NeighbouringChange;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Params;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PrivacyMap;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.Sensitivity;
import io.privmat.mechanism.noise.NoiseSource;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * RANDOMIZED_RESPONSE: X plus discrete Gaussian noise on every entry (L2 sensitivity 2B of one
 * replaced row), then the top-k SVD as post-processing; REPLACE_ONE only (one row per record is
 * released, so m must be public). docs/mechanisms/low-rank.md.
 */
public final class RandomizedResponse extends Described {

    public RandomizedResponse() {
        super("RANDOMIZED_RESPONSE", "The rows plus Gaussian noise, then a rank-k SVD (input perturbation).",
                EnumSet.of(QueryKind.LOW_RANK, QueryKind.TOP_SINGULAR_VECTORS), MATRIX, REPLACE_ONE,
                QueryBudget.Form.GAUSSIAN, QueryBudget.MAX_EPSILON, Input.ROW_STREAM, List.of(LowRanks.kAuto(Limits.MAX_K),
                        LowRanks.shrink()));
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return new Sensitivity("X", "L2", 2 * facts.rowNormBound(), "one replaced row: ‖x − y‖ ≤ 2B");
    }


    @Override
    public RequestParams exampleParams(QueryKind kind) {
        return RequestParams.of("k", 1);
    }

    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        return rowAgainstNegation(facts, axis(facts, 0));
    }

    @Override
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
        int d = facts.cols();
        int m = facts.requirePublicRows(name());
        boolean auto = params.optionalInteger("k") == null;
        int k = auto ? autoRank(m, d) : Limits.requireK(params, Math.min(d, Limits.MAX_K), kind.name());
        checkSize(m, d, k, name());
        RandomizedResponseMechanism base = budget.isRho()
                ? RandomizedResponseMechanism.forRho(m, d, k, facts.rowNormBound(), budget.rhoDown())
                : RandomizedResponseMechanism.forApproxDp(m, d, k, facts.rowNormBound(), budget.epsilonDown(),
                        budget.deltaDown());
        RandomizedResponseMechanism rr = params.bool("shrink") ? base.withShrinkage() : base;
        Facts.Builder noise = LowRanks.noise("discrete Gaussian on every entry, on a grid");
        noise.put(NoiseFacts.SIGMA, rr.sigma());
        noise.put(NoiseFacts.L2_SENSITIVITY, sensitivity(kind, params, facts).value());
        double bound = LowRankAccuracy.gordon(rr.sigma(), m, d, ResultAccuracy.DEFAULT_LEVEL);
        return new Plan(spec(kind, budget, params, facts), PrivacyMap.calibrated(rr.privacyLoss(), budget), noise,
                Input.ROW_STREAM, (data, random) -> {
                    Factorization f = release(rr, data, random);
                    return LowRanks.factors(auto ? resolved(f, bound) : f, kind);
                });
    }

    /**
     * Where the data would keep the clean rows between two passes (public values only:
     * {@link DataAccess#holdsRows}), one pass holding the noisy rows instead, the noise drawn once;
     * else two passes replaying it. The same release either way (docs/mechanisms/low-rank.md).
     */
    static Factorization release(RandomizedResponseMechanism rr, DataAccess data, NoiseSource random) {
        return data.holdsRows(2) ? rr.releaseHoldingNoise(data.rows(1), random) : rr.release(data.rows(2), random);
    }

    /**
     * The rank computed when k is absent: every component up to min(d, 200) that the m × k left factor
     * allows ({@link Limits#MAX_FACTOR_ENTRIES}), of which the result keeps those above the noise.
     */
    public static int autoRank(int m, int d) {
        return (int) Math.max(1, Math.min(Math.min(d, Limits.MAX_K), Limits.MAX_FACTOR_ENTRIES / m));
    }

    /**
     * The components of a randomized-response release that stand clear of the noise: singular values
     * above the Weyl bound σ(√m + √d + t) (shrunk ones: above 0, shrinkage zeroes the noise-level ones);
     * at least the first. Post-processing of the released values.
     */
    public static Factorization resolved(Factorization f,
            double bound) {
        return LowRanks.trim(f, LowRanks.aboveNoise(f.s(), f.facts().has(FactorizationFacts.SHRINKAGE) ? 0 : bound));
    }

    /**
     * What randomized response holds, checked before anything is read: the noisy m × d matrix and its
     * m × m Gram when wide, else the d × d Gram; and the m × k left factor.
     */
    public static void checkSize(int m, int d, int k, String mechanism) {
        if (d > m) {
            // Wide: the noisy matrix and its m × m Gram are held instead of the d × d Gram.
            if ((long) m * d > RandomizedResponseMechanism.MAX_WIDE_ENTRIES || m > Limits.MAX_GRAM_DIMENSION) {
                throw new PlanningException(PlanningException.Reason.DATASET_TOO_LARGE, mechanism + " on a "
                        + "wide matrix holds the noisy m × d matrix: m·d = " + (long) m * d + " exceeds "
                        + RandomizedResponseMechanism.MAX_WIDE_ENTRIES + ".", Map.of("rows", m, "cols", d));
            }
        } else {
            Limits.checkGramDimension(d, mechanism);
        }
        Limits.checkFactorSize(m, k);
    }

    /** Weyl bounds from the noise's spectral norm ({@link LowRankAccuracy}). */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        PublicFacts facts = plan.spec().facts();
        return LowRankAccuracy.randomizedResponse(plan.noise().get(NoiseFacts.SIGMA),
                Math.toIntExact(facts.publicRows()), facts.cols(), ResultAccuracy.DEFAULT_LEVEL);
    }

    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        return LowRankAccuracy.randomizedResponse(((Release.Factors) release).factorization(),
                plan.noise().get(NoiseFacts.SIGMA), level);
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            FactorizationFacts.SIGMA.note("RANDOMIZED_RESPONSE: standard deviation of the noise on each entry"),
            FactorizationFacts.L2_SENSITIVITY.note("RANDOMIZED_RESPONSE: L2 sensitivity of X the noise is "
                    + "calibrated to"));
    }
}
