package io.privmat.mechanism.analytics;

/**
 * Coefficients of a linear regression of one column on others, each with its interval.
 *
 * <p>The estimand is the data's ridge solution β_λ = (X_SᵀX_S + λI)⁻¹X_Sᵀy at the reported λ
 * ({@code ridge}; ordinary least squares when λ = 0), without intercept (add a constant column to the
 * data for one). {@code lower}/{@code upper} are of the kind {@link #intervals} names; the
 * {@code approximate*} intervals come from a first-order (delta-method) normal approximation and
 * carry no guarantee: their calibration is measured in docs/accuracy/analytics.md.
 *
 * @param predictors the predictor columns S, in request order (coefficient j belongs to predictors[j])
 * @param ridge λ, relative to the debiased second moment (the data's own XᵀX)
 * @param ridgeRule how λ was chosen
 * @param level the coverage the intervals are stated at
 * @param lower +∞ wide (−∞) where the release implies no finite bound
 */
public record RegressionResult(int response, int[] predictors, double ridge, String ridgeRule, double level,
        double[] estimate, double[] lower, double[] upper, Intervals intervals, double[] approximateLower,
        double[] approximateUpper, double[] approximateStandardError) {

    /** What {@code lower}/{@code upper} are. */
    public enum Intervals {
        /**
         * Bounds that hold for all coefficients at once with probability at least {@code level}
         * (conservative: derived from norm bounds on the noise).
         */
        SIMULTANEOUS_BOUND,
        /** Exact Student-t intervals, each with coverage exactly {@code level} (the JL sketch). */
        EXACT_T
    }

    /** The estimand, in words. */
    public String estimand() {
        return "the data's ridge coefficients (X_SᵀX_S + λI)⁻¹X_Sᵀy at λ = " + ridge
                + (ridge == 0 ? " (ordinary least squares)" : "") + ", no intercept";
    }
}
