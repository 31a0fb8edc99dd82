package io.privmat.mechanism.catalog;

import org.jspecify.annotations.Nullable;

/**
 * A machine-readable word that an answer is mostly noise (docs/accuracy/warnings.md). A quote states
 * it from public parameters only: the noise is at least the largest value any dataset with these
 * public facts could give. A result states it from the released values and public parameters only
 * (post-processing: free, and nothing about the data beyond the release): a released value, or most
 * of them, within the noise. Made by {@link SignalToNoise}; every family uses these two codes.
 *
 * @param code what was found
 * @param quantity the released quantity, named as in the error statements ({@code eigenvalues},
 *     {@code answers}, {@code cut}, …)
 * @param noiseLevel the noise figure compared, in the quantity's units (a half-width or a norm bound)
 * @param level the probability that the noise is at most {@code noiseLevel}; null for a
 *     root-mean-square figure
 * @param comparedWith what the noise was compared with, in the same units: the largest value the public
 *     facts allow (quotes), the largest released value (spectra) or the median released magnitude
 *     (answers, sums, coefficients)
 * @param resolved results: how many released entries stand clear of the noise (interval excludes 0, or
 *     value above the noise level); null in quotes
 * @param entries results: how many entries were compared; null in quotes
 * @param detail one sentence: what was compared with what, and what follows for the answer
 */
public record NoiseWarning(Code code, String quantity, double noiseLevel, @Nullable Double level,
        double comparedWith, @Nullable Integer resolved, @Nullable Integer entries, String detail) {

    /** What a warning says. */
    public enum Code {
        /**
         * The quantity as a whole is within its noise: the answer says more about the noise than about
         * the data (a quote: whatever the data are).
         */
        NOISE_DOMINATED,
        /**
         * The top components of a spectrum stand clear of the noise, the others do not: only the first
         * {@code resolved} of the {@code entries} released are signal.
         */
        COMPONENTS_IN_NOISE
    }

    public NoiseWarning {
        if (!(noiseLevel >= 0) || Double.isInfinite(noiseLevel) || !Double.isFinite(comparedWith)) {
            throw new IllegalArgumentException(quantity + ": a warning compares finite figures");
        }
        if ((resolved == null) != (entries == null) || resolved != null && (resolved < 0 || resolved > entries)) {
            throw new IllegalArgumentException(quantity + ": resolved must be in [0, entries], both or neither given");
        }
    }
}
