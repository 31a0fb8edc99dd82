package io.privmat.mechanism.catalog;

import org.jspecify.annotations.Nullable;

/**
 * One error figure: how far a released {@code quantity} is from the truth, in {@code metric}, at
 * probability {@code level} (null for an expectation such as a root-mean-square error). A quote
 * states them from public parameters only (before anything is spent, {@link
 * MechanismDefinition#expectedError}); a result states them from public parameters and released
 * values only ({@link MechanismDefinition#accuracy}).
 *
 * @param quantity what is released, e.g. {@code columnSums}, {@code covariance}, {@code eigenvalues}
 * @param metric one of {@link #METRICS}
 * @param value the error: a half-width, a norm, or a relative error (for {@code relative})
 * @param level probability that the error is at most {@code value}; null for an expectation
 * @param basis how it is known
 * @param derivation the theorem or the distribution behind it, in one sentence
 */
public record ErrorStatement(String quantity, String metric, double value, @Nullable Double level, ErrorBasis basis,
        String derivation) {

    /** The metrics statements use. */
    public static final java.util.List<String> METRICS = java.util.List.of(
            "rmsePerEntry", // √E(x̂ᵢ − xᵢ)² for each released entry
            "absPerEntry", // |x̂ᵢ − xᵢ| ≤ value for each entry, at the level (not simultaneously)
            "rmsePerQuery", // linear queries: √(E‖ŷ − y‖²/m)
            "frobeniusNorm", // ‖Â − A‖_F
            "spectralNorm", // ‖Â − A‖₂
            "absPerEigenvalue", // |λ̂ᵢ − λᵢ| for every i at once
            "capturedVarianceGap", // ‖A‖-scale loss: tr(VᵀAV) for the best rank-k V minus that of the released V̂
            "relative", // |â − a| ≤ value·(a + additive) for each answer (JL sketches)
            "absPerAnswer", // each free answer of a stored release, at the level
            "excessSpectralNorm", // ‖A − Âₖ‖₂ beyond the best rank-k error σₖ₊₁(A)
            "excessFrobeniusNorm", // E‖A − Âₖ‖_F beyond the data's own terms (stated in the derivation)
            "sinThetaTimesGap", // ‖(I − V̂V̂ᵀ)Vₖ‖₂·(λₖ − λₖ₊₁): divide by the eigengap for the subspace error
            "noiseNorm"); // norm of every step's noise vector at once (iterative mechanisms)

    public ErrorStatement {
        if (!METRICS.contains(metric)) {
            throw new IllegalArgumentException("undeclared metric " + metric);
        }
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(quantity + ": an error is finite and ≥ 0, got " + value);
        }
        if (level != null && !(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be in (0, 1)");
        }
    }
}
