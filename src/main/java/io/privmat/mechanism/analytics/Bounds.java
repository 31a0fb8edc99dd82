package io.privmat.mechanism.analytics;

/**
 * An estimate and an interval that holds with the stated probability; {@code upper} may be +∞ (no
 * finite bound follows from the release). The estimate always lies in [lower, upper].
 */
public record Bounds(double estimate, double lower, double upper) {

    public Bounds {
        if (!(lower <= estimate && estimate <= upper)) {
            throw new IllegalArgumentException("estimate outside its interval");
        }
    }

    /**
     * For a non-negative quantity: the raw estimate and interval (raw lower ≤ raw ≤ raw upper)
     * clamped at 0. Clamping is monotone, so the clamped estimate stays inside the clamped interval.
     */
    static Bounds nonNegative(double raw, double lower, double upper) {
        return new Bounds(Math.max(0, raw), Math.max(0, Math.min(lower, raw)), Math.max(0, Math.max(upper, raw)));
    }

    /** estimate ± half (half may be +∞). */
    static Bounds symmetric(double estimate, double half) {
        return new Bounds(estimate, estimate - half, estimate + half);
    }
}
