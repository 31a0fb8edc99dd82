package io.privmat.support;

import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * How long a test waits for something the machine must do (a replica to become ready, a job to
 * settle, a process to exit), scaled to how loaded the machine is: a wait is never shorter than
 * written, and on a busy machine it grows with the load average per core, up to {@link #MAX} times.
 * {@code -Dprivmat.test.patience=<factor>} fixes the factor (1 to wait exactly as written).
 *
 * <p>Only waits scale. What a test asserts about the service (its leases, graces, rate windows)
 * does not: a test that passes only with a longer lease proves nothing about the lease.
 */
public final class Patience {

    /** The largest factor: a 2-minute readiness wait becomes at most 8 minutes. */
    public static final double MAX = 4;

    private Patience() {}

    /** The current factor, in [1, {@link #MAX}]. */
    public static double factor() {
        String fixed = System.getProperty("privmat.test.patience");
        double factor;
        if (fixed != null && !fixed.isBlank()) {
            factor = Double.parseDouble(fixed.strip());
        } else {
            double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            int cores = Runtime.getRuntime().availableProcessors();
            factor = load < 0 ? 1 : load / cores; // negative: the platform has no load average
        }
        return Math.min(MAX, Math.max(1, factor));
    }

    /** {@code base} scaled by the current factor. */
    public static Duration of(Duration base) {
        return Duration.ofMillis(millis(base.toMillis()));
    }

    public static long millis(long base) {
        return (long) Math.ceil(base * factor());
    }

    public static int seconds(int base) {
        return (int) Math.ceil(base * factor());
    }

    /** A deadline {@code base} (scaled) from now, in {@link System#nanoTime()} terms. */
    public static long deadline(Duration base) {
        return System.nanoTime() + of(base).toNanos();
    }
}
