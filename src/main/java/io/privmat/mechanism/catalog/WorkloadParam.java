package io.privmat.mechanism.catalog;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The typed {@code params.workload} of LINEAR_QUERIES: a JSON object with a {@code type}.
 * <ul>
 *   <li>{@code {"type":"IDENTITY"}}: every cell;</li>
 *   <li>{@code {"type":"PREFIX","attributes":["age"]}}, {@code {"type":"ALL_RANGE","attributes":[…]}}:
 *       prefixes [0, v] or every interval on the listed attributes (all when omitted), k-D boxes on
 *       several, the other attributes summed out;</li>
 *   <li>{@code {"type":"RANGES","boxes":[{"age":[0,3],"region":[1,1]}]}}: explicit boxes, inclusive
 *       code intervals, unnamed attributes spanning their domain;</li>
 *   <li>{@code {"type":"MARGINALS","k":2}} (every k-way marginal) or
 *       {@code {"type":"MARGINALS","sets":[["age","region"]]}};</li>
 *   <li>{@code {"type":"CUSTOM","id":"<workload uuid>"}}: a matrix uploaded to /v1/workloads; the
 *       stored plan adds its {@code sha256}, {@code rows} and {@code cols} (a request may give
 *       {@code sha256} to pin the content).</li>
 * </ul>
 * {@link #parse} checks the structure (no dataset needed) and returns the canonical form (sorted
 * keys, normalised values) that a stored plan holds; the linear-query family checks it against the
 * dataset's declared domain and builds its workload ({@code WorkloadBuilder}).
 */
public final class WorkloadParam {

    /** The types, in the contract's order. */
    public static final List<String> TYPES = List.of("IDENTITY", "PREFIX", "ALL_RANGE", "RANGES", "MARGINALS",
            "CUSTOM");
    /** Most boxes a RANGES workload lists inline (larger lists: upload them as a CUSTOM workload). */
    public static final int MAX_INLINE_BOXES = 10_000;
    /** Most attributes a workload names (the linear-query engine's limit, {@code LinearLimits} takes it). */
    public static final int MAX_ATTRIBUTES = 8;
    /** Most cells of a domain, and the largest code a box names (the engine's limit). */
    public static final int MAX_CELLS = 1 << 20;
    /** How the contract names the parameter's form in a refusal. */
    public static final String ALLOWED = "an object with type " + String.join(" | ", TYPES);

    private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern SHA = Pattern.compile("[0-9a-f]{64}");

    private WorkloadParam() {}

    /**
     * Validates the structure of a workload and returns its canonical form.
     *
     * @throws PlanningException 400 naming the offending field ({@code params.workload.…})
     */
    static WorkloadSpec parse(String where, Object raw) {
        if (!(raw instanceof Map<?, ?> map)) {
            throw PlanningException.invalid(where, ALLOWED, where + " must be " + ALLOWED);
        }
        Object t = map.get("type");
        String type = t instanceof String s ? s.strip().toUpperCase(Locale.ROOT) : "";
        if (!TYPES.contains(type)) {
            throw PlanningException.invalid(where + ".type", String.join(" | ", TYPES), where
                    + ".type must be one of " + String.join(" | ", TYPES));
        }
        Set<String> allowed = switch (type) {
            case "IDENTITY" -> Set.of("type");
            case "PREFIX", "ALL_RANGE" -> Set.of("type", "attributes");
            case "RANGES" -> Set.of("type", "boxes");
            case "MARGINALS" -> Set.of("type", "k", "sets");
            default -> Set.of("type", "id", "sha256", "rows", "cols");
        };
        for (Object key : map.keySet()) {
            if (!allowed.contains(String.valueOf(key))) {
                throw PlanningException.invalid(where + "." + truncate(String.valueOf(key)), "absent", type
                        + " workloads take " + String.join(", ", new TreeMap<>(toMap(allowed)).keySet()));
            }
        }
        return switch (type) {
            case "IDENTITY" -> new WorkloadSpec.Identity();
            case "PREFIX" -> new WorkloadSpec.Prefix(map.get("attributes") == null ? null
                    : names(where + ".attributes", map.get("attributes")));
            case "ALL_RANGE" -> new WorkloadSpec.AllRange(map.get("attributes") == null ? null
                    : names(where + ".attributes", map.get("attributes")));
            case "RANGES" -> new WorkloadSpec.Ranges(boxes(where + ".boxes", map.get("boxes")));
            case "MARGINALS" -> marginals(where, map.get("k"), map.get("sets"));
            default -> custom(where, map);
        };
    }

