package io.privmat.mechanism.catalog;

/**
 * The public facts about a plan's noise (in quotes and results), decided before any data is read;
 * checked when the plan is made ({@link Plan}).
 * Served as the {@code NoiseFacts} schema, generated from these declarations in their order.
 */
public final class NoiseFacts {

    /** The vocabulary these facts belong to (the schema's name and description). */
    public static final FactVocabulary VOCABULARY = new FactVocabulary("NoiseFacts",
            "Public facts about the noise of the planned mechanism, fixed from public parameters before any data "
            + "is read. Which facts appear depends on the mechanism (docs/mechanisms/catalogue.md).");

    public static final Fact<String> DISTRIBUTION = VOCABULARY.string("distribution",
            "the noise and where it is added");

    public static final Fact<Double> SIGMA = VOCABULARY.number("sigma",
            "Gaussian noise: standard deviation per entry (per step for iterative mechanisms)");

    public static final Fact<Double> MEAN_SIGMA = VOCABULARY.number("meanSigma",
            "centred ANALYZE_GAUSS: standard deviation of the column sums' noise");

    public static final Fact<Double> SCALE = VOCABULARY.number("scale", "Laplace noise: the scale b per entry");

    public static final Fact<Double> GRANULARITY = VOCABULARY.number("granularity",
            "spacing of the grid that the noise and the released values lie on; a statistic is saturated at ±2⁵⁰ "
            + "grid steps before the noise (docs/mechanisms/noise.md)");

    public static final Fact<Double> SATURATION = VOCABULARY.number("saturation",
            "2⁵⁰·granularity: the largest |value| of the statistic before noise that is released unbiased; a "
            + "larger one is saturated there (stated by every plan on a grid)");

    public static final Fact<Double> L1_SENSITIVITY = VOCABULARY.number("l1Sensitivity",
            "L1 sensitivity the noise is calibrated to");

    public static final Fact<Double> L2_SENSITIVITY = VOCABULARY.number("l2Sensitivity",
            "L2 sensitivity of the statistic the noise is calibrated to (per step when iterative), before the grid "
            + "rounding: the charged loss's l2Sensitivity adds the rounding's g·sqrt(p) "
            + "(docs/mechanisms/noise.md); WINDOW: the whole stream's, rounding included");

    public static final Fact<Double> FROBENIUS_SENSITIVITY = VOCABULARY.number("frobeniusSensitivity",
            "Frobenius sensitivity of XᵀX the noise is calibrated to");

    public static final Fact<Double> SPECTRAL_SENSITIVITY = VOCABULARY.number("spectralSensitivity",
            "spectral-norm sensitivity of XᵀX (B²) the mechanism is analysed at");

    public static final Fact<Long> DEGREES_OF_FREEDOM = VOCABULARY.longInteger("degreesOfFreedom",
            "WISHART: degrees of freedom k of the Wishart_d(B²·I, k) noise");

    public static final Fact<Double> EPSILON_PER_STEP = VOCABULARY.number("epsilonPerStep",
            "EIGEN_SAMPLING: epsilon of each of its k + 1 steps");

    public static final Fact<Integer> RANK = VOCABULARY.integer("rank",
            "EIGEN_SAMPLING: rank of the released estimate");

    public static final Fact<Integer> PROJECTIONS = VOCABULARY.integer("projections",
            "JL: the number r of random projections");

    public static final Fact<Double> FLOOR = VOCABULARY.number("floor",
            "JL: the public eigenvalue floor W (matrices) or the overlay weight w (graphs)");

    public static final Fact<Double> ETA = VOCABULARY.number("eta",
            "JL: multiplicative accuracy of the answers; ADASSP: the noise bound η that sets its ridge");

    public static final Fact<Double> NU = VOCABULARY.number("nu",
            "failure probability of each interval stated by the release's answers");

    public static final Fact<Integer> VERTICES = VOCABULARY.integer("vertices", "graphs: the public vertex count");

    public static final Fact<Double> MIN_EIGENVALUE_SIGMA = VOCABULARY.number("minEigenvalueSigma",
            "ADASSP: noise standard deviation of the released λ_min(XᵀX)");

