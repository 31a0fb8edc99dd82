package io.privmat.mechanism.completion;

import io.privmat.mechanism.lowrank.FactorizationFacts;
import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.Limits;
import io.privmat.mechanism.catalog.LowRanks;
import io.privmat.mechanism.catalog.MechanismDefinition;
import io.privmat.mechanism.catalog.MechanismFamily;
import io.privmat.mechanism.catalog.MechanismSpec;
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
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.Sensitivity;
import io.privmat.mechanism.lowrank.HardtRoth;
import io.privmat.mechanism.lowrank.HardtRothMechanism;
import io.privmat.mechanism.lowrank.LowRankAccuracy;
import io.privmat.mechanism.lowrank.RandomizedResponse;
import io.privmat.mechanism.lowrank.RandomizedResponseMechanism;
import io.privmat.mechanism.noise.NoiseSource;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * LOW_RANK and TOP_SINGULAR_VECTORS of a ratings matrix under the RATING relation (one observed
 * rating changes within [lo, hi]; Ω, hence the user count m, public): Hardt–Roth and randomized
 * response in Hardt and Roth's own entry-level model ({@link EntryLevelLowRank}, docs/mechanisms/
 * low-rank.md "Ratings under RATING"). They are catalogue values of their own, not the row-level
 * {@link HardtRoth} and {@link RandomizedResponse} on a second shape: their privacy unit, sensitivity derivation,
 * input and result orientation differ, and each value states exactly one of each.
 *
 * <p>The matrix is A (m × n), A_ij = y_ij − (lo + hi)/2 on Ω and 0 off Ω; a rating change moves one
 * entry by at most hi − lo, a row change of norm 2B with B = (hi − lo)/2, which is what the row-level
 * proofs cover. Every planned quantity is a function of m, n, the range and the parameters.
 */
public final class EntryLowRanks implements MechanismFamily {

    @Override
    public List<MechanismDefinition> definitions() {
        return List.of(new HardtRothRating(), new RandomizedResponseRating());
    }

    /** The shared half: shape, relation, input, sensitivity, statistic and extremal change. */
    private abstract static class Base extends Described {

        Base(String name, String summary, QueryBudget.Form form, List<Param> params) {
            super(name, summary, EnumSet.of(QueryKind.LOW_RANK, QueryKind.TOP_SINGULAR_VECTORS),
                    EnumSet.of(DataShape.RATINGS), REPLACE_ONE, form, QueryBudget.MAX_EPSILON, Input.RATINGS, params);
        }

        @Override
        public Set<RatingsRelation> ratingsRelations() {
            return EnumSet.of(RatingsRelation.RATING);
        }

        static RatingsDomain domain(PublicFacts facts) {
            return Objects.requireNonNull(facts.ratings(), "ratings facts").domain();
        }

        @Override
        public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
            return new Sensitivity("A (m × n centred ratings, zeros off Ω)", "L2", domain(facts).entryChange(),
                    "one rating moves one entry of A by at most hi − lo = 2B, a row change of norm ≤ 2B, which the "
                    + "row-level proofs cover with B = (hi − lo)/2; Ω and the zeros off it do not move");
        }

