package io.privmat.mechanism.catalog;

import io.privmat.json.JsonValues;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A mechanism's parameters as the client sent them (a request's {@code params} object, a stored spec's
 * {@code params}, a catalogue value's example), before {@link Params#parse} validates them: an ordered,
 * immutable JSON object. Values are what JSON carries: null, a string, a boolean, a number (as the
 * reader produced it, so that validation can still refuse a fraction for an integer), a list of values
 * or a nested object (a {@code Map} with string keys, or another {@code RequestParams}); nested values
 * are copied and frozen too ({@link JsonValues}). Nothing is coerced here: whether {@code "1"} is a count is the
 * declaration's to decide, and a key given with a null value is still a key given. The JSON reading
 * and writing live in the API layer ({@code api/RequestParamsJson}).
 */
public final class RequestParams {

    private static final RequestParams EMPTY = new RequestParams(Map.of());

    private final Map<String, @Nullable Object> values;

    private RequestParams(Map<String, @Nullable Object> values) {
        this.values = values;
    }

    /** No parameters. */
    public static RequestParams empty() {
        return EMPTY;
    }

    /**
     * The parameters {@code values} holds, in its iteration order (null: none).
     *
     * @throws IllegalArgumentException when a value is not one JSON can carry
     */
    public static RequestParams of(@Nullable Map<String, ?> values) {
        if (values == null || values.isEmpty()) {
            return EMPTY;
        }
        return new RequestParams(JsonValues.object(values));
    }

    /** One parameter. */
    public static RequestParams of(String name, @Nullable Object value) {
        return EMPTY.with(name, value);
    }

    /** Two parameters, in this order. */
    public static RequestParams of(String name, @Nullable Object value, String name2, @Nullable Object value2) {
        return of(name, value).with(name2, value2);
    }

    /** These parameters with {@code name} set to {@code value} (appended if new, in place if not). */
    public RequestParams with(String name, @Nullable Object value) {
        return new RequestParams(JsonValues.with(values, name, value instanceof RequestParams r ? r.values : value));
    }

    /** The parameters named in {@code names} that were given, in the order of {@code names}. */
    public RequestParams only(Collection<String> names) {
        Map<String, @Nullable Object> out = new LinkedHashMap<>();
        for (String name : names) {
            if (values.containsKey(name)) {
                out.put(name, values.get(name));
            }
        }
        return out.isEmpty() ? EMPTY : new RequestParams(Collections.unmodifiableMap(out));
    }

    /** The same parameters with their names sorted (nested objects keep their order). */
    public RequestParams sorted() {
        return values.isEmpty() ? EMPTY : new RequestParams(Collections.unmodifiableMap(new TreeMap<>(values)));
    }

    /** True if the client gave {@code name} (with any value, null too). */
    public boolean has(String name) {
        return values.containsKey(name);
    }

    /** The value given for {@code name}, or null when absent or given as null. */
    public @Nullable Object get(String name) {
        return values.get(name);
    }

    /** The names given, in order. */
    public Set<String> names() {
        return values.keySet();
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The parameters as a read-only JSON object (for writers). */
    public Map<String, ?> asMap() {
        return values;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RequestParams r && values.equals(r.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
