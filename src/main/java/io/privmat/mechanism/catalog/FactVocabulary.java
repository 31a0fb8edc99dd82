package io.privmat.mechanism.catalog;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The names and types of the public facts mechanisms attach to what they return: the noise facts of
 * a plan (in quotes and results), the facts of a factorisation (low-rank results) and the metadata of
 * a stored release (sketches, reusable covariances). Declared here as data, like {@link Param}, so
 * that the served contract types each document from the same list the code is checked against: a
 * plan's noise facts are checked when it is made ({@link Plan}), and the mechanism contract tests
 * check every release's facts and metadata. A mechanism that needs a new fact adds a line here.
 */
public final class FactVocabulary {

    /** The JSON type of a fact. */
    public enum Type {
        NUMBER, INTEGER, STRING, BOOLEAN
    }

    /** One declared fact. */
    public record Field(String name, Type type, String description) {}

    /** Public facts about a plan's noise, decided before any data is read. */
    public static final FactVocabulary NOISE = new FactVocabulary("NoiseFacts", "Public facts about the noise of "
            + "the planned mechanism, fixed from public parameters before any data is read. Which facts appear "
            + "depends on the mechanism (docs/mechanisms/catalogue.md).", List.of(
                    string("distribution", "the noise and where it is added"),
                    number("sigma", "Gaussian noise: standard deviation per entry (per step for iterative mechanisms)"),
                    number("meanSigma", "centred ANALYZE_GAUSS: standard deviation of the column sums' noise"),
                    number("scale", "Laplace noise: the scale b per entry"),
                    number("granularity", "spacing of the grid that the noise and the released values lie on; a "
                            + "statistic is saturated at ±2⁵⁰ grid steps before the noise (docs/mechanisms/noise.md)"),
                    number("saturation", "2⁵⁰·granularity: the largest |value| of the statistic before noise that is "
                            + "released unbiased; a larger one is saturated there (stated by every plan on a grid)"),
                    number("l1Sensitivity", "L1 sensitivity the noise is calibrated to"),
                    number("l2Sensitivity", "L2 sensitivity of the statistic the noise is calibrated to (per step "
                            + "when iterative), before the grid rounding: the charged loss's l2Sensitivity adds the "
                            + "rounding's g·sqrt(p) (docs/mechanisms/noise.md); WINDOW: the whole stream's, rounding "
                            + "included"),
                    number("frobeniusSensitivity", "Frobenius sensitivity of XᵀX the noise is calibrated to"),
                    number("spectralSensitivity", "spectral-norm sensitivity of XᵀX (B²) the mechanism is analysed at"),
                    integer("degreesOfFreedom", "WISHART: degrees of freedom k of the Wishart_d(B²·I, k) noise"),
                    number("epsilonPerStep", "EIGEN_SAMPLING: epsilon of each of its k + 1 steps"),
                    integer("rank", "EIGEN_SAMPLING: rank of the released estimate"),
                    integer("projections", "JL: the number r of random projections"),
                    number("floor", "JL: the public eigenvalue floor W (matrices) or the overlay weight w (graphs)"),
                    number("eta", "JL: multiplicative accuracy of the answers; ADASSP: the noise bound η that sets "
                            + "its ridge"),
                    number("nu", "failure probability of each interval stated by the release's answers"),
                    integer("vertices", "graphs: the public vertex count"),
                    number("minEigenvalueSigma", "ADASSP: noise standard deviation of the released λ_min(XᵀX)"),
                    number("gramSigma", "ADASSP: noise standard deviation per entry of the released XᵀX; DP_ALS: of each "
                            + "item's released r × r Gram"),
                    number("crossSigma", "ADASSP: noise standard deviation per entry of the released Xᵀy"),
                    number("minEigenvalueSensitivity", "ADASSP: sensitivity of λ_min(XᵀX) (B²)"),
                    number("crossSensitivity", "ADASSP: L2 sensitivity of Xᵀy (B²/2, or B² replacing a row)"),
                    integer("oversampledRank", "HARDT_ROTH: ℓ = min(d, k + oversampling), the range finder's width"),
                    number("coherence", "HARDT_ROTH: the incoherence μ₀ that sets the pruning threshold"),
                    number("pruningThreshold", "HARDT_ROTH: entries of the range finder's basis above it are zeroed"),
                    string("orientation", "HARDT_ROTH_RATING and RANDOMIZED_RESPONSE_RATING: which side of the "
                            + "ratings matrix the mechanism took as rows, USERS_AS_ROWS or ITEMS_AS_ROWS (from the "
                            + "public m and n; the result is returned users × items either way)"),
                    integer("iterations", "iterative mechanisms: the public number of noisy steps"),
                    number("firstSigma", "PRIVATE_FRANK_WOLFE: noise standard deviation of the first release (its "
                            + "rows are bounded by min(C, L), the later ones' by min(C, 2L) or min(C, L))"),
                    string("schedule", "PRIVATE_FRANK_WOLFE: FULLY_CORRECTIVE, CONSTANT or STANDARD"),
                    number("gradientClip", "PRIVATE_FRANK_WOLFE: the norm bound C_t of a user's gradient row in the "
                            + "releases after the first (the clip C, or the bound that holds without it if smaller)"),
                    number("firstGradientClip", "PRIVATE_FRANK_WOLFE: the norm bound min(C, L) of a user's row in the "
                            + "first release"),
                    number("noiseSpectralBound", "PRIVATE_FRANK_WOLFE: the bound b = σ(2√n + √(2 ln(1/β))) on the "
                            + "spectral norm of each later release's noise (β = 0.01); a FULLY_CORRECTIVE direction "
                            + "whose eigenvalue does not exceed it is released as zero and not used"),
                    number("firstFrobeniusSensitivity", "PRIVATE_FRANK_WOLFE: Frobenius sensitivity of the first "
                            + "released Gram"),
                    string("variant", "PRIVATE_FRANK_WOLFE: DENSE (W held and released exactly on the grid)"),
                    number("rhsSigma", "DP_ALS: noise standard deviation per entry of each item's right-hand side"),
                    number("rhsSensitivity", "DP_ALS: L2 sensitivity of the stacked right-hand sides (L·C, or 2L·C "
                            + "replacing a user)"),
                    number("stepSize", "PRIVATE_OJA: the public step size η"),
                    string("spectrum", "ORBIT_SAMPLING: PROJECTION or PEELING"),
                    number("samplerFailureBound", "exact samplers: the probability, whatever the data, that the "
                            + "sampler reaches its proposal cap (the job then fails and the charge is kept)"),
                    string("samplerPolicy", "exact samplers: how sampler failure is kept independent of the data"),
                    number("blockSensitivity", "window mechanisms: Frobenius sensitivity of one block's Gram to one "
                            + "row (B² or √2·B²; 2 or 2√2 for an edge event)"),
                    integer("releasesPerRow", "window mechanisms: how many released matrices one row enters (1, the "
                            + "tree's levels H, or the factorisation's bands p)"),
                    integer("treeLevels", "DYADIC_TREE: the node levels H (nodes of 1, 2, …, 2^(H−1) blocks)"),
                    integer("bands", "FACTORIZATION: the bands p of the Toeplitz strategy C"),
                    number("fullWindowNoiseVariance", "window mechanisms: τ², the variance of xᵀEx for a unit x, "
                            + "of the first release whose window is full (later releases state their own)"),
                    integer("maxStateBytes", "window mechanisms: the most bytes of matrices the subscription's "
                            + "persisted state holds between releases"),
                    number("noiseVariance", "LINEAR_QUERIES: variance of each noisy measurement (Laplace: the "
                            + "discrete Laplace's exact variance; Gaussian: σ²)"),
                    integer("queries", "LINEAR_QUERIES: m, the number of queries in the workload"),
                    integer("strategyRows", "LINEAR_QUERIES: rows of the strategy A, the number of noisy measurements"),
                    string("strategyMethod", "LINEAR_QUERIES: the strategy (IDENTITY, HIERARCHICAL, OPTIMIZED/CONVEX, "
                            + "LOW_RANK, …; WORKLOAD for LAPLACE_WORKLOAD)"),
                    string("strategyKey", "OPTIMIZED and LOW_RANK_MECHANISM: the public strategy's id "
                            + "(GET /v1/strategies/{key})"),
                    number("expectedRmsePerQuery", "LINEAR_QUERIES: the expected root-mean-square error per query, "
                            + "√(E‖answers − Wx‖²/m), from public values before anything is spent"),
                    number("expectedTotalSquaredError", "LINEAR_QUERIES: E‖answers − Wx‖² from the noise"),
                    number("maxQueryStandardDeviation", "LINEAR_QUERIES: the largest per-query standard deviation"),
                    number("residualFrobenius", "LOW_RANK_MECHANISM: ‖W − BL‖_F of its factorisation; the answers "
                            + "also carry the data-dependent bias (BL − W)x, at most ‖W − BL‖_F·‖x‖₂, not part of the "
                            + "expected error")));

