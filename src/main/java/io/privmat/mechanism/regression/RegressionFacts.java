package io.privmat.mechanism.regression;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.FactVocabulary;

/**
 * The values an ADASSP regression released besides its coefficients, rendered as the result's
 * {@code released} document: λ_min(XᵀX) as released, the lower bound it was clipped to, and the noise
 * bound η that set the ridge. Private output of a DP release (not served as a schema of its own).
 */
public final class RegressionFacts {

    /** The vocabulary these facts belong to. */
    public static final FactVocabulary VOCABULARY = new FactVocabulary("RegressionReleased",
            "Released values of an ADASSP regression besides its coefficients");

    public static final Fact<Double> MIN_EIGENVALUE = VOCABULARY.number("minEigenvalue",
            "the noisy λ_min(XᵀX) as released");

    public static final Fact<Double> MIN_EIGENVALUE_LOWER_BOUND = VOCABULARY.number("minEigenvalueLowerBound",
            "the lower bound of λ_min(XᵀX) that holds with the stated probability");

    public static final Fact<Double> ETA = VOCABULARY.number("eta", "the noise bound η that set the ridge");

    private RegressionFacts() {}
}
