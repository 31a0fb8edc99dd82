package io.privmat.mechanism.catalog;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One typed parameter of a mechanism, described as data: its name, type, range, default and meaning.
 * The catalogue validates requests with it and the HTTP contract publishes it as a JSON schema, so
 * the two cannot drift apart. Ranges that depend on the dataset (k ≤ d) are checked again when
 * planning.
 *
 * @param min inclusive lower bound (numbers and integers), or null
 * @param max inclusive upper bound, or null
 * @param exclusiveBounds true when both bounds are exclusive (fractions in (0, 1))
 * @param defaultValue the value used when the parameter is absent, or null (absent stays absent)
 * @param values the allowed names of an enumeration
 */
public record Param(String name, Type type, @Nullable Double min, @Nullable Double max, boolean exclusiveBounds,
        @Nullable Object defaultValue, List<String> values, String description) {

    /** The JSON types a parameter can have. */
    public enum Type {
        INTEGER, NUMBER, BOOLEAN, ENUM,
        /** A non-empty list of distinct integers, each in [min, max]. */
        INTEGER_LIST,
        /**
         * A linear-query workload: a JSON object with a {@code type} (IDENTITY, PREFIX, ALL_RANGE,
         * RANGES, MARGINALS, CUSTOM), validated by {@link WorkloadParam}.
         */
        WORKLOAD
    }

    public static Param integer(String name, int min, int max, @Nullable Integer defaultValue, String description) {
        return new Param(name, Type.INTEGER, (double) min, (double) max, false, defaultValue, List.of(), description);
    }

    /** A non-empty list of distinct integers in [min, max]. */
    public static Param integers(String name, int min, int max, String description) {
        return new Param(name, Type.INTEGER_LIST, (double) min, (double) max, false, null, List.of(), description);
    }

    /** A required linear-query workload ({@link WorkloadParam}). */
    public static Param workload(String name, String description) {
        return new Param(name, Type.WORKLOAD, null, null, false, null, List.of(), description);
    }

    public static Param number(String name, double min, double max, @Nullable Double defaultValue,
            String description) {
        return new Param(name, Type.NUMBER, min, max, false, defaultValue, List.of(), description);
    }

    /** A number in the open interval (0, 1). */
    public static Param fraction(String name, double defaultValue, String description) {
        return new Param(name, Type.NUMBER, 0.0, 1.0, true, defaultValue, List.of(), description);
    }

    public static Param bool(String name, boolean defaultValue, String description) {
        return new Param(name, Type.BOOLEAN, null, null, false, defaultValue, List.of(), description);
    }

    public static Param oneOf(String name, List<String> values, String defaultValue, String description) {
        return new Param(name, Type.ENUM, null, null, false, defaultValue, List.copyOf(values), description);
    }

    /** The allowed range as text, for error messages. */
    public String allowed() {
        return switch (type) {
            case BOOLEAN -> "true | false";
            case ENUM -> String.join(" | ", values);
            case INTEGER -> "[" + (long) (double) min + ", " + (long) (double) max + "]";
            case INTEGER_LIST -> "distinct integers in [" + (long) (double) min + ", " + (long) (double) max + "]";
            case WORKLOAD -> WorkloadParam.ALLOWED;
            case NUMBER -> exclusiveBounds ? "(" + fmt(min) + ", " + fmt(max) + ")" : "[" + fmt(min) + ", " + fmt(max) + "]";
        };
    }

    /**
     * The value of this parameter in a request, validated and normalised (Integer, Double, Boolean or
     * an upper-case String).
     *
     * @throws PlanningException 400 naming {@code params.<name>} and its allowed range
     */
    Object parse(Object raw) {
        String where = "params." + name;
        switch (type) {
            case BOOLEAN -> {
                if (raw instanceof Boolean b) {
                    return b;
                }
                throw PlanningException.invalid(where, allowed(), where + " must be a boolean");
            }
            case ENUM -> {
                String s = raw instanceof String str ? str.strip().toUpperCase(Locale.ROOT) : "";
                if (values.contains(s)) {
                    return s;
                }
                throw PlanningException.invalid(where, allowed(), where + " must be one of " + allowed());
            }
            case INTEGER -> {
                if (raw instanceof Number n && isIntegral(n)) {
                    long v = n.longValue();
                    if (v >= min && v <= max) {
                        return (int) v;
                    }
                }
                throw PlanningException.invalid(where, allowed(), where + " must be an integer in " + allowed());
            }
            case INTEGER_LIST -> {
                if (raw instanceof List<?> list && !list.isEmpty() && list.size() <= max - min + 1) {
                    java.util.Set<Integer> seen = new java.util.HashSet<>();
                    List<Integer> out = new java.util.ArrayList<>(list.size());
                    for (Object o : list) {
                        if (!(o instanceof Number n) || !isIntegral(n) || n.longValue() < min || n.longValue() > max
                                || !seen.add((int) n.longValue())) {
                            throw PlanningException.invalid(where, allowed(), where + " must be a non-empty list of "
                                    + allowed());
                        }
                        out.add((int) n.longValue());
                    }
                    return List.copyOf(out);
                }
                throw PlanningException.invalid(where, allowed(), where + " must be a non-empty list of " + allowed());
            }
            case WORKLOAD -> {
                // A spec's own parameters (MechanismSpec.parsed) hold the typed workload already.
                return raw instanceof WorkloadSpec w ? w : WorkloadParam.parse(where, raw);
            }
            case NUMBER -> {
                if (raw instanceof Number n) {
                    double v = n.doubleValue();
                    boolean inside = exclusiveBounds ? v > min && v < max : v >= min && v <= max;
                    if (Double.isFinite(v) && inside) {
                        return v;
                    }
                }
                throw PlanningException.invalid(where, allowed(), where + " must be a finite number in " + allowed());
            }
            default -> throw new IllegalStateException();
        }
    }

    private static boolean isIntegral(Number n) {
        if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
            return true;
        }
        if (n instanceof java.math.BigInteger b) {
            return b.bitLength() < 63;
        }
        try {
            BigDecimal d = n instanceof BigDecimal bd ? bd : new BigDecimal(n.toString());
            return d.scale() <= 0 || d.stripTrailingZeros().scale() <= 0 && d.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) < 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String fmt(@Nullable Double v) {
        if (v == null) {
            return "";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) (double) v) : Double.toString(v);
    }
}