    /** Public facts and error bounds of a low-rank factorisation (LOW_RANK, TOP_SINGULAR_VECTORS). */
    public static final FactVocabulary FACTORIZATION = new FactVocabulary("FactorizationFacts", "Facts about a "
            + "released factorisation: the public noise levels and error bounds it was produced with, and "
            + "post-processing applied (released values; which facts appear depends on the mechanism).", List.of(
                    number("sigma", "RANDOMIZED_RESPONSE: standard deviation of the noise on each entry"),
                    number("l2Sensitivity", "RANDOMIZED_RESPONSE: L2 sensitivity of X the noise is calibrated to"),
                    number("noiseSpectralNormBound95", "spectral norm of one noise matrix, bound holding with "
                            + "probability ≥ 0.95"),
                    number("noiseNormBound95", "PRIVATE_OJA: norm of one step's noise vector, bound holding with "
                            + "probability ≥ 0.95"),
                    string("errorBound", "the error bound these facts give, in words"),
                    integer("oversampledRank", "HARDT_ROTH: ℓ = min(d, k + oversampling)"),
                    number("rangeFinderSensitivity", "HARDT_ROTH: L2 sensitivity of the range finder X·Ω"),
                    number("rangeFinderSigma", "HARDT_ROTH: noise standard deviation of the range finder"),
                    number("pruningThreshold", "HARDT_ROTH: the public pruning threshold τ"),
                    number("prunedFraction", "HARDT_ROTH: fraction of the (private) basis entries zeroed by pruning"),
                    string("orientation", "HARDT_ROTH_RATING and RANDOMIZED_RESPONSE_RATING: USERS_AS_ROWS or "
                            + "ITEMS_AS_ROWS, the side the mechanism took as rows; u (m × k) is per user and v "
                            + "(n × k) per item in either case"),
                    string("projectionNoise", "HARDT_ROTH: how the projection step's noise was scaled"),
                    number("rangeFinderNoiseBound95", "HARDT_ROTH: spectral norm of the range finder's noise, "
                            + "probability ≥ 0.95"),
                    number("projectionNoiseBound95", "HARDT_ROTH: spectral norm of the projection's noise, "
                            + "probability ≥ 0.95"),
                    integer("iterations", "iterative mechanisms: the number of noisy steps"),
                    number("sigmaPerIteration", "iterative mechanisms: noise standard deviation per step"),
                    number("l2SensitivityPerIteration", "NOISY_POWER: L2 sensitivity per step (B²√k, grid-inflated)"),
                    number("stepSize", "PRIVATE_OJA: the step size η"),
                    string("singularValues", "NOISY_POWER: how the singular values were estimated"),
                    string("singularValue", "PRIVATE_OJA: how the singular value was estimated"),
                    string("spectrum", "ORBIT_SAMPLING: PROJECTION or PEELING"),
                    number("epsilonEigenvalues", "ORBIT_SAMPLING PROJECTION: epsilon spent on the eigenvalues"),
                    number("epsilonSubspace", "ORBIT_SAMPLING PROJECTION: epsilon spent on the subspace"),
                    string("guarantee", "ORBIT_SAMPLING: the guarantee, in words"),
                    string("note", "ORBIT_SAMPLING: how to read the released values"),
                    string("shrinkage", "shrink: the shrinkage applied to the singular values (post-processing)"),
                    integer("componentsAboveNoise", "shrink: components whose singular value survived shrinkage")));