    private static WorkloadSpec.Marginals marginals(String where, @org.jspecify.annotations.Nullable Object k,
            @org.jspecify.annotations.Nullable Object sets) {
        if ((k == null) == (sets == null)) {
            throw PlanningException.invalid(where, "k, or sets", where + " of type MARGINALS needs either k "
                    + "(every k-way marginal) or sets (the attribute sets), not both");
        }
        if (k != null) {
            return new WorkloadSpec.Marginals(integer(where + ".k", k, 0, MAX_ATTRIBUTES), null);
        }
        if (!(sets instanceof List<?> list) || list.isEmpty() || list.size() > 256) {
            throw PlanningException.invalid(where + ".sets", "1–256 lists of attribute names",
                    where + ".sets must be a list of 1–256 lists of attribute names");
        }
        List<List<String>> canonical = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            canonical.add(names(where + ".sets[" + i + "]", list.get(i)));
        }
        return new WorkloadSpec.Marginals(null, List.copyOf(canonical));
    }

    private static WorkloadSpec.Custom custom(String where, Map<?, ?> map) {
        Object id = map.get("id");
        String text = id instanceof String s ? s.strip().toLowerCase(Locale.ROOT) : "";
        if (!UUID_TEXT.matcher(text).matches()) {
            throw PlanningException.invalid(where + ".id", "the id of a stored workload (a UUID)",
                    where + ".id must be the id of a workload uploaded to /v1/workloads");
        }
        String h = null;
        if (map.get("sha256") != null) {
            Object sha = map.get("sha256");
            h = sha instanceof String s ? s.strip().toLowerCase(Locale.ROOT) : "";
            if (!SHA.matcher(h).matches()) {
                throw PlanningException.invalid(where + ".sha256", "64 hex digits", where
                        + ".sha256 must be the workload's SHA-256 (64 hex digits)");
            }
        }
        Integer rows = map.get("rows") == null ? null : integer(where + ".rows", map.get("rows"), 1, Integer.MAX_VALUE);
        Integer cols = map.get("cols") == null ? null : integer(where + ".cols", map.get("cols"), 1, Integer.MAX_VALUE);
        return new WorkloadSpec.Custom(text, h, rows, cols);
    }

    private static List<String> names(String where, Object raw) {
        if (!(raw instanceof List<?> list) || list.isEmpty() || list.size() > MAX_ATTRIBUTES) {
            throw PlanningException.invalid(where, "1–" + MAX_ATTRIBUTES + " distinct attribute names",
                    where + " must be a list of 1–" + MAX_ATTRIBUTES + " distinct attribute names");
        }
        Set<String> seen = new HashSet<>();
        List<String> out = new ArrayList<>();
        for (Object o : list) {
            if (!(o instanceof String s) || s.isEmpty() || s.length() > 200 || !seen.add(s)) {
                throw PlanningException.invalid(where, "distinct attribute names", where
                        + " must be a list of distinct attribute names");
            }
            out.add(s);
        }
        return List.copyOf(out);
    }

    private static List<SortedMap<String, List<Integer>>> boxes(String where, Object raw) {
        if (!(raw instanceof List<?> list) || list.isEmpty() || list.size() > MAX_INLINE_BOXES) {
            throw PlanningException.invalid(where, "1–" + MAX_INLINE_BOXES + " boxes", where + " must be a list of 1–"
                    + MAX_INLINE_BOXES + " boxes (more: upload them as a CUSTOM workload)");
        }
        List<SortedMap<String, List<Integer>>> out = new ArrayList<>(list.size());
        for (int b = 0; b < list.size(); b++) {
            if (!(list.get(b) instanceof Map<?, ?> box) || box.size() > MAX_ATTRIBUTES) {
                throw PlanningException.invalid(where + "[" + b + "]", "an object of attribute → [lo, hi]",
                        where + "[" + b + "] must map attribute names to [lo, hi]");
            }
            SortedMap<String, List<Integer>> canonical = new TreeMap<>();
            for (Map.Entry<?, ?> e : box.entrySet()) {
                String field = where + "[" + b + "]." + truncate(String.valueOf(e.getKey()));
                if (!(e.getValue() instanceof List<?> pair) || pair.size() != 2) {
                    throw PlanningException.invalid(field, "[lo, hi]", field + " must be a pair [lo, hi] of codes");
                }
                int lo = integer(field, pair.get(0), 0, MAX_CELLS);
                int hi = integer(field, pair.get(1), 0, MAX_CELLS);
                canonical.put(String.valueOf(e.getKey()), List.of(lo, hi));
            }
            out.add(java.util.Collections.unmodifiableSortedMap(canonical));
        }
        return List.copyOf(out);
    }

    private static int integer(String where, Object raw, int min, int max) {
        if (raw instanceof Number n) {
            try {
                BigDecimal d = n instanceof BigDecimal bd ? bd : new BigDecimal(n.toString());
                if (d.stripTrailingZeros().scale() <= 0 && d.compareTo(BigDecimal.valueOf(min)) >= 0
                        && d.compareTo(BigDecimal.valueOf(max)) <= 0) {
                    return d.intValueExact();
                }
            } catch (NumberFormatException | ArithmeticException e) {
                // not an integer
            }
        }
        throw PlanningException.invalid(where, "an integer in [" + min + ", " + max + "]", where
                + " must be an integer in [" + min + ", " + max + "]");
    }

    private static Map<String, Boolean> toMap(Set<String> keys) {
        Map<String, Boolean> m = new TreeMap<>();
        keys.forEach(k -> m.put(k, true));
        return m;
    }

    /** A client-given name cut for an error message. */
    public static String truncate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "…";
    }
}
