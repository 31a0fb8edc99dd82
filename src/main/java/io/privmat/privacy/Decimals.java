package io.privmat.privacy;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Exact decimal arithmetic for budget tracks, and directed conversions between double and
 * {@link BigDecimal}. Sums of charges are exact, so ten charges of ε = 0.1 spend exactly 1.
 */
public final class Decimals {

    /** 34 significant digits, rounding toward +∞ (costs). */
    static final MathContext UP = new MathContext(34, RoundingMode.CEILING);
    /** 34 significant digits, rounding toward −∞ (caps). */
    static final MathContext DOWN = new MathContext(34, RoundingMode.FLOOR);

    /** 17 significant digits toward −∞: caps derived from doubles, shown without binary noise. */
    static final MathContext DOWN_SHORT = new MathContext(17, RoundingMode.FLOOR);
    /** 17 significant digits toward +∞: reported guarantees. */
    static final MathContext UP_SHORT = new MathContext(17, RoundingMode.CEILING);

    private Decimals() {}

    /** The exact decimal value of a double already rounded in the safe direction. */
    public static BigDecimal exact(double value) {
        return new BigDecimal(value);
    }

    /** The decimal of a double as written (shortest representation), for caller-given parameters. */
    public static BigDecimal of(double value) {
        Checks.finite("value", value);
        return new BigDecimal(Double.toString(value));
    }

    /** The largest double ≤ value. */
    public static double toDoubleDown(BigDecimal value) {
        double d = value.doubleValue();
        return new BigDecimal(d).compareTo(value) > 0 ? Math.nextDown(d) : d;
    }

    /** The smallest double ≥ value. */
    public static double toDoubleUp(BigDecimal value) {
        double d = value.doubleValue();
        return new BigDecimal(d).compareTo(value) < 0 ? Math.nextUp(d) : d;
    }

    /** ε²/2 rounded up. */
    static BigDecimal halfSquareUp(BigDecimal x) {
        return x.multiply(x).divide(BigDecimal.valueOf(2), UP);
    }

    /** ε²/8 rounded up. */
    static BigDecimal eighthSquareUp(BigDecimal x) {
        return x.multiply(x).divide(BigDecimal.valueOf(8), UP);
    }
}