    /** Public facts stored with a release that answers later queries for free (sketches, covariances). */
    public static final FactVocabulary RELEASE_META = new FactVocabulary("ReleaseMeta", "Public facts behind a "
            + "stored release's error bounds: JL sketches (r, floor, epsilon, delta, eta, nu, b2, vertices), "
            + "Wishart matrices (degrees, b2, granularity, nu), Gaussian covariances (sigma, granularity, nu), "
            + "window releases of a stream (block, firstBlock, windowRows, noiseVariance, roundingBound, "
            + "granularity, nu, b2, vertices), histogram estimates of LINEAR_QUERIES (noiseVariance, domain, "
            + "strategyMethod, strategyKey, biased).",
            List.of(
                    integer("r", "JL: the number of random projections"),
                    number("floor", "JL: the public eigenvalue floor W (matrices) or the overlay weight w (graphs)"),
                    number("epsilon", "JL: the epsilon the sketch was calibrated to"),
                    number("delta", "JL: the delta the sketch was calibrated to"),
                    number("eta", "JL: multiplicative accuracy of the answers"),
                    number("nu", "failure probability of each stated interval"),
                    number("b2", "B², the squared row-norm bound"),
                    integer("vertices", "graph sketches: the public vertex count"),
                    integer("degrees", "WISHART: degrees of freedom k of the noise"),
                    number("granularity", "spacing of the grid of the noise"),
                    number("sigma", "ANALYZE_GAUSS: standard deviation of the noise"),
                    integer("block", "window releases: the index of the stream's last block in the window "
                            + "(counted from the subscription's first block)"),
                    integer("firstBlock", "window releases: the index of the window's first block"),
                    integer("windowRows", "window releases: the rows in the window, when public (ROW_COUNT blocks)"),
                    number("noiseVariance", "window releases: τ², the variance of xᵀEx for a unit x; histogram "
                            + "estimates: the variance of each noisy measurement of the strategy"),
                    number("roundingBound", "window releases: the most one entry moved by grid rounding"),
                    string("domain", "histogram estimates: the dataset's attributes and sizes, e.g. age:16,region:8 "
                            + "(cells in row-major order, the first attribute slowest)"),
                    string("strategyMethod", "histogram estimates: the strategy the estimate was made with "
                            + "(IDENTITY, HIERARCHICAL, OPTIMIZED/…, LOW_RANK)"),
                    string("strategyKey", "histogram estimates of OPTIMIZED and LOW_RANK_MECHANISM: the public "
                            + "strategy's id (GET /v1/strategies/{key})"),
                    bool("biased", "histogram estimates: true when the estimate is biased (the Low-Rank "
                            + "Mechanism's factorisation does not reproduce every query; answers state a bias factor)"),
                    string("model", "completion models: FRANK_WOLFE (T directions of n, then λ̂ and λ̂′), SVD (n × r "
                            + "directions, then r eigenvalues) or ALS (n × r item factors), the stored values' layout"),
                    integer("items", "completion models: the item count n"),
                    integer("iterations", "completion models of FRANK_WOLFE and ALS: T"),
                    integer("rank", "completion models of SVD and ALS: r")));

