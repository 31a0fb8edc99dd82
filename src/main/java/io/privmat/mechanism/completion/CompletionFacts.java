package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.FactVocabulary;

/**
 * The public facts a completion model carries (noise scales, sensitivities, bounds of the run),
 * rendered as a COMPLETION result's {@code facts} (an object in the served contract, not a schema of
 * its own). Which facts appear depends on the mechanism (docs/mechanisms/completion.md).
 */
public final class CompletionFacts {

    /** The vocabulary these facts belong to. */
    public static final FactVocabulary VOCABULARY = new FactVocabulary("CompletionFacts",
            "public facts of the run (noise scales, sensitivities, bounds)");

    public static final Fact<String> VARIANT = VOCABULARY.string("variant",
            "PRIVATE_FRANK_WOLFE: DENSE (W held and released exactly on the grid)");

    public static final Fact<Double> FROBENIUS_SENSITIVITY = VOCABULARY.number("frobeniusSensitivity",
            "Frobenius sensitivity of each released Gram (after the first, for PRIVATE_FRANK_WOLFE)");

    public static final Fact<Double> FIRST_FROBENIUS_SENSITIVITY = VOCABULARY.number("firstFrobeniusSensitivity",
            "PRIVATE_FRANK_WOLFE: Frobenius sensitivity of the first released Gram");

    public static final Fact<Double> GRAM_SENSITIVITY = VOCABULARY.number("gramSensitivity",
            "DP_ALS: L2 sensitivity of the stacked item Grams");

    public static final Fact<Double> RHS_SENSITIVITY = VOCABULARY.number("rhsSensitivity",
            "DP_ALS: L2 sensitivity of the stacked right-hand sides");

    public static final Fact<Double> SIGMA = VOCABULARY.number("sigma",
            "noise standard deviation per entry of each released Gram (after the first, for PRIVATE_FRANK_WOLFE)");

    public static final Fact<Double> FIRST_SIGMA = VOCABULARY.number("firstSigma",
            "PRIVATE_FRANK_WOLFE: noise standard deviation of the first release");

    public static final Fact<Double> GRAM_SIGMA = VOCABULARY.number("gramSigma",
            "DP_ALS: noise standard deviation per entry of each item's released Gram");

    public static final Fact<Double> RHS_SIGMA = VOCABULARY.number("rhsSigma",
            "DP_ALS: noise standard deviation per entry of each item's right-hand side");

    public static final Fact<Double> GRANULARITY = VOCABULARY.number("granularity",
            "spacing of the grid of the noise");

    public static final Fact<Double> ROW_BOUND = VOCABULARY.number("rowBound",
            "L, the bound on a user's centred row");

    public static final Fact<Double> CENTRE = VOCABULARY.number("centre", "the public point ratings are centred at");

    public static final Fact<String> LOCAL_FIT = VOCABULARY.string("localFit",
            "PRIVATE_SVD: how each user's row is fitted to the released directions");

    public static final Fact<Double> NOISE_SPECTRAL_BOUND = VOCABULARY.number("noiseSpectralBound",
            "PRIVATE_FRANK_WOLFE: the bound on the spectral norm of each later release's noise");

    public static final Fact<Double> FIRST_NOISE_SPECTRAL_BOUND = VOCABULARY.number("firstNoiseSpectralBound",
            "PRIVATE_FRANK_WOLFE: the bound on the spectral norm of the first release's noise");

    public static final Fact<Double> NOISE_SPECTRAL_BOUND_PROBABILITY = VOCABULARY.number(
            "noiseSpectralBoundProbability", "PRIVATE_FRANK_WOLFE: the probability the noise bounds hold with");

    public static final Fact<Double> NOISE_SPECTRAL_BOUND95 = VOCABULARY.number("noiseSpectralBound95",
            "PRIVATE_SVD: spectral norm of the released Gram's noise, bound holding with probability ≥ 0.95");

    public static final Fact<Integer> LANCZOS_STEPS = VOCABULARY.integer("lanczosSteps",
            "PRIVATE_FRANK_WOLFE: the Lanczos steps of each eigenvector computation");

    public static final Fact<String> NUMERICS = VOCABULARY.string("numerics",
            "what is exact on the grid and what is float post-processing");

    private CompletionFacts() {}
}
