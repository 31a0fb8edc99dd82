package io.privmat.privacy;

/**
 * Directed rounding for privacy arithmetic: costs go up, budgets go down.
 *
 * <p>Java has no directed-rounding float modes, so each helper widens the result by a relative
 * margin larger than the error of the few correctly or nearly correctly rounded operations
 * (+, ×, /, √, log, exp) that produced it, then steps one ulp further. {@link #upLoose} and
 * {@link #downLoose} carry the larger margin needed after evaluating Φ or after an optimisation.
 */
final class Rounding {

    /** ≈ 9e-16: covers a handful of basic operations. */
    private static final double TIGHT = 0x1p-50;
    /** 1e-12: covers Φ (≈1e-13 relative) and log/exp chains. */
    private static final double LOOSE = 1e-12;

    private Rounding() {}

    static double up(double x) {
        return Math.nextUp(x + Math.abs(x) * TIGHT);
    }

    static double down(double x) {
        return Math.nextDown(x - Math.abs(x) * TIGHT);
    }

    static double upLoose(double x) {
        return Math.nextUp(x + Math.abs(x) * LOOSE);
    }

    static double downLoose(double x) {
        return Math.nextDown(x - Math.abs(x) * LOOSE);
    }
}
