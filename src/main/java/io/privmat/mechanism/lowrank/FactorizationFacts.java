package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.FactVocabulary;

/**
 * The public facts and error bounds of a released low-rank factorisation (LOW_RANK,
 * TOP_SINGULAR_VECTORS) and of a completion model; the mechanism contract tests check every release's.
 * Served as the {@code FactorizationFacts} schema, generated from these declarations in their order.
 */
public final class FactorizationFacts {

    /** The vocabulary these facts belong to (the schema's name and description). */
    public static final FactVocabulary VOCABULARY = new FactVocabulary("FactorizationFacts",
            "Facts about a released factorisation: the public noise levels and error bounds it was produced with, "
            + "and post-processing applied (released values; which facts appear depends on the mechanism).");

    public static final Fact<Double> SIGMA = VOCABULARY.number("sigma",
            "RANDOMIZED_RESPONSE: standard deviation of the noise on each entry");

    public static final Fact<Double> L2_SENSITIVITY = VOCABULARY.number("l2Sensitivity",
            "RANDOMIZED_RESPONSE: L2 sensitivity of X the noise is calibrated to");

    public static final Fact<Double> NOISE_SPECTRAL_NORM_BOUND95 = VOCABULARY.number("noiseSpectralNormBound95",
            "spectral norm of one noise matrix, bound holding with probability ≥ 0.95");

    public static final Fact<Double> NOISE_NORM_BOUND95 = VOCABULARY.number("noiseNormBound95",
            "PRIVATE_OJA: norm of one step's noise vector, bound holding with probability ≥ 0.95");

    public static final Fact<String> ERROR_BOUND = VOCABULARY.string("errorBound",
            "the error bound these facts give, in words");

    public static final Fact<Integer> OVERSAMPLED_RANK = VOCABULARY.integer("oversampledRank",
            "HARDT_ROTH: ℓ = min(d, k + oversampling)");

    public static final Fact<Double> RANGE_FINDER_SENSITIVITY = VOCABULARY.number("rangeFinderSensitivity",
            "HARDT_ROTH: L2 sensitivity of the range finder X·Ω");

    public static final Fact<Double> RANGE_FINDER_SIGMA = VOCABULARY.number("rangeFinderSigma",
            "HARDT_ROTH: noise standard deviation of the range finder");

    public static final Fact<Double> PRUNING_THRESHOLD = VOCABULARY.number("pruningThreshold",
            "HARDT_ROTH: the public pruning threshold τ");

    public static final Fact<Double> PRUNED_FRACTION = VOCABULARY.number("prunedFraction",
            "HARDT_ROTH: fraction of the (private) basis entries zeroed by pruning");

    public static final Fact<String> ORIENTATION = VOCABULARY.string("orientation",
            "HARDT_ROTH_RATING and RANDOMIZED_RESPONSE_RATING: USERS_AS_ROWS or ITEMS_AS_ROWS, the side the "
            + "mechanism took as rows; u (m × k) is per user and v (n × k) per item in either case");

    public static final Fact<String> PROJECTION_NOISE = VOCABULARY.string("projectionNoise",
            "HARDT_ROTH: how the projection step's noise was scaled");

    public static final Fact<Double> RANGE_FINDER_NOISE_BOUND95 = VOCABULARY.number("rangeFinderNoiseBound95",
            "HARDT_ROTH: spectral norm of the range finder's noise, probability ≥ 0.95");

    public static final Fact<Double> PROJECTION_NOISE_BOUND95 = VOCABULARY.number("projectionNoiseBound95",
            "HARDT_ROTH: spectral norm of the projection's noise, probability ≥ 0.95");

    public static final Fact<Integer> ITERATIONS = VOCABULARY.integer("iterations",
            "iterative mechanisms: the number of noisy steps");

    public static final Fact<Double> SIGMA_PER_ITERATION = VOCABULARY.number("sigmaPerIteration",
            "iterative mechanisms: noise standard deviation per step");

    public static final Fact<Double> L2_SENSITIVITY_PER_ITERATION = VOCABULARY.number("l2SensitivityPerIteration",
            "NOISY_POWER: L2 sensitivity per step (B²√k, grid-inflated)");

    public static final Fact<Double> STEP_SIZE = VOCABULARY.number("stepSize", "PRIVATE_OJA: the step size η");

    public static final Fact<String> SINGULAR_VALUES = VOCABULARY.string("singularValues",
            "NOISY_POWER: how the singular values were estimated");

    public static final Fact<String> SINGULAR_VALUE = VOCABULARY.string("singularValue",
            "PRIVATE_OJA: how the singular value was estimated");

    public static final Fact<String> SPECTRUM = VOCABULARY.string("spectrum",
            "ORBIT_SAMPLING: PROJECTION or PEELING");

    public static final Fact<Double> EPSILON_EIGENVALUES = VOCABULARY.number("epsilonEigenvalues",
            "ORBIT_SAMPLING PROJECTION: epsilon spent on the eigenvalues");

    public static final Fact<Double> EPSILON_SUBSPACE = VOCABULARY.number("epsilonSubspace",
            "ORBIT_SAMPLING PROJECTION: epsilon spent on the subspace");

    public static final Fact<String> GUARANTEE = VOCABULARY.string("guarantee",
            "ORBIT_SAMPLING: the guarantee, in words");

    public static final Fact<String> NOTE = VOCABULARY.string("note",
            "ORBIT_SAMPLING: how to read the released values");

    public static final Fact<String> SHRINKAGE = VOCABULARY.string("shrinkage",
            "shrink: the shrinkage applied to the singular values (post-processing)");

    public static final Fact<Integer> COMPONENTS_ABOVE_NOISE = VOCABULARY.integer("componentsAboveNoise",
            "shrink: components whose singular value survived shrinkage");

    private FactorizationFacts() {}
}
