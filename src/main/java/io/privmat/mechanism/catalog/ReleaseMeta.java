package io.privmat.mechanism.catalog;

/**
 * The public facts stored with a release that answers later queries for free (sketches, reusable
 * covariances, window releases, histogram estimates, completion models): what rebuilds its error model.
 * A fact declared here with no text means something particular to each mechanism that writes it: the
 * mechanism describes it ({@link MechanismDefinition#factNotes}).
 * Served as the {@code ReleaseMeta} schema, generated from these declarations in their order (descriptions
 * from {@link MechanismCatalog#description}).
 */
public final class ReleaseMeta {

    /** The vocabulary these facts belong to (the schema's name and description). */
    public static final FactVocabulary VOCABULARY = new FactVocabulary("ReleaseMeta",
            "Public facts behind a stored release's error bounds: JL sketches (r, floor, epsilon, delta, eta, nu, "
            + "b2, vertices), Wishart matrices (degrees, b2, granularity, nu), Gaussian covariances (sigma, "
            + "granularity, nu), window releases of a stream (block, firstBlock, windowRows, noiseVariance, "
            + "roundingBound, granularity, nu, b2, vertices), histogram estimates of LINEAR_QUERIES "
            + "(noiseVariance, domain, strategyMethod, strategyKey, biased).");

    public static final Fact<Integer> R = VOCABULARY.integer("r", "");

    public static final Fact<Double> FLOOR = VOCABULARY.number("floor", "");

    public static final Fact<Double> EPSILON = VOCABULARY.number("epsilon", "");

    public static final Fact<Double> DELTA = VOCABULARY.number("delta", "");

    public static final Fact<Double> ETA = VOCABULARY.number("eta", "");

    public static final Fact<Double> NU = VOCABULARY.number("nu", "failure probability of each stated interval");

    public static final Fact<Double> B2 = VOCABULARY.number("b2", "B², the squared row-norm bound");

    public static final Fact<Integer> VERTICES = VOCABULARY.integer("vertices",
            "graph sketches: the public vertex count");

    public static final Fact<Long> DEGREES = VOCABULARY.longInteger("degrees", "");

    public static final Fact<Double> GRANULARITY = VOCABULARY.number("granularity",
            "spacing of the grid of the noise");

    public static final Fact<Double> SIGMA = VOCABULARY.number("sigma", "");

    public static final Fact<Long> BLOCK = VOCABULARY.longInteger("block",
            "window releases: the index of the stream's last block in the window (counted from the subscription's "
            + "first block)");

    public static final Fact<Long> FIRST_BLOCK = VOCABULARY.longInteger("firstBlock",
            "window releases: the index of the window's first block");

    public static final Fact<Long> WINDOW_ROWS = VOCABULARY.longInteger("windowRows",
            "window releases: the rows in the window, when public (ROW_COUNT blocks)");

    public static final Fact<Double> NOISE_VARIANCE = VOCABULARY.number("noiseVariance",
            "window releases: τ², the variance of xᵀEx for a unit x; histogram estimates: the variance of each "
            + "noisy measurement of the strategy");

    public static final Fact<Double> ROUNDING_BOUND = VOCABULARY.number("roundingBound",
            "window releases: the most one entry moved by grid rounding");

    public static final Fact<String> DOMAIN = VOCABULARY.string("domain",
            "histogram estimates: the dataset's attributes and sizes, e.g. age:16,region:8 (cells in row-major "
            + "order, the first attribute slowest)");

    public static final Fact<String> STRATEGY_METHOD = VOCABULARY.string("strategyMethod", "");

    public static final Fact<String> STRATEGY_KEY = VOCABULARY.string("strategyKey", "");

    public static final Fact<Boolean> BIASED = VOCABULARY.bool("biased",
            "histogram estimates: true when the estimate is biased (the Low-Rank Mechanism's factorisation does "
            + "not reproduce every query; answers state a bias factor)");

    public static final Fact<String> MODEL = VOCABULARY.string("model",
            "completion models: FRANK_WOLFE (T directions of n, then λ̂ and λ̂′), SVD (n × r directions, then r "
            + "eigenvalues) or ALS (n × r item factors), the stored values' layout");

    public static final Fact<Integer> ITEMS = VOCABULARY.integer("items", "completion models: the item count n");

    public static final Fact<Integer> ITERATIONS = VOCABULARY.integer("iterations",
            "completion models of FRANK_WOLFE and ALS: T");

    public static final Fact<Integer> RANK = VOCABULARY.integer("rank", "completion models of SVD and ALS: r");

    private ReleaseMeta() {}
}
