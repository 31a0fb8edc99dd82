package io.privmat.mechanism.catalog;

/**
 * The public facts about a plan's noise (in quotes and results), decided before any data is read;
 * checked when the plan is made ({@link Plan}).
 * A fact declared here with no text means something particular to each mechanism that writes it: the
 * mechanism describes it ({@link MechanismDefinition#factNotes}).
 * Served as the {@code NoiseFacts} schema, generated from these declarations in their order (descriptions
 * from {@link MechanismCatalog#description}).
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

    public static final Fact<Double> MEAN_SIGMA = VOCABULARY.number("meanSigma", "");

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

    public static final Fact<Long> DEGREES_OF_FREEDOM = VOCABULARY.longInteger("degreesOfFreedom", "");

    public static final Fact<Double> EPSILON_PER_STEP = VOCABULARY.number("epsilonPerStep", "");

    public static final Fact<Integer> RANK = VOCABULARY.integer("rank", "");

    public static final Fact<Integer> PROJECTIONS = VOCABULARY.integer("projections", "");

    public static final Fact<Double> FLOOR = VOCABULARY.number("floor", "");

    public static final Fact<Double> ETA = VOCABULARY.number("eta", "");

    public static final Fact<Double> NU = VOCABULARY.number("nu",
            "failure probability of each interval stated by the release's answers");

    public static final Fact<Integer> VERTICES = VOCABULARY.integer("vertices", "graphs: the public vertex count");

    public static final Fact<Double> MIN_EIGENVALUE_SIGMA = VOCABULARY.number("minEigenvalueSigma", "");

    public static final Fact<Double> GRAM_SIGMA = VOCABULARY.number("gramSigma", "");

    public static final Fact<Double> CROSS_SIGMA = VOCABULARY.number("crossSigma", "");

    public static final Fact<Double> MIN_EIGENVALUE_SENSITIVITY = VOCABULARY.number("minEigenvalueSensitivity", "");

    public static final Fact<Double> CROSS_SENSITIVITY = VOCABULARY.number("crossSensitivity", "");

    public static final Fact<Integer> OVERSAMPLED_RANK = VOCABULARY.integer("oversampledRank", "");

    public static final Fact<Double> COHERENCE = VOCABULARY.number("coherence", "");

    public static final Fact<Double> PRUNING_THRESHOLD = VOCABULARY.number("pruningThreshold", "");

    public static final Fact<String> ORIENTATION = VOCABULARY.string("orientation", "");

    public static final Fact<Integer> ITERATIONS = VOCABULARY.integer("iterations",
            "iterative mechanisms: the public number of noisy steps");

    public static final Fact<Double> FIRST_SIGMA = VOCABULARY.number("firstSigma", "");

    public static final Fact<String> SCHEDULE = VOCABULARY.string("schedule", "");

    public static final Fact<Double> GRADIENT_CLIP = VOCABULARY.number("gradientClip", "");

    public static final Fact<Double> FIRST_GRADIENT_CLIP = VOCABULARY.number("firstGradientClip", "");

    public static final Fact<Double> NOISE_SPECTRAL_BOUND = VOCABULARY.number("noiseSpectralBound", "");

    public static final Fact<Double> FIRST_FROBENIUS_SENSITIVITY = VOCABULARY.number("firstFrobeniusSensitivity", "");

    public static final Fact<String> VARIANT = VOCABULARY.string("variant", "");

    public static final Fact<Double> RHS_SIGMA = VOCABULARY.number("rhsSigma", "");

    public static final Fact<Double> RHS_SENSITIVITY = VOCABULARY.number("rhsSensitivity", "");

    public static final Fact<Double> STEP_SIZE = VOCABULARY.number("stepSize", "");

    public static final Fact<String> SPECTRUM = VOCABULARY.string("spectrum", "");

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

    public static final Fact<Integer> TREE_LEVELS = VOCABULARY.integer("treeLevels", "");

    public static final Fact<Integer> BANDS = VOCABULARY.integer("bands", "");

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

    public static final Fact<String> STRATEGY_METHOD = VOCABULARY.string("strategyMethod", "");

    public static final Fact<String> STRATEGY_KEY = VOCABULARY.string("strategyKey", "");

    public static final Fact<Double> EXPECTED_RMSE_PER_QUERY = VOCABULARY.number("expectedRmsePerQuery",
            "LINEAR_QUERIES: the expected root-mean-square error per query, √(E‖answers − Wx‖²/m), from public "
            + "values before anything is spent");

    public static final Fact<Double> EXPECTED_TOTAL_SQUARED_ERROR = VOCABULARY.number("expectedTotalSquaredError",
            "LINEAR_QUERIES: E‖answers − Wx‖² from the noise");

    public static final Fact<Double> MAX_QUERY_STANDARD_DEVIATION = VOCABULARY.number("maxQueryStandardDeviation",
            "LINEAR_QUERIES: the largest per-query standard deviation");

    public static final Fact<Double> RESIDUAL_FROBENIUS = VOCABULARY.number("residualFrobenius", "");

    private NoiseFacts() {}
}