        /** One observed rating from the top of the range to the bottom: A moves by exactly hi − lo. */
        @Override
        public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
            RatingsDomain d = domain(facts);
            return List.of(new NeighbouringChange.ChangedRating(d.hi(), d.lo()));
        }

        @Override
        public double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data) {
            return EntryLevelLowRank.centredMatrix(data.ratings(), domain(facts));
        }

        /** m (public under RATING), checked with n against the dense limit before anything is read. */
        int users(PublicFacts facts) {
            int m = facts.requirePublicRows(name());
            Limits.checkDenseRatings(m, facts.cols(), name());
            return m;
        }

        /** The noise facts both start with: the distribution, the orientation and the entry sensitivity. */
        static Facts.Builder noise(String distribution, EntryLevelLowRank.Orientation o, RatingsDomain d) {
            Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
            noise.put(NoiseFacts.DISTRIBUTION, distribution);
            noise.put(NoiseFacts.ORIENTATION, o.name());
            noise.put(NoiseFacts.L2_SENSITIVITY, d.entryChange());
            return noise;
        }

        static Release factors(EntryLevelLowRank mechanism, DataAccess data, NoiseSource
                random, QueryKind kind) {
            return LowRanks.factors(mechanism.release(data.ratings(), random).usersByItems(), kind);
        }

        /** What the shared facts it writes mean for it (served in their descriptions). */
        @Override
        public List<Fact.Note> factNotes() {
            return List.of(
                NoiseFacts.ORIENTATION.note("HARDT_ROTH_RATING and RANDOMIZED_RESPONSE_RATING: which side of "
                        + "the ratings matrix the mechanism took as rows, USERS_AS_ROWS or ITEMS_AS_ROWS (from "
                        + "the public m and n; the result is returned users × items either way)"),
                FactorizationFacts.ORIENTATION.note("HARDT_ROTH_RATING and RANDOMIZED_RESPONSE_RATING: "
                        + "USERS_AS_ROWS or ITEMS_AS_ROWS, the side the mechanism took as rows; u (m × k) is per "
                        + "user and v (n × k) per item in either case"));
        }
    }

    /** HARDT_ROTH_RATING: range finder on the short side, public coherence pruning, projection. */
    static final class HardtRothRating extends Base {

        static final double DEFAULT_COHERENCE = 1.0;

        HardtRothRating() {
            super("HARDT_ROTH_RATING", "Hardt–Roth on a ratings matrix under RATING (entry-level DP): range finder on "
                    + "the short side, public coherence pruning, projection; factors returned users × items.",
                    QueryBudget.Form.APPROXIMATE, List.of(LowRanks.kOne(Limits.MAX_K),
                            Param.integer("oversampling", 1, 100, HardtRoth.DEFAULT_OVERSAMPLING, "extra columns p of "
                                    + "the range finder (ℓ = k + p, at most the short side min(m, n))"),
                            Param.number("coherence", 1, Double.MAX_VALUE, DEFAULT_COHERENCE, "the public incoherence "
                                    + "μ₀ ≥ 1 of the short side's basis; sets the pruning threshold τ = √(4μ₀ℓ·ln r/r) "
                                    + "over that side's r rows (nothing is pruned when τ ≥ 1)"),
                            LowRanks.shrink()));
        }

        @Override
        public RequestParams exampleParams(QueryKind kind) {
            return RequestParams.of("k", 1, "oversampling", 2);
        }

        /** The mechanism a spec describes (plans and their statements rebuild it the same way). */
        EntryLevelLowRank mechanism(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
            int m = users(facts);
            int n = facts.cols();
            int rows = Math.min(m, n);
            int k = Limits.requireK(params, Math.min(rows, Limits.MAX_K), kind.name());
            // ℓ = k + p stays within the short side (the range finder's basis has at most that many columns).
            int p = Math.min(params.integer("oversampling"), rows - k);
            Limits.checkFactorSize(Math.max(m, n), k + p);
            EntryLevelLowRank hr = EntryLevelLowRank.hardtRoth(m, domain(facts), k, p, params.number("coherence"),
                    budget.epsilon(), budget.delta());
            return params.bool("shrink") ? hr.withShrinkage() : hr;
        }

        @Override
        public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
            EntryLevelLowRank hr = mechanism(kind, budget, params, facts);
            HardtRothMechanism core = Objects.requireNonNull(hr.hardtRothMechanism());
            int rows = Math.min(users(facts), facts.cols());
            int l = core.oversampledRank();
            double coherence = params.number("coherence");
            Facts.Builder noise = noise("discrete Gaussian on the range finder and the projection, on a grid",
                    hr.orientation(), domain(facts));
            noise.put(NoiseFacts.OVERSAMPLED_RANK, l);
            noise.put(NoiseFacts.COHERENCE, coherence);
            // The core's τ over the short side's rows (docs/mechanisms/low-rank.md).
            noise.put(NoiseFacts.PRUNING_THRESHOLD, HardtRothMechanism.pruningThreshold(coherence, l, rows, rows));
            return new Plan(spec(kind, budget, params, facts), HardtRoth.privacy(core), noise, Input.RATINGS,
                    (data, random) -> factors(hr, data, random, kind));
        }

        @Override
        public List<ErrorStatement> expectedError(Plan plan) {
            MechanismSpec s = plan.spec();
            EntryLevelLowRank hr = mechanism(s.kind(), s.budget(), s.params(), s.facts());
            return HardtRoth.expectedError(Objects.requireNonNull(hr.hardtRothMechanism()),
                    Math.min(users(s.facts()), s.facts().cols()), s.params().integer("k"));
        }

        /** Hardt–Roth's statements in the mechanism's orientation: the range finder ran on the short side. */
        @Override
        public ResultAccuracy accuracy(Plan plan, Release release, double level) {
            Factorization f = ((Release.Factors) release).factorization();
            return HardtRoth.accuracy(f.facts(), Math.min(f.m(), f.d()), Math.max(f.m(), f.d()), f.k(), level);
        }

        @Override
        public List<NoiseWarning> warnings(Plan plan, Release release, ResultAccuracy accuracy) {
            return HardtRoth.warnings(release, accuracy);
        }
    }

    /** RANDOMIZED_RESPONSE_RATING: every entry of A plus Gaussian noise at the entry sensitivity, then a rank-k SVD. */
    static final class RandomizedResponseRating extends Base {

        RandomizedResponseRating() {
            super("RANDOMIZED_RESPONSE_RATING", "Randomized response on a ratings matrix under RATING (entry-level "
                    + "DP): Gaussian noise at the entry sensitivity hi − lo on every entry, then a rank-k SVD.",
                    QueryBudget.Form.GAUSSIAN, List.of(LowRanks.kAuto(Limits.MAX_K), LowRanks.shrink()));
        }

        @Override
        public RequestParams exampleParams(QueryKind kind) {
            return RequestParams.of("k", 1);
        }

        EntryLevelLowRank mechanism(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
            int m = users(facts);
            int n = facts.cols();
            // Absent k: every component the factors can hold, of which those above the noise are kept.
            int k = params.optionalInteger("k") == null ? Math.min(RandomizedResponse.autoRank(m, n),
                    RandomizedResponse.autoRank(n, m)) : Limits.requireK(params, Math.min(Math.min(m, n),
                    Limits.MAX_K), kind.name());
            RandomizedResponse.checkSize(m, n, k, name());
            RatingsDomain d = domain(facts);
            EntryLevelLowRank rr = budget.isRho() ? EntryLevelLowRank.randomizedResponseForRho(m, d, k, budget.rhoDown())
                    : EntryLevelLowRank.randomizedResponse(m, d, k, budget.epsilonDown(), budget.deltaDown());
            return params.bool("shrink") ? rr.withShrinkage() : rr;
        }

        @Override
        public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
            EntryLevelLowRank rr = mechanism(kind, budget, params, facts);
            RandomizedResponseMechanism core = Objects.requireNonNull(rr.randomizedResponseMechanism());
            Facts.Builder noise = noise("discrete Gaussian on every entry of A, on a grid", rr.orientation(),
                    domain(facts));
            noise.put(NoiseFacts.SIGMA, core.sigma());
            boolean auto = params.optionalInteger("k") == null;
            double bound = LowRankAccuracy.gordon(core.sigma(), users(facts), facts.cols(), ResultAccuracy.DEFAULT_LEVEL);
            return new Plan(spec(kind, budget, params, facts), PrivacyMap.calibrated(core.privacyLoss(), budget), noise,
                    Input.RATINGS, (data, random) -> {
                        Release.Factors f = (Release.Factors) factors(rr, data, random, kind);
                        return auto ? new Release.Factors(RandomizedResponse.resolved(f.factorization(), bound),
                                f.leftFactor()) : f;
                    });
        }

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
    }
}