    public static final Fact<Double> GRAM_SIGMA = VOCABULARY.number("gramSigma",
            "ADASSP: noise standard deviation per entry of the released XᵀX; DP_ALS: of each item's released r × r "
            + "Gram");

    public static final Fact<Double> CROSS_SIGMA = VOCABULARY.number("crossSigma",
            "ADASSP: noise standard deviation per entry of the released Xᵀy");

    public static final Fact<Double> MIN_EIGENVALUE_SENSITIVITY = VOCABULARY.number("minEigenvalueSensitivity",
            "ADASSP: sensitivity of λ_min(XᵀX) (B²)");

    public static final Fact<Double> CROSS_SENSITIVITY = VOCABULARY.number("crossSensitivity",
            "ADASSP: L2 sensitivity of Xᵀy (B²/2, or B² replacing a row)");

    public static final Fact<Integer> OVERSAMPLED_RANK = VOCABULARY.integer("oversampledRank",
            "HARDT_ROTH: ℓ = min(d, k + oversampling), the range finder's width");

    public static final Fact<Double> COHERENCE = VOCABULARY.number("coherence",
            "HARDT_ROTH: the incoherence μ₀ that sets the pruning threshold");

    public static final Fact<Double> PRUNING_THRESHOLD = VOCABULARY.number("pruningThreshold",
            "HARDT_ROTH: entries of the range finder's basis above it are zeroed");

    public static final Fact<String> ORIENTATION = VOCABULARY.string("orientation",
            "HARDT_ROTH_RATING and RANDOMIZED_RESPONSE_RATING: which side of the ratings matrix the mechanism took "
            + "as rows, USERS_AS_ROWS or ITEMS_AS_ROWS (from the public m and n; the result is returned users × "
            + "items either way)");

    public static final Fact<Integer> ITERATIONS = VOCABULARY.integer("iterations",
            "iterative mechanisms: the public number of noisy steps");

    public static final Fact<Double> FIRST_SIGMA = VOCABULARY.number("firstSigma",
            "PRIVATE_FRANK_WOLFE: noise standard deviation of the first release (its rows are bounded by min(C, "
            + "L), the later ones' by min(C, 2L) or min(C, L))");

    public static final Fact<String> SCHEDULE = VOCABULARY.string("schedule",
            "PRIVATE_FRANK_WOLFE: FULLY_CORRECTIVE, CONSTANT or STANDARD");

    public static final Fact<Double> GRADIENT_CLIP = VOCABULARY.number("gradientClip",
            "PRIVATE_FRANK_WOLFE: the norm bound C_t of a user's gradient row in the releases after the first (the "
            + "clip C, or the bound that holds without it if smaller)");

    public static final Fact<Double> FIRST_GRADIENT_CLIP = VOCABULARY.number("firstGradientClip",
            "PRIVATE_FRANK_WOLFE: the norm bound min(C, L) of a user's row in the first release");

    public static final Fact<Double> NOISE_SPECTRAL_BOUND = VOCABULARY.number("noiseSpectralBound",
            "PRIVATE_FRANK_WOLFE: the bound b = σ(2√n + √(2 ln(1/β))) on the spectral norm of each later release's "
            + "noise (β = 0.01); a FULLY_CORRECTIVE direction whose eigenvalue does not exceed it is released as "
            + "zero and not used");

    public static final Fact<Double> FIRST_FROBENIUS_SENSITIVITY = VOCABULARY.number("firstFrobeniusSensitivity",
            "PRIVATE_FRANK_WOLFE: Frobenius sensitivity of the first released Gram");

    public static final Fact<String> VARIANT = VOCABULARY.string("variant",
            "PRIVATE_FRANK_WOLFE: DENSE (W held and released exactly on the grid)");

    public static final Fact<Double> RHS_SIGMA = VOCABULARY.number("rhsSigma",
            "DP_ALS: noise standard deviation per entry of each item's right-hand side");

    public static final Fact<Double> RHS_SENSITIVITY = VOCABULARY.number("rhsSensitivity",
            "DP_ALS: L2 sensitivity of the stacked right-hand sides (L·C, or 2L·C replacing a user)");

    public static final Fact<Double> STEP_SIZE = VOCABULARY.number("stepSize", "PRIVATE_OJA: the public step size η");

