package io.privmat.mechanism.catalog;

/**
 * How an error figure or an interval is known (docs/accuracy/intervals.md):
 * <ul>
 *   <li>{@code EXACT}: the noise distribution gives it exactly (a quantile or a variance of the
 *       continuous law the grid noise follows; coverage equals the level up to the grid);</li>
 *   <li>{@code BOUND}: a non-asymptotic theorem bounds it, so coverage is at least the level;</li>
 *   <li>{@code ASYMPTOTIC}: a first-order or large-n approximation, coverage near the level only in
 *       that regime;</li>
 *   <li>{@code EMPIRICAL}: calibrated by seeded simulation (the docs give the runs), no theorem.</li>
 * </ul>
 */
public enum ErrorBasis {
    EXACT, BOUND, ASYMPTOTIC, EMPIRICAL
}
