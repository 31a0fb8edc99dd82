package io.privmat.mechanism.sketch;

/** An estimate and the interval that holds with the release's stated probability. */
public record Interval(double estimate, double lower, double upper) {

    /**
     * The values Φ consistent with |Φ̂ − Φ| ≤ η·Φ + η·A (a relative plus an additive term), Φ ≥ 0:
     * Φ ∈ [(Φ̂ − ηA)/(1 + η), (Φ̂ + ηA)/(1 − η)].
     */
    static Interval relative(double estimate, double eta, double additive) {
        double lower = Math.max(0, (estimate - eta * additive) / (1 + eta));
        double upper = (estimate + eta * additive) / (1 - eta);
        return new Interval(estimate, lower, Math.max(lower, upper));
    }

    /** Φ̂ ± half, Φ ≥ 0. */
    static Interval symmetric(double estimate, double half) {
        return new Interval(estimate, Math.max(0, estimate - half), Math.max(0, estimate + half));
    }
}