    private final String name;
    private final String description;
    private final Map<String, Field> fields = new LinkedHashMap<>();

    private FactVocabulary(String name, String description, List<Field> declared) {
        this.name = name;
        this.description = description;
        declared.forEach(f -> {
            if (fields.put(f.name(), f) != null) {
                throw new IllegalArgumentException("fact " + f.name() + " declared twice in " + name);
            }
        });
    }

    /** The schema name of this document in the served contract. */
    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    public List<Field> fields() {
        return List.copyOf(fields.values());
    }

    /**
     * Checks a document against the vocabulary.
     *
     * @throws IllegalArgumentException naming the first fact that is not declared or has the wrong type
     */
    public void check(Map<String, ?> document) {
        document.forEach((key, value) -> {
            Field f = fields.get(key);
            if (f == null) {
                throw new IllegalArgumentException(name + ": fact '" + key + "' is not declared in FactVocabulary");
            }
            if (!accepts(f.type(), value)) {
                throw new IllegalArgumentException(name + ": fact '" + key + "' must be " + f.type() + ", was "
                        + (value == null ? "null" : value.getClass().getSimpleName()));
            }
        });
    }

    private static boolean accepts(Type type, Object value) {
        return switch (type) {
            case STRING -> value instanceof String;
            case BOOLEAN -> value instanceof Boolean;
            case INTEGER -> value instanceof Integer || value instanceof Long || value instanceof Short
                    || value instanceof Byte;
            case NUMBER -> value instanceof Number n && Double.isFinite(n.doubleValue());
        };
    }

    private static Field number(String name, String description) {
        return new Field(name, Type.NUMBER, description);
    }

    private static Field integer(String name, String description) {
        return new Field(name, Type.INTEGER, description);
    }

    private static Field bool(String name, String description) {
        return new Field(name, Type.BOOLEAN, description);
    }

    private static Field string(String name, String description) {
        return new Field(name, Type.STRING, description);
    }
}
