package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.FactVocabulary;

/**
 * The public facts and error bounds of a released low-rank factorisation (LOW_RANK,
 * TOP_SINGULAR_VECTORS) and of a completion model; the mechanism contract tests check every release's.
 * A fact declared here with no text means something particular to each mechanism that writes it: the
 * mechanism describes it (MechanismDefinition.factNotes).
 * Served as the {@code FactorizationFacts} schema, generated from these declarations in their order (descriptions
 * from MechanismCatalog.description).
 */
public final class FactorizationFacts {

    /** The vocabulary these facts belong to (the schema's name and description). */
    public static final FactVocabulary VOCABULARY = new FactVocabulary("FactorizationFacts",
            "Facts about a released factorisation: the public noise levels and error bounds it was produced with, "
            + "and post-processing applied (released values; which facts appear depends on the mechanism).");

    public static final Fact<Double> SIGMA = VOCABULARY.number("sigma", "");

    public static final Fact<Double> L2_SENSITIVITY = VOCABULARY.number("l2Sensitivity", "");

    public static final Fact<Double> NOISE_SPECTRAL_NORM_BOUND95 = VOCABULARY.number("noiseSpectralNormBound95",
            "spectral norm of one noise matrix, bound holding with probability ≥ 0.95");

    public static final Fact<Double> NOISE_NORM_BOUND95 = VOCABULARY.number("noiseNormBound95", "");

    public static final Fact<String> ERROR_BOUND = VOCABULARY.string("errorBound",
            "the error bound these facts give, in words");

    public static final Fact<Integer> OVERSAMPLED_RANK = VOCABULARY.integer("oversampledRank", "");

    public static final Fact<Double> RANGE_FINDER_SENSITIVITY = VOCABULARY.number("rangeFinderSensitivity", "");

    public static final Fact<Double> RANGE_FINDER_SIGMA = VOCABULARY.number("rangeFinderSigma", "");

    public static final Fact<Double> PRUNING_THRESHOLD = VOCABULARY.number("pruningThreshold", "");

    public static final Fact<Double> PRUNED_FRACTION = VOCABULARY.number("prunedFraction", "");

    public static final Fact<String> ORIENTATION = VOCABULARY.string("orientation", "");

    public static final Fact<String> PROJECTION_NOISE = VOCABULARY.string("projectionNoise", "");

    public static final Fact<Double> RANGE_FINDER_NOISE_BOUND95 = VOCABULARY.number("rangeFinderNoiseBound95", "");

    public static final Fact<Double> PROJECTION_NOISE_BOUND95 = VOCABULARY.number("projectionNoiseBound95", "");

    public static final Fact<Integer> ITERATIONS = VOCABULARY.integer("iterations",
            "iterative mechanisms: the number of noisy steps");

    public static final Fact<Double> SIGMA_PER_ITERATION = VOCABULARY.number("sigmaPerIteration",
            "iterative mechanisms: noise standard deviation per step");

    public static final Fact<Double> L2_SENSITIVITY_PER_ITERATION = VOCABULARY.number("l2SensitivityPerIteration", "");

    public static final Fact<Double> STEP_SIZE = VOCABULARY.number("stepSize", "");

    public static final Fact<String> SINGULAR_VALUES = VOCABULARY.string("singularValues", "");

    public static final Fact<String> SINGULAR_VALUE = VOCABULARY.string("singularValue", "");

    public static final Fact<String> SPECTRUM = VOCABULARY.string("spectrum", "");

    public static final Fact<Double> EPSILON_EIGENVALUES = VOCABULARY.number("epsilonEigenvalues", "");

    public static final Fact<Double> EPSILON_SUBSPACE = VOCABULARY.number("epsilonSubspace", "");

    public static final Fact<String> GUARANTEE = VOCABULARY.string("guarantee", "");

    public static final Fact<String> NOTE = VOCABULARY.string("note", "");

    public static final Fact<String> SHRINKAGE = VOCABULARY.string("shrinkage",
            "shrink: the shrinkage applied to the singular values (post-processing)");

    public static final Fact<Integer> COMPONENTS_ABOVE_NOISE = VOCABULARY.integer("componentsAboveNoise",
            "shrink: components whose singular value survived shrinkage");

    private FactorizationFacts() {}
}
