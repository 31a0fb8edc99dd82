package io.privmat.mechanism.catalog;

/**
 * Intervals for the entries of one released quantity, each holding with probability ≥ {@code level}
 * on its own (marginal coverage; a simultaneous statement is an {@link ErrorStatement}). Computed
 * from released values and public parameters only. Every interval contains its estimate: where the
 * truth is known to be non-negative the estimate and the interval are clamped at 0 ({@code clamp}
 * says so), never one without the other.
 *
 * @param quantity the released quantity, e.g. {@code columnSums}, {@code eigenvalues}
 * @param basis how the coverage is known
 * @param level the marginal coverage of each interval
 * @param estimate the released point estimate of each entry (after any stated clamp)
 * @param lower lower ends
 * @param upper upper ends
 * @param clamp how non-negativity was used, or {@code "none"}
 */
public record IntervalSet(String quantity, ErrorBasis basis, double level, double[] estimate, double[] lower,
        double[] upper, String clamp) {

    public IntervalSet {
        if (estimate.length != lower.length || estimate.length != upper.length) {
            throw new IllegalArgumentException(quantity + ": estimate, lower and upper differ in length");
        }
        for (int i = 0; i < estimate.length; i++) {
            if (!(lower[i] <= estimate[i] && estimate[i] <= upper[i])) {
                throw new IllegalArgumentException(quantity + "[" + i + "]: interval [" + lower[i] + ", " + upper[i]
                        + "] does not contain its estimate " + estimate[i]);
            }
        }
    }

    /** estimate ± half for each entry, no clamp. */
    public static IntervalSet symmetric(String quantity, ErrorBasis basis, double level, double[] estimate,
            double half) {
        double[] lo = new double[estimate.length];
        double[] hi = new double[estimate.length];
        for (int i = 0; i < estimate.length; i++) {
            lo[i] = estimate[i] - half;
            hi[i] = estimate[i] + half;
        }
        return new IntervalSet(quantity, basis, level, estimate.clone(), lo, hi, "none");
    }

    /**
     * estimate ± half for a non-negative truth: the interval is intersected with [0, ∞) and the
     * estimate clamped to max(estimate, 0) (moving it towards the truth's range never increases
     * its error), so the interval still contains it.
     */
    public static IntervalSet nonNegative(String quantity, ErrorBasis basis, double level, double[] estimate,
            double half) {
        double[] est = new double[estimate.length];
        double[] lo = new double[estimate.length];
        double[] hi = new double[estimate.length];
        for (int i = 0; i < estimate.length; i++) {
            est[i] = Math.max(0, estimate[i]);
            lo[i] = Math.max(0, estimate[i] - half);
            hi[i] = Math.max(est[i], estimate[i] + half);
        }
        return new IntervalSet(quantity, basis, level, est, lo, hi, "truth ≥ 0: estimate and lower end clamped at 0");
    }

    /** Whether entry i's interval contains {@code truth}. */
    public boolean covers(int i, double truth) {
        return lower[i] <= truth && truth <= upper[i];
    }
}
