package io.privmat.mechanism.catalog;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A mechanism's validated parameter values: every parameter it declares, with defaults filled in
 * (a parameter without default that was not given is absent). Canonical: sorted, normalised types.
 */
public final class Params {

    private final Map<String, Object> values;

    private Params(Map<String, Object> values) {
        this.values = Collections.unmodifiableMap(values);
    }

    /**
     * Validates raw request parameters against the declared ones: unknown names, wrong types and
     * out-of-range values answer 400 naming the parameter.
     */
    public static Params parse(String mechanism, List<Param> declared, @Nullable RequestParams raw) {
        RequestParams given = raw == null ? RequestParams.empty() : raw;
        Map<String, Param> byName = new TreeMap<>();
        declared.forEach(p -> byName.put(p.name(), p));
        for (String key : given.names()) {
            if (!byName.containsKey(key)) {
                String allowed = byName.isEmpty() ? "none" : String.join(" | ", byName.keySet());
                throw PlanningException.invalid("params." + truncate(key), allowed, byName.isEmpty()
                        ? mechanism + " takes no params" : mechanism + " accepts params " + String.join(", ", byName.keySet()));
            }
        }
        Map<String, Object> values = new TreeMap<>();
        for (Param p : declared) {
            Object raw1 = given.get(p.name());
            if (raw1 != null) {
                values.put(p.name(), p.parse(raw1));
            } else if (p.defaultValue() != null) {
                values.put(p.name(), p.defaultValue());
            }
        }
        return new Params(values);
    }

    /**
     * The values as a stored spec holds them (sorted): a workload as its canonical JSON object
     * ({@link WorkloadSpec#canonical()}), the others as they are.
     */
    public RequestParams stored() {
        RequestParams out = RequestParams.empty();
        for (Map.Entry<String, Object> e : values.entrySet()) {
            out = out.with(e.getKey(), e.getValue() instanceof WorkloadSpec w ? w.canonical() : e.getValue());
        }
        return out;
    }

    /** A workload parameter, or null when absent. */
    public @Nullable WorkloadSpec optionalWorkload(String name) {
        return (WorkloadSpec) values.get(name);
    }

    /**
     * These values with {@code name} set to {@code value}, a value already in its canonical form (what
     * {@link Param#parse} returns for it): resolved parameters a plan records.
     */
    public Params with(String name, Object value) {
        Map<String, Object> out = new TreeMap<>(values);
        out.put(name, value);
        return new Params(out);
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public int integer(String name) {
        return (Integer) require(name);
    }

    public @Nullable Integer optionalInteger(String name) {
        return (Integer) values.get(name);
    }

    /** An integer list parameter, or null when absent. */
    public int @Nullable [] optionalIntegers(String name) {
        Object v = values.get(name);
        return v == null ? null : ((List<?>) v).stream().mapToInt(o -> ((Number) o).intValue()).toArray();
    }

    public double number(String name) {
        return ((Number) require(name)).doubleValue();
    }

    public @Nullable Double optionalNumber(String name) {
        Object v = values.get(name);
        return v == null ? null : ((Number) v).doubleValue();
    }

    public boolean bool(String name) {
        return Boolean.TRUE.equals(values.get(name));
    }

    public String name(String name) {
        return (String) require(name);
    }

    private Object require(String name) {
        Object v = values.get(name);
        if (v == null) {
            // A parameter without a default that the request left out: the client's to fix.
            throw PlanningException.invalid(name, "required", "parameter " + name + " is required");
        }
        return v;
    }

    private static String truncate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "…";
    }
}
