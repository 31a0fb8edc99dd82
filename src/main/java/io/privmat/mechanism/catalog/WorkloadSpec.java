package io.privmat.mechanism.catalog;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The canonical {@code params.workload} of LINEAR_QUERIES, one record per type (the contract is in
 * {@link WorkloadParam}); {@link WorkloadParam#parse} validates a request's JSON object into it.
 * {@link #canonical()} is its stored form: the JSON object a stored spec holds (sorted keys, absent
 * members left out), byte for byte what stored specs have always held.
 */
public sealed interface WorkloadSpec {

    /** The type's name in the contract ({@link WorkloadParam#TYPES}). */
    String type();

    /** The stored form: the members with their JSON names, sorted, absent ones left out. */
    default SortedMap<String, Object> canonical() {
        SortedMap<String, Object> out = new TreeMap<>();
        out.put("type", type());
        if (this instanceof Prefix p) {
            put(out, "attributes", p.attributes());
        } else if (this instanceof AllRange a) {
            put(out, "attributes", a.attributes());
        } else if (this instanceof Ranges r) {
            put(out, "boxes", r.boxes());
        } else if (this instanceof Marginals m) {
            put(out, "k", m.k());
            put(out, "sets", m.sets());
        } else if (this instanceof Custom c) {
            put(out, "id", c.id());
            put(out, "sha256", c.sha256());
            put(out, "rows", c.rows());
            put(out, "cols", c.cols());
        }
        return Collections.unmodifiableSortedMap(out);
    }

    /** Every cell. */
    record Identity() implements WorkloadSpec {
        @Override
        public String type() {
            return "IDENTITY";
        }
    }

    /** Prefixes [0, v] on the listed attributes (all when null), the others summed out. */
    record Prefix(@Nullable List<String> attributes) implements WorkloadSpec {
        @Override
        public String type() {
            return "PREFIX";
        }
    }

    /** Every interval on the listed attributes (all when null), the others summed out. */
    record AllRange(@Nullable List<String> attributes) implements WorkloadSpec {
        @Override
        public String type() {
            return "ALL_RANGE";
        }
    }

    /**
     * Explicit boxes: each maps attribute names (sorted) to an inclusive code interval [lo, hi];
     * unnamed attributes span their domain.
     */
    record Ranges(List<SortedMap<String, List<Integer>>> boxes) implements WorkloadSpec {
        @Override
        public String type() {
            return "RANGES";
        }
    }

    /** Every k-way marginal, or the marginals of the listed attribute sets (exactly one is given). */
    record Marginals(@Nullable Integer k, @Nullable List<List<String>> sets) implements WorkloadSpec {
        @Override
        public String type() {
            return "MARGINALS";
        }
    }

    /**
     * A matrix uploaded to /v1/workloads; a stored plan adds its sha256, rows and cols (a request may
     * give sha256 to pin the content).
     */
    record Custom(String id, @Nullable String sha256, @Nullable Integer rows, @Nullable Integer cols)
            implements WorkloadSpec {
        @Override
        public String type() {
            return "CUSTOM";
        }
    }

    private static void put(SortedMap<String, Object> out, String name, @Nullable Object value) {
        if (value != null) {
            out.put(name, value);
        }
    }
}