    public static final Fact<String> SPECTRUM = VOCABULARY.string("spectrum",
            "ORBIT_SAMPLING: PROJECTION or PEELING");

    public static final Fact<Double> SAMPLER_FAILURE_BOUND = VOCABULARY.number("samplerFailureBound",
            "exact samplers: the probability, whatever the data, that the sampler reaches its proposal cap (the "
            + "job then fails and the charge is kept)");

    public static final Fact<String> SAMPLER_POLICY = VOCABULARY.string("samplerPolicy",
            "exact samplers: how sampler failure is kept independent of the data");

    public static final Fact<Double> BLOCK_SENSITIVITY = VOCABULARY.number("blockSensitivity",
            "window mechanisms: Frobenius sensitivity of one block's Gram to one row (B² or √2·B²; 2 or 2√2 for an "
            + "edge event)");

    public static final Fact<Integer> RELEASES_PER_ROW = VOCABULARY.integer("releasesPerRow",
            "window mechanisms: how many released matrices one row enters (1, the tree's levels H, or the "
            + "factorisation's bands p)");

    public static final Fact<Integer> TREE_LEVELS = VOCABULARY.integer("treeLevels",
            "DYADIC_TREE: the node levels H (nodes of 1, 2, …, 2^(H−1) blocks)");

    public static final Fact<Integer> BANDS = VOCABULARY.integer("bands",
            "FACTORIZATION: the bands p of the Toeplitz strategy C");

    public static final Fact<Double> FULL_WINDOW_NOISE_VARIANCE = VOCABULARY.number("fullWindowNoiseVariance",
            "window mechanisms: τ², the variance of xᵀEx for a unit x, of the first release whose window is full "
            + "(later releases state their own)");

    public static final Fact<Long> MAX_STATE_BYTES = VOCABULARY.longInteger("maxStateBytes",
            "window mechanisms: the most bytes of matrices the subscription's persisted state holds between "
            + "releases");

    public static final Fact<Double> NOISE_VARIANCE = VOCABULARY.number("noiseVariance",
            "LINEAR_QUERIES: variance of each noisy measurement (Laplace: the discrete Laplace's exact variance; "
            + "Gaussian: σ²)");

    public static final Fact<Integer> QUERIES = VOCABULARY.integer("queries",
            "LINEAR_QUERIES: m, the number of queries in the workload");

    public static final Fact<Long> STRATEGY_ROWS = VOCABULARY.longInteger("strategyRows",
            "LINEAR_QUERIES: rows of the strategy A, the number of noisy measurements");

    public static final Fact<String> STRATEGY_METHOD = VOCABULARY.string("strategyMethod",
            "LINEAR_QUERIES: the strategy (IDENTITY, HIERARCHICAL, OPTIMIZED/CONVEX, LOW_RANK, …; WORKLOAD for "
            + "LAPLACE_WORKLOAD)");

    public static final Fact<String> STRATEGY_KEY = VOCABULARY.string("strategyKey",
            "OPTIMIZED and LOW_RANK_MECHANISM: the public strategy's id (GET /v1/strategies/{key})");

    public static final Fact<Double> EXPECTED_RMSE_PER_QUERY = VOCABULARY.number("expectedRmsePerQuery",
            "LINEAR_QUERIES: the expected root-mean-square error per query, √(E‖answers − Wx‖²/m), from public "
            + "values before anything is spent");

    public static final Fact<Double> EXPECTED_TOTAL_SQUARED_ERROR = VOCABULARY.number("expectedTotalSquaredError",
            "LINEAR_QUERIES: E‖answers − Wx‖² from the noise");

    public static final Fact<Double> MAX_QUERY_STANDARD_DEVIATION = VOCABULARY.number("maxQueryStandardDeviation",
            "LINEAR_QUERIES: the largest per-query standard deviation");

    public static final Fact<Double> RESIDUAL_FROBENIUS = VOCABULARY.number("residualFrobenius",
            "LOW_RANK_MECHANISM: ‖W − BL‖_F of its factorisation; the answers also carry the data-dependent bias "
            + "(BL − W)x, at most ‖W − BL‖_F·‖x‖₂, not part of the expected error");

    private NoiseFacts() {}
}
