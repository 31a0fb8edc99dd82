package io.privmat.mechanism.catalog;

import io.privmat.json.JsonObject;
import io.privmat.json.JsonValues;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
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
public final class RequestParams extends JsonObject {

    private static final RequestParams EMPTY = new RequestParams(Map.of());

    private RequestParams(Map<String, @Nullable Object> values) {
        super(values);
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
        return new RequestParams(JsonValues.with(members(), name, value));
    }

    /** The parameters named in {@code names} that were given, in the order of {@code names}. */
    public RequestParams only(Collection<String> names) {
        Map<String, @Nullable Object> out = new LinkedHashMap<>();
        for (String name : names) {
            if (has(name)) {
                out.put(name, get(name));
            }
        }
        return out.isEmpty() ? EMPTY : new RequestParams(Collections.unmodifiableMap(out));
    }

    /** The same parameters with their names sorted (nested objects keep their order). */
    public RequestParams sorted() {
        return isEmpty() ? EMPTY : new RequestParams(Collections.unmodifiableMap(new TreeMap<>(members())));
    }
}
