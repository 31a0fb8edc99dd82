package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.Accuracies;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorBasis;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.MechanismDefinition;
import io.privmat.mechanism.catalog.MechanismFamily;
import io.privmat.mechanism.catalog.NeighbouringChange;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.Param;
import io.privmat.mechanism.catalog.Params;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PrivacyMap;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsFacts;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.Sensitivity;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * COMPLETION on ratings datasets under joint DP (docs/mechanisms/completion.md): private Frank–Wolfe
 * (Jain–Thakkar–Thakurta's Algorithm 1), the private SVD baseline, and private alternating least
 * squares (Chien et al. 2021). Each releases a global model only; users' completed rows are
 * post-processing of it with their own ratings, served to the data owner.
 */
public final class Completions implements MechanismFamily {

    @Override
    public List<MechanismDefinition> definitions() {
        return List.of(new FrankWolfe(), new Svd(), new Als());
    }

    /** The three are Gaussian mechanisms over the user-level relations (RATING is calibrated as USER). */
    private abstract static class Base extends Described {

        Base(String name, String summary, List<Param> params) {
            super(name, summary, EnumSet.of(QueryKind.COMPLETION), EnumSet.of(DataShape.RATINGS),
                    EnumSet.allOf(NeighbouringRelation.class), QueryBudget.Form.GAUSSIAN, QueryBudget.MAX_EPSILON,
                    Input.RATINGS, params);
        }

        static RatingsFacts ratings(PublicFacts facts) {
            if (facts.ratings() == null) {
                throw new PlanningException(PlanningException.Reason.WRONG_DATASET_KIND, "COMPLETION reads a "
                        + "RATINGS dataset", java.util.Map.of());
            }
            return facts.ratings();
        }

        /** Hyper-parameter checks of the core records become 400s naming the parameter set. */
        static <T> T checked(java.util.function.Supplier<T> build) {
            try {
                return build.get();
            } catch (IllegalArgumentException e) {
                throw PlanningException.invalid("params", "see the mechanism's parameters", e.getMessage());
            }
        }

        /** W₀ = Σᵢ P_Ω(Y*ᵢ)ᵀP_Ω(Y*ᵢ): moves by yyᵀ (L²) or yyᵀ − zzᵀ (√2·L²) in Frobenius norm. */
        static Sensitivity firstGram(PublicFacts facts, String derivation) {
            double l = facts.rowNormBound();
            return new Sensitivity("W₀ = Σᵢ P_Ω(Y*ᵢ)ᵀP_Ω(Y*ᵢ)", "Frobenius",
                    Sensitivities.gramFrobenius(l, facts.relation()), derivation);
        }

        /**
         * A user at the bound: s items (the first s, or the last s for the replacement) rated at the top
         * of the range, so the centred row has norm exactly L; under REPLACE_ONE replaced by a user on the
         * other items (disjoint when 2s ≤ n), under ADD_REMOVE added.
         */
        static List<NeighbouringChange> extremalUsers(PublicFacts facts) {
            RatingsDomain d = ratings(facts).domain();
            int s = d.perUserCap();
            int n = d.items();
            int[] first = new int[s];
            int[] last = new int[s];
            double[] top = new double[s];
            for (int k = 0; k < s; k++) {
                first[k] = k;
                last[k] = n - s + k;
                top[k] = d.hi();
            }
            if (facts.relation() == NeighbouringRelation.ADD_REMOVE) {
                return List.of(new NeighbouringChange.AddedUser(first, top));
            }
            double[] bottom = new double[s];
            Arrays.fill(bottom, d.lo());
            // Disjoint items at the top; the same items from the top to the bottom (yyᵀ − zzᵀ with z = −y).
            return List.of(new NeighbouringChange.ReplacedUser(first, top, last, top),
                    new NeighbouringChange.ReplacedUser(first, top, first, bottom));
        }

        /**
         * ‖N‖₂ ≤ ‖G‖₂ ≤ σ(2√n + √(2 ln(releases/α))) for all {@code releases} symmetrised n × n noise
         * matrices at once, with probability ≥ 1 − α (Gordon's inequality, Gaussian concentration, a
         * union bound).
         */
        static ErrorStatement noiseNorm(String quantity, double sigma, int n, int releases, double level,
                String what) {
            double value = Accuracies.symmetricGaussianSpectral(sigma, n, 0, 1 - (1 - level) / releases);
            return new ErrorStatement(quantity, "noiseNorm", value, level, ErrorBasis.BOUND, "spectral norm of "
                    + what + ", all at once: σ(2√n + √(2 ln(" + releases + "/α))) by Gordon's inequality, "
                    + "Gaussian concentration and a union bound");
        }

        /** Users at the bound (Frank–Wolfe and SVD: the Gram W₀; ALS overrides). */
        @Override
        public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
            return extremalUsers(facts);
        }

        /** W₀, the first (Frank–Wolfe) or only (SVD) released Gram before noise; ALS overrides. */
        @Override
        public double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data) {
            return CompletionStatistics.firstGram(data.ratings(), ratings(facts).domain());
        }

        @Override
        public RequestParams exampleParams(QueryKind kind) {
            return example();
        }

        abstract RequestParams example();

        @Override
        public List<ErrorStatement> expectedError(Plan plan) {
            return statements(plan, ResultAccuracy.DEFAULT_LEVEL);
        }

        /** A global model's error is that of its noise, known before the release. */
        @Override
        public ResultAccuracy accuracy(Plan plan, Release release, double level) {
            return new ResultAccuracy(level, List.of(), statements(plan, level), "bounds on the released "
                    + "statistics' noise; a user's prediction error also depends on the data (docs/accuracy/"
                    + "completion.md)");
        }

        abstract List<ErrorStatement> statements(Plan plan, double level);

        /** The shared rules, then the model's released spectrum against its noise bound. */
        @Override
        public List<NoiseWarning> warnings(Plan plan, Release release, ResultAccuracy accuracy) {
            List<NoiseWarning> out = new ArrayList<>(super.warnings(plan, release, accuracy));
            if (release instanceof CompletionRelease c) {
                out.addAll(c.warnings(accuracy));
            }
            return out;
        }

        static Facts.Builder noise(String distribution) {
            Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
            noise.put(NoiseFacts.DISTRIBUTION, distribution);
            return noise;
        }
    }

    /** PRIVATE_FRANK_WOLFE: T noisy Grams of the users' clipped gradient rows, one direction each. */
    static final class FrankWolfe extends Base {

        FrankWolfe() {
            super("PRIVATE_FRANK_WOLFE", "Private Frank–Wolfe completion (Jain, Thakkar, Thakurta 2018) under joint "
                    + "DP: T Gaussian releases of the Gram of the users' clipped gradient rows, one item direction "
                    + "each; by default fully corrective (each user refits on all directions). Analysts get the "
                    + "item directions and spectrum, users' completed rows go to the owner.", List.of(
                    Param.integer("iterations", 1, FrankWolfeParameters.MAX_ITERATIONS, null, "T: Frank–Wolfe steps, "
                            + "each one Gaussian release; default min(⌈s/2⌉, 2 + ⌈8μ⌉) with μ the Gaussian DP "
                            + "the budget allows (3 at ε = 0.5, 6 at ε = 2, 11 at ε = 5 with δ = 1e-6)"),
                    Param.oneOf("schedule", List.of("FULLY_CORRECTIVE", "CONSTANT", "STANDARD"), "FULLY_CORRECTIVE",
                            "how the iterate moves: FULLY_CORRECTIVE (each user refits by ridge least squares on "
                            + "all directions so far; noise-dominated directions are released as zero and unused), "
                            + "or the paper's steps with radius nuclearRadius: CONSTANT η = 1/T, STANDARD "
                            + "η_t = 2/(t + 1)"),
                    Param.number("nuclearRadius", Double.MIN_NORMAL, 1e15, null, "the radius k of the nuclear-norm "
                            + "ball ‖Y‖_* ≤ k of the centred completed matrix: required with schedule CONSTANT or "
                            + "STANDARD, refused with FULLY_CORRECTIVE (‖Y‖_* grows like √m, and the number of "
                            + "users is not public, so no rule from public facts gives it)"),
                    Param.number("gradientClip", PublicFacts.MIN_ROW_NORM_BOUND, 1e15, null, "C: each user's "
                            + "gradient row is scaled to norm ≤ C before it enters a released Gram (sensitivity C² "
                            + "instead of L², and of 4L² for the paper's later steps); default L/4 = (max − min)/8·"
                            + "√perUserCap"),
                    Param.number("ridge", 0, 1e12, FrankWolfeParameters.DEFAULT_RIDGE, "λ of the users' "
                            + "least-squares refit (FULLY_CORRECTIVE)"),
                    Param.oneOf("variant", List.of("AUTO", "DENSE", "MEMORY_LIGHT"), "AUTO", "AUTO and DENSE hold "
                            + "the n × n Gram and release it exactly on the grid (n ≤ " + FrankWolfeParameters.MAX_ITEMS
                            + "); MEMORY_LIGHT is refused: it released a float function of the unrounded Gram, "
                            + "which is not differentially private"),
                    Param.integer("lanczosSteps", 1, FrankWolfeParameters.MAX_LANCZOS_STEPS,
                            FrankWolfeParameters.DEFAULT_LANCZOS_STEPS, "Lanczos products per top eigenvector")));
        }

        @Override
        RequestParams example() {
            return RequestParams.empty();
        }

        /** μ of the budget's Gaussian DP: what the default T is computed from. */
        static double mu(QueryBudget budget) {
            return budget.isRho() ? FrankWolfeParameters.mu(budget.rhoDown())
                    : FrankWolfeParameters.mu(budget.epsilonDown(), budget.deltaDown());
        }

        static FrankWolfeParameters parameters(Params p, PublicFacts facts, QueryBudget budget) {
            Integer t = p.optionalInteger("iterations");
            return parameters(p, facts, t != null ? t
                    : FrankWolfeParameters.defaultIterations(ratings(facts).domain(), mu(budget)));
        }

        /** The parameters with T given (the contract statistic needs no budget: its witness is one step). */
        static FrankWolfeParameters parameters(Params p, PublicFacts facts, int iterations) {
            RatingsFacts r = ratings(facts);
            if (p.name("variant").equals("MEMORY_LIGHT")) {
                throw PlanningException.invalid("variant", "AUTO or DENSE", "The MEMORY_LIGHT variant is withdrawn: "
                        + "it ran Lanczos on W·v computed in floating point from the unrounded gradient Gram W "
                        + "plus lattice noise, a release whose support moves with W and which is therefore not "
                        + "differentially private (docs/mechanisms/completion.md). Use AUTO or DENSE (at most "
                        + FrankWolfeParameters.MAX_ITEMS + " items).");
            }
            FrankWolfeParameters.StepSchedule schedule = FrankWolfeParameters.StepSchedule.valueOf(p.name("schedule"));
            Double radius = p.optionalNumber("nuclearRadius");
            if (schedule.usesRadius() && radius == null) {
                throw PlanningException.invalid("nuclearRadius", "a positive number", "schedule " + schedule + " "
                        + "needs nuclearRadius, the radius k of ‖Y‖_* ≤ k; no default exists because ‖Y‖_* grows "
                        + "like √m and the number of users is not public (the default schedule, FULLY_CORRECTIVE, "
                        + "needs none)");
            }
            if (!schedule.usesRadius() && radius != null) {
                throw PlanningException.invalid("nuclearRadius", "absent with schedule " + schedule, "schedule "
                        + schedule + " uses no nuclear radius; give schedule CONSTANT or STANDARD to use one");
            }
            Double clip = p.optionalNumber("gradientClip");
            double c = clip != null ? clip : FrankWolfeParameters.defaultGradientClip(r.domain());
            return checked(() -> new FrankWolfeParameters(r.domain(), r.relation(), radius != null ? radius : Double.NaN,
                    iterations, schedule, FrankWolfeParameters.DEFAULT_BETA, p.integer("lanczosSteps"), c,
                    p.number("ridge")));
        }

        static PrivateFrankWolfeMechanism mechanism(QueryBudget budget, Params p, PublicFacts facts) {
            FrankWolfeParameters params = parameters(p, facts, budget);
            return budget.isRho() ? PrivateFrankWolfeMechanism.forRho(params, budget.rhoDown())
                    : PrivateFrankWolfeMechanism.forApproxDp(params, budget.epsilonDown(), budget.deltaDown());
        }

        @Override
        public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
            return new Sensitivity("(W₀/Δ₀, W₁/Δ₁): the first two released Grams of clipped gradient rows, each over its "
                    + "own sensitivity (W₁ after one step on a public witness broadcast)", "L2", Math.sqrt(2),
                    "Δ_t = C_t² (√2·C_t² replacing a user) since every row entering W_t is clipped to ‖Ãᵢ‖ ≤ C_t "
                    + "= min(C, L at t = 0, 2L after a paper step, L after a fully corrective one); each part moves "
                    + "by at most 1, the two together by √2");
        }

        /** W₀/Δ₀ and W₁/Δ₁ on the public witness (docs/mechanisms/completion.md, "Privacy"). */
        @Override
        public double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data) {
            return CompletionStatistics.frankWolfeStatistics(data.ratings(), parameters(params, facts, 2));
        }

        @Override
        public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
            PrivateFrankWolfeMechanism fw = mechanism(budget, params, facts);
            FrankWolfeParameters p = fw.parameters();
            Facts.Builder noise = noise("discrete Gaussian on each released n × n Gram (symmetrised), on a grid");
            noise.put(NoiseFacts.ITERATIONS, p.iterations());
            noise.put(NoiseFacts.SCHEDULE, p.schedule().name());
            noise.put(NoiseFacts.SIGMA, fw.sigma());
            noise.put(NoiseFacts.FIRST_SIGMA, fw.firstSigma());
            noise.put(NoiseFacts.GRADIENT_CLIP, p.clip(1));
            noise.put(NoiseFacts.FIRST_GRADIENT_CLIP, p.clip(0));
            noise.put(NoiseFacts.FROBENIUS_SENSITIVITY, PrivateFrankWolfeMechanism.sensitivity(p));
            noise.put(NoiseFacts.FIRST_FROBENIUS_SENSITIVITY, PrivateFrankWolfeMechanism.firstSensitivity(p));
            noise.put(NoiseFacts.NOISE_SPECTRAL_BOUND, fw.noiseSpectralBound(1));
            noise.put(NoiseFacts.VARIANT, "DENSE");
            // T Gaussian releases: the first at Δ₀, then T − 1 at Δ; GDP composition (μ² add).
            List<PrivacyMap> steps = new ArrayList<>();
            steps.add(PrivacyMap.of(fw.firstStepLoss()));
            if (p.iterations() > 1) {
                steps.add(PrivacyMap.compose(p.iterations() - 1, PrivacyMap.of(fw.stepLoss())));
            }
            PrivacyMap privacy = PrivacyMap.compose(steps).calibratedTo(budget);
            return new Plan(spec(kind, budget, params, facts), privacy, noise,
                    Input.RATINGS, (data, random) -> new CompletionRelease(fw.release(data.ratings(), random)));
        }

        @Override
        List<ErrorStatement> statements(Plan plan, double level) {
            PublicFacts facts = plan.spec().facts();
            int t = plan.noise().get(NoiseFacts.ITERATIONS);
            return List.of(noiseNorm("spectrum", plan.noise().get(NoiseFacts.SIGMA), facts.cols(), t, level,
                    "the noise of the " + t + " released Grams Ŵ_t (the broadcast λ̂_t² is within it of λ_max(W_t))"));
        }

        /** What the shared facts it writes mean for it (served in their descriptions). */
        @Override
        public List<Fact.Note> factNotes() {
            return List.of(
                NoiseFacts.FIRST_SIGMA.note("PRIVATE_FRANK_WOLFE: noise standard deviation of the first "
                        + "release (its rows are bounded by min(C, L), the later ones' by min(C, 2L) or min(C, "
                        + "L))"),
                NoiseFacts.SCHEDULE.note("PRIVATE_FRANK_WOLFE: FULLY_CORRECTIVE, CONSTANT or STANDARD"),
                NoiseFacts.GRADIENT_CLIP.note("PRIVATE_FRANK_WOLFE: the norm bound C_t of a user's gradient "
                        + "row in the releases after the first (the clip C, or the bound that holds without it "
                        + "if smaller)"),
                NoiseFacts.FIRST_GRADIENT_CLIP.note("PRIVATE_FRANK_WOLFE: the norm bound min(C, L) of a user's "
                        + "row in the first release"),
                NoiseFacts.NOISE_SPECTRAL_BOUND.note("PRIVATE_FRANK_WOLFE: the bound b = σ(2√n + √(2 ln(1/β))) "
                        + "on the spectral norm of each later release's noise (β = 0.01); a FULLY_CORRECTIVE "
                        + "direction whose eigenvalue does not exceed it is released as zero and not used"),
                NoiseFacts.FIRST_FROBENIUS_SENSITIVITY.note("PRIVATE_FRANK_WOLFE: Frobenius sensitivity of the "
                        + "first released Gram"),
                NoiseFacts.VARIANT.note("PRIVATE_FRANK_WOLFE: DENSE (W held and released exactly on the grid)"));
        }
    }

    /** PRIVATE_SVD: one noisy Gram of the observed ratings, its top r eigenvectors. */
    static final class Svd extends Base {

        Svd() {
            super("PRIVATE_SVD", "Private SVD completion (the baseline of Jain, Thakkar, Thakurta 2018) under joint "
                    + "DP: one Gaussian release of the ratings' Gram, its top r item directions; users project "
                    + "locally.", List.of(
                    Param.integer("rank", 1, SvdCompletionParameters.MAX_ITEMS, null, "r: released item directions "
                            + "(required, at most n)"),
                    Param.oneOf("fit", List.of("RESCALED_PROJECTION", "LEAST_SQUARES"), "LEAST_SQUARES", "how each "
                            + "user completes their row from the directions"),
                    Param.number("ridge", 0, 1e12, 1e-3, "λ of the LEAST_SQUARES local fit")));
        }

        @Override
        RequestParams example() {
            return RequestParams.of("rank", 1);
        }

        static SvdCompletionParameters parameters(Params p, PublicFacts facts) {
            RatingsFacts r = ratings(facts);
            return checked(() -> new SvdCompletionParameters(r.domain(), r.relation(), p.integer("rank"),
                    SvdCompletionParameters.LocalFit.valueOf(p.name("fit")), p.number("ridge")));
        }

        static PrivateSvdMechanism mechanism(QueryBudget budget, Params p, PublicFacts facts) {
            SvdCompletionParameters params = parameters(p, facts);
            return budget.isRho() ? PrivateSvdMechanism.forRho(params, budget.rhoDown())
                    : PrivateSvdMechanism.forApproxDp(params, budget.epsilonDown(), budget.deltaDown());
        }

        @Override
        public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
            return firstGram(facts, "one user's centred row y (‖y‖ ≤ L) enters as yyᵀ");
        }

        @Override
        public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
            PrivateSvdMechanism svd = mechanism(budget, params, facts);
            Facts.Builder noise = noise("discrete Gaussian on the released n × n Gram (symmetrised), on a grid");
            noise.put(NoiseFacts.SIGMA, svd.sigma());
            noise.put(NoiseFacts.FROBENIUS_SENSITIVITY, PrivateSvdMechanism.sensitivity(svd.parameters()));
            return new Plan(spec(kind, budget, params, facts), PrivacyMap.calibrated(svd.privacyLoss(), budget), noise,
                    Input.RATINGS, (data, random) -> new CompletionRelease(svd.release(data.ratings(), random)));
        }

        @Override
        List<ErrorStatement> statements(Plan plan, double level) {
            return List.of(noiseNorm("eigenvalues", plan.noise().get(NoiseFacts.SIGMA), plan.spec().facts().cols(), 1,
                    level, "the released Gram's noise (each released eigenvalue is within it of the Gram's)"));
        }
    }

    /** DP_ALS: T item updates from noisy per-item Grams and right-hand sides. */
    static final class Als extends Base {

        Als() {
            super("DP_ALS", "Private alternating least squares (Chien et al. 2021) under joint DP: noisy per-item "
                    + "sufficient statistics of clipped user fits, T item updates; analysts get the item factors, "
                    + "users fit locally.", List.of(
                    Param.integer("rank", 1, AlsParameters.MAX_RANK, null, "r: the factor dimension (required, at most "
                            + "n)"),
                    Param.integer("iterations", 1, AlsParameters.MAX_ITERATIONS, 3, "T: item updates (2T releases)"),
                    Param.number("userRidge", Double.MIN_NORMAL, 1e12, 0.1, "λ_u of each user's local fit"),
                    Param.number("itemRidge", Double.MIN_NORMAL, 1e12, 1.0, "λ_v added to each item's noisy Gram"),
                    Param.number("clip", PublicFacts.MIN_ROW_NORM_BOUND, 1e12, 0.3, "C: user factors clipped to "
                            + "‖uᵢ‖ ≤ C"),
                    Param.number("initScale", Double.MIN_NORMAL, 1e12, 0.1, "standard deviation of the random, "
                            + "data-independent start V₀")));
        }

        @Override
        RequestParams example() {
            return RequestParams.of("rank", 1, "iterations", 2);
        }

        static AlsParameters parameters(Params p, PublicFacts facts) {
            RatingsFacts r = ratings(facts);
            return checked(() -> new AlsParameters(r.domain(), r.relation(), p.integer("rank"), p.integer("iterations"),
                    p.number("userRidge"), p.number("itemRidge"), p.number("clip"), p.number("initScale")));
        }

        static DpAlsMechanism mechanism(QueryBudget budget, Params p, PublicFacts facts) {
            AlsParameters params = parameters(p, facts);
            return budget.isRho() ? DpAlsMechanism.forRho(params, budget.rhoDown())
                    : DpAlsMechanism.forApproxDp(params, budget.epsilonDown(), budget.deltaDown());
        }

        @Override
        public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
            return new Sensitivity("(G/Δ_G, b/Δ_b): one step's item Grams and right-hand sides, each over its own "
                    + "sensitivity", "L2", Math.sqrt(2), "Δ_G = √s·C² (√(2s)·C² replacing a user) and Δ_b = L·C (2L·C) "
                    + "for every public V, since ‖uᵢ‖ ≤ C; the two parts together move by at most √2 at unit scale");
        }

        /** Users at the bound whose fits on the public witness V are clipped to ‖uᵢ‖ = C. */
        @Override
        public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
            RatingsDomain d = ratings(facts).domain();
            List<NeighbouringChange> out = new ArrayList<>(extremalUsers(facts));
            if (facts.relation() == NeighbouringRelation.REPLACE_ONE) {
                // The same items, top against bottom: b moves by 2·h·C per item, the Grams not at all.
                int s = d.perUserCap();
                int[] items = new int[s];
                double[] top = new double[s];
                double[] bottom = new double[s];
                for (int k = 0; k < s; k++) {
                    items[k] = k;
                    top[k] = d.hi();
                    bottom[k] = d.lo();
                }
                out.add(new NeighbouringChange.ReplacedUser(items, top, items, bottom));
            }
            return out;
        }

        /**
         * The item statistics on the public witness V = (initScale)·1 (n × r): the declared bound holds for
         * every V, and the mechanism's own V_{t−1} is public when step t reads the data.
         */
        @Override
        public double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data) {
            AlsParameters p = parameters(params, facts);
            double[] v = new double[p.domain().items() * p.rank()];
            Arrays.fill(v, p.initScale());
            return CompletionStatistics.alsStatistics(data.ratings(), p, v);
        }

        @Override
        public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
            DpAlsMechanism als = mechanism(budget, params, facts);
            Facts.Builder noise = noise("discrete Gaussian on each item's r × r Gram (symmetrised) and "
                    + "right-hand side, on grids");
            noise.put(NoiseFacts.ITERATIONS, als.parameters().iterations());
            noise.put(NoiseFacts.GRAM_SIGMA, als.gramSigma());
            noise.put(NoiseFacts.RHS_SIGMA, als.rhsSigma());
            noise.put(NoiseFacts.FROBENIUS_SENSITIVITY, DpAlsMechanism.gramSensitivity(als.parameters()));
            noise.put(NoiseFacts.RHS_SENSITIVITY, DpAlsMechanism.rhsSensitivity(als.parameters()));
            // 2T Gaussian releases (an item-Gram and a right-hand-side release per step), composed in GDP.
            PrivacyMap step = PrivacyMap.compose(List.of(PrivacyMap.of(als.gramStepLoss()),
                    PrivacyMap.of(als.rhsStepLoss())));
            PrivacyMap privacy = PrivacyMap.compose(als.parameters().iterations(), step).calibratedTo(budget);
            return new Plan(spec(kind, budget, params, facts), privacy, noise,
                    Input.RATINGS, (data, random) -> new CompletionRelease(als.release(data.ratings(), random)));
        }

        @Override
        List<ErrorStatement> statements(Plan plan, double level) {
            Params p = plan.spec().params();
            int r = p.integer("rank");
            int t = p.integer("iterations");
            int n = plan.spec().facts().cols();
            double rhs = Accuracies.gaussianHalfWidth(plan.noise().get(NoiseFacts.RHS_SIGMA), 0, level);
            return List.of(noiseNorm("itemGrams", plan.noise().get(NoiseFacts.GRAM_SIGMA), r, n * t, level,
                    "the noise of every item's released r × r Gram"), new ErrorStatement("itemRightHandSides",
                    "absPerEntry", rhs, level, ErrorBasis.EXACT, "each entry of a released right-hand side b̃_j has "
                    + "Gaussian noise of standard deviation rhsSigma"));
        }

        /** What the shared facts it writes mean for it (served in their descriptions). */
        @Override
        public List<Fact.Note> factNotes() {
            return List.of(
                NoiseFacts.GRAM_SIGMA.note("DP_ALS: of each item's released r × r Gram"),
                NoiseFacts.RHS_SIGMA.note("DP_ALS: noise standard deviation per entry of each item's "
                        + "right-hand side"),
                NoiseFacts.RHS_SENSITIVITY.note("DP_ALS: L2 sensitivity of the stacked right-hand sides (L·C, "
                        + "or 2L·C replacing a user)"));
        }
    }
}
