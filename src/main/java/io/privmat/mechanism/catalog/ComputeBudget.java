package io.privmat.mechanism.catalog;

/**
 * What one strategy computation may use, set by the service from its limits (public values): a
 * number of floating-point operations (its wall-clock limit at a reference rate) and bytes of
 * memory. An optimisation stops when its next iteration would exceed the operations (a
 * deterministic cap: the strategy is a function of the workload and the budget, which is part of its
 * cache key); a computation whose smallest useful run exceeds either is refused before it is queued
 * ({@link io.privmat.mechanism.linear.StrategyCost}).
 *
 * @param maxFlops floating-point operations, counted as the linear family's {@code StrategyCost} counts them
 * @param maxBytes memory, as {@code StrategyCost} estimates it
 * @param flopsPerSecond the reference rate that turns operations into seconds (maxFlops is the
 *     wall-clock limit times this rate)
 */
public record ComputeBudget(double maxFlops, long maxBytes, double flopsPerSecond) {

    /** No limit (tests, and the mechanism's own declarations). */
    public static final ComputeBudget UNLIMITED = new ComputeBudget(Double.POSITIVE_INFINITY, Long.MAX_VALUE, 1e9);

    public ComputeBudget {
        if (!(maxFlops > 0) || maxBytes <= 0 || !(flopsPerSecond > 0) || Double.isInfinite(flopsPerSecond)) {
            throw new IllegalArgumentException("a compute budget must be positive");
        }
    }

    /** Seconds at the reference rate. */
    public double seconds(double flops) {
        return flops / flopsPerSecond;
    }
}
