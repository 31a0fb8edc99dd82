package io.privmat.mechanism.sketch;

/**
 * An estimate and the interval that holds with the release's stated probability. The interval
 * always contains its estimate. Every quantity answered this way (a directional variance ‖Xx‖², a
 * cut) is non-negative: the raw estimate from the noisy release may fall below 0, and is then
 * clamped to 0 together with the interval's lower end (docs/accuracy/intervals.md): clamping moves
 * the estimate towards every admissible value, so it never increases the error.
 */
public record Interval(double estimate, double lower, double upper) {

    public Interval {
        if (!(lower <= estimate && estimate <= upper)) {
            throw new IllegalArgumentException("interval [" + lower + ", " + upper + "] does not contain its estimate "
                    + estimate);
        }
    }

    /**
     * The values Φ consistent with |Φ̂ − Φ| ≤ η·Φ + η·A (a relative plus an additive term), Φ ≥ 0:
     * Φ ∈ [(Φ̂ − ηA)/(1 + η), (Φ̂ + ηA)/(1 − η)]; the estimate is clamped to max(Φ̂, 0).
     */
    static Interval relative(double estimate, double eta, double additive) {
        double clamped = Math.max(0, estimate);
        double lower = Math.min(clamped, Math.max(0, (estimate - eta * additive) / (1 + eta)));
        double upper = Math.max(clamped, (estimate + eta * additive) / (1 - eta));
        return new Interval(clamped, lower, upper);
    }

    /** Φ̂ ± half for Φ ≥ 0: estimate max(Φ̂, 0), interval [max(Φ̂ − half, 0), max(Φ̂ + half, 0)]. */
    public static Interval nonNegative(double estimate, double half) {
        double clamped = Math.max(0, estimate);
        return new Interval(clamped, Math.min(clamped, Math.max(0, estimate - half)), Math.max(clamped,
                estimate + half));
    }

    static Interval symmetric(double estimate, double half) {
        return nonNegative(estimate, half);
    }
}
