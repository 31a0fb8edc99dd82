package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * Amounts on the budget tracks: ρ (zCDP), ε (pure and basic composition) and δ, as exact
 * decimals. A filter uses the tracks of its mode and leaves the others at 0. Sums are exact;
 * every rounding happened, in the safe direction, when a cost or a cap was computed.
 *
 * @param rho ρ ≥ 0
 * @param epsilon ε ≥ 0
 * @param delta δ ≥ 0
 */
public record Tracks(BigDecimal rho, BigDecimal epsilon, BigDecimal delta) {

    public static final Tracks ZERO = new Tracks(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO);

    public Tracks {
        Checks.nonNegative("rho", rho);
        Checks.nonNegative("epsilon", epsilon);
        Checks.nonNegative("delta", delta);
        // Canonical scale, so that equal amounts are equal records (1.0 equals 1).
        rho = rho.stripTrailingZeros();
        epsilon = epsilon.stripTrailingZeros();
        delta = delta.stripTrailingZeros();
    }

    public static Tracks ofRho(BigDecimal rho, BigDecimal delta) {
        return new Tracks(rho, BigDecimal.ZERO, delta);
    }

    public static Tracks ofEpsilon(BigDecimal epsilon, BigDecimal delta) {
        return new Tracks(BigDecimal.ZERO, epsilon, delta);
    }

    /** Exact component-wise sum. */
    public Tracks plus(Tracks other) {
        return new Tracks(rho.add(other.rho), epsilon.add(other.epsilon), delta.add(other.delta));
    }

    /** Exact component-wise {@code this − other}, floored at 0 (remaining budget). */
    public Tracks minusFloor(Tracks other) {
        return new Tracks(floor0(rho.subtract(other.rho)), floor0(epsilon.subtract(other.epsilon)),
                floor0(delta.subtract(other.delta)));
    }

    /** True iff every component is at most the matching component of {@code cap}. */
    public boolean fitsWithin(Tracks cap) {
        return rho.compareTo(cap.rho) <= 0 && epsilon.compareTo(cap.epsilon) <= 0 && delta.compareTo(cap.delta) <= 0;
    }

    /** True iff every component is zero. */
    public boolean isZero() {
        return rho.signum() == 0 && epsilon.signum() == 0 && delta.signum() == 0;
    }

    private static BigDecimal floor0(BigDecimal x) {
        return x.signum() < 0 ? BigDecimal.ZERO : x;
    }
}
