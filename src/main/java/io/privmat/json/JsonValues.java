package io.privmat.json;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Values a JSON document can carry, as immutable Java: null, a string, a boolean, a number (kept as
 * given: its type is the reader's or the caller's), a list of values, or an object (a map with string
 * keys, in its iteration order, or a {@link JsonObject}). Copies are deep, so a value checked here cannot change afterwards.
 */
public final class JsonValues {

    private JsonValues() {}

    /**
     * An immutable copy of a JSON object, members in {@code object}'s order.
     *
     * @throws IllegalArgumentException when a key is not a string or a value is not a JSON value
     */
    public static Map<String, @Nullable Object> object(Map<?, ?> object) {
        Map<String, @Nullable Object> out = new LinkedHashMap<>();
        object.forEach((k, v) -> {
            if (!(k instanceof String name)) {
                throw new IllegalArgumentException("a JSON object's keys are strings, not " + k);
            }
            out.put(name, value(v));
        });
        return Collections.unmodifiableMap(out);
    }

    /**
     * An immutable copy of a JSON value (a collection becomes a list).
     *
     * @throws IllegalArgumentException when it is not one
     */
    public static @Nullable Object value(@Nullable Object v) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Number) {
            return v;
        }
        if (v instanceof JsonObject o) {
            return o.asMap();
        }
        if (v instanceof Map<?, ?> m) {
            return object(m);
        }
        if (v instanceof Collection<?> c) {
            List<@Nullable Object> out = new ArrayList<>(c.size());
            c.forEach(e -> out.add(value(e)));
            return Collections.unmodifiableList(out);
        }
        throw new IllegalArgumentException("not a JSON value: " + v.getClass().getName());
    }

    /** {@code values} with {@code name} set to an immutable copy of {@code value} (appended if new). */
    public static Map<String, @Nullable Object> with(Map<String, @Nullable Object> values, String name,
            @Nullable Object value) {
        Map<String, @Nullable Object> out = new LinkedHashMap<>(values);
        out.put(java.util.Objects.requireNonNull(name, "name"), value(value));
        return Collections.unmodifiableMap(out);
    }
}
