package io.privmat.privacy;

import java.math.BigDecimal;

/** Parameter checks whose messages name the parameter, the allowed range and the value. */
final class Checks {

    private Checks() {}

    static double finite(String name, double value) {
        if (!Double.isFinite(value)) {
            throw new PrivacyArgumentException(name, "finite",
                    name + " must be a finite number but was " + value);
        }
        return value;
    }

    static double nonNegative(String name, double value) {
        finite(name, value);
        if (value < 0) {
            throw new PrivacyArgumentException(name, "[0, ∞)",
                    name + " must be in [0, ∞) but was " + value);
        }
        return value;
    }

    static double positive(String name, double value) {
        finite(name, value);
        if (value <= 0) {
            throw new PrivacyArgumentException(name, "(0, ∞)",
                    name + " must be in (0, ∞) but was " + value);
        }
        return value;
    }

    /** {@code low < value <= high}. */
    static double inOpenClosed(String name, double value, double low, double high) {
        finite(name, value);
        if (!(value > low && value <= high)) {
            String range = "(" + fmt(low) + ", " + fmt(high) + "]";
            throw new PrivacyArgumentException(name, range,
                    name + " must be in " + range + " but was " + value);
        }
        return value;
    }

    /** {@code low <= value < high}. */
    static double inClosedOpen(String name, double value, double low, double high) {
        finite(name, value);
        if (!(value >= low && value < high)) {
            String range = "[" + fmt(low) + ", " + fmt(high) + ")";
            throw new PrivacyArgumentException(name, range,
                    name + " must be in " + range + " but was " + value);
        }
        return value;
    }

    /** {@code low < value < high}. */
    static double inOpen(String name, double value, double low, double high) {
        finite(name, value);
        if (!(value > low && value < high)) {
            String range = "(" + fmt(low) + ", " + fmt(high) + ")";
            throw new PrivacyArgumentException(name, range,
                    name + " must be in " + range + " but was " + value);
        }
        return value;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    static BigDecimal nonNegative(String name, BigDecimal value) {
        present(name, value);
        if (value.signum() < 0) {
            throw new PrivacyArgumentException(name, "[0, ∞)",
                    name + " must be in [0, ∞) but was " + value.toPlainString());
        }
        return value;
    }

    /** {@code low <= value < high}. */
    static BigDecimal inClosedOpen(String name, BigDecimal value, BigDecimal low, BigDecimal high) {
        present(name, value);
        if (value.compareTo(low) < 0 || value.compareTo(high) >= 0) {
            String range = "[" + low.toPlainString() + ", " + high.toPlainString() + ")";
            throw new PrivacyArgumentException(name, range,
                    name + " must be in " + range + " but was " + value.toPlainString());
        }
        return value;
    }

    /** {@code low < value <= high}. */
    static BigDecimal inOpenClosed(String name, BigDecimal value, BigDecimal low, BigDecimal high) {
        present(name, value);
        if (value.compareTo(low) <= 0 || value.compareTo(high) > 0) {
            String range = "(" + low.toPlainString() + ", " + high.toPlainString() + "]";
            throw new PrivacyArgumentException(name, range,
                    name + " must be in " + range + " but was " + value.toPlainString());
        }
        return value;
    }

    /** {@code low <= value <= high}. */
    static BigDecimal inClosed(String name, BigDecimal value, BigDecimal low, BigDecimal high) {
        present(name, value);
        if (value.compareTo(low) < 0 || value.compareTo(high) > 0) {
            String range = "[" + low.toPlainString() + ", " + high.toPlainString() + "]";
            throw new PrivacyArgumentException(name, range,
                    name + " must be in " + range + " but was " + value.toPlainString());
        }
        return value;
    }

    static BigDecimal present(String name, BigDecimal value) {
        if (value == null) {
            throw new PrivacyArgumentException(name, "required", name + " is required");
        }
        return value;
    }
}
