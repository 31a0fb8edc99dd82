package io.privmat.mechanism.catalog;

import java.util.List;

/**
 * The accuracy a result carries: per-entry intervals and norm-ball statements at one level, from
 * released values and public parameters only (never from the data).
 *
 * @param level the stated probability (0.95 unless asked otherwise)
 * @param intervals per-entry intervals of released quantities
 * @param bounds error statements about whole quantities (e.g. ‖Ĉ − C‖_F ≤ r)
 * @param note what the figures mean, what they leave out
 */
public record ResultAccuracy(double level, List<IntervalSet> intervals, List<ErrorStatement> bounds, String note) {

    /** The level of intervals and quoted errors unless a request asks for another. */
    public static final double DEFAULT_LEVEL = 0.95;

    public ResultAccuracy {
        intervals = List.copyOf(intervals);
        bounds = List.copyOf(bounds);
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be in (0, 1)");
        }
    }

    /** The interval set of {@code quantity}. */
    public IntervalSet interval(String quantity) {
        return intervals.stream().filter(i -> i.quantity().equals(quantity)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no intervals for " + quantity));
    }

    /** The statement about {@code quantity} in {@code metric}. */
    public ErrorStatement bound(String quantity, String metric) {
        return bounds.stream().filter(b -> b.quantity().equals(quantity) && b.metric().equals(metric)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no " + metric + " bound for " + quantity));
    }
}
