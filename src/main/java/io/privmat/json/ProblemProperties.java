package io.privmat.json;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The extension members of a problem (RFC 9457 §3.2): named public values in the order the problem
 * states them, written after {@code type}, {@code title}, {@code status}, {@code detail} and
 * {@code instance}. Immutable; values are what JSON carries — null, a string, a boolean, a number, a
 * list of values, or an object (another {@code ProblemProperties} or a map with string keys) — so
 * that every writer renders them alike; anything else is refused when the properties are built,
 * where the code that names it is, not when a response is written.
 */
public final class ProblemProperties extends JsonObject {

    private static final ProblemProperties NONE = new ProblemProperties(Map.of());

    private ProblemProperties(Map<String, @Nullable Object> members) {
        super(members);
    }

    /** No extension members. */
    public static ProblemProperties none() {
        return NONE;
    }

    /** One member. */
    public static ProblemProperties of(String name, @Nullable Object value) {
        return NONE.with(name, value);
    }

    /** Two members, in this order. */
    public static ProblemProperties of(String name, @Nullable Object value, String name2, @Nullable Object value2) {
        return of(name, value).with(name2, value2);
    }

    /**
     * The members of {@code map}, in its iteration order.
     *
     * @throws IllegalArgumentException when a value is not one JSON can carry
     */
    public static ProblemProperties of(Map<String, ?> map) {
        return map.isEmpty() ? NONE : new ProblemProperties(JsonValues.object(map));
    }

    /** These members with {@code name} set to {@code value} (appended if new, in place if not). */
    public ProblemProperties with(String name, @Nullable Object value) {
        return new ProblemProperties(JsonValues.with(members(), name, value));
    }
}
