package io.privmat.mechanism.catalog;

import io.privmat.mechanism.linear.Box;
import io.privmat.mechanism.linear.Domain;
import io.privmat.mechanism.linear.LinearLimits;
import io.privmat.mechanism.linear.LinearQueryException;
import io.privmat.mechanism.linear.Workload;
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
 * keys, normalised values) that a stored plan holds; {@link #build} checks it against the dataset's
 * declared domain and builds the {@link Workload}.
 */
public final class WorkloadParam {

    /** The types, in the contract's order. */
    public static final List<String> TYPES = List.of("IDENTITY", "PREFIX", "ALL_RANGE", "RANGES", "MARGINALS",
            "CUSTOM");
    /** Most boxes a RANGES workload lists inline (larger lists: upload them as a CUSTOM workload). */
    public static final int MAX_INLINE_BOXES = 10_000;
    static final String ALLOWED = "an object with type " + String.join(" | ", TYPES);

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
            return new WorkloadSpec.Marginals(integer(where + ".k", k, 0, LinearLimits.MAX_ATTRIBUTES), null);
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

    /** A workload built on a dataset's domain, and its canonical form with what was resolved (CUSTOM). */
    record Built(Workload workload, WorkloadSpec canonical) {}

    /**
     * Builds the workload of a canonical {@code params.workload} on the dataset's declared domain.
     *
     * @throws PlanningException 400 for names or values outside the domain, a CUSTOM workload that is
     *     missing, of another shape, or not the content the plan recorded; 422 (WORKLOAD_TOO_LARGE)
     *     over a size limit
     */
    static Built build(WorkloadSpec canonical, HistogramDomain declared, PublicArtifacts artifacts) {
        String where = "params.workload";
        Domain domain = domain(declared);
        List<String> names = declared.names();
        try {
            Workload w;
            if (canonical instanceof WorkloadSpec.Identity) {
                w = Workload.identity(domain);
            } else if (canonical instanceof WorkloadSpec.Prefix p) {
                w = Workload.prefix(domain, indices(where + ".attributes", p.attributes(), names));
            } else if (canonical instanceof WorkloadSpec.AllRange a) {
                w = Workload.allRange(domain, indices(where + ".attributes", a.attributes(), names));
            } else if (canonical instanceof WorkloadSpec.Ranges r) {
                w = Workload.ranges(domain, boxes(where + ".boxes", r.boxes(), declared, domain));
            } else if (canonical instanceof WorkloadSpec.Marginals m) {
                w = marginals(where, m, names, domain);
            } else {
                return custom((WorkloadSpec.Custom) canonical, domain, artifacts);
            }
            return new Built(w, canonical);
        } catch (LinearQueryException e) {
            throw LinearQueries.problem(e);
        }
    }

    private static Workload marginals(String where, WorkloadSpec.Marginals m, List<String> names, Domain domain) {
        Integer k = m.k();
        if (k != null) {
            if (k > names.size()) {
                throw PlanningException.invalid(where + ".k", "[0, " + names.size() + "]", where
                        + ".k must be at most the number of attributes, " + names.size());
            }
            return Workload.marginals(domain, k);
        }
        List<List<String>> sets = java.util.Objects.requireNonNull(m.sets());
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i < sets.size(); i++) {
            out.add(indices(where + ".sets[" + i + "]", sets.get(i), names));
        }
        return Workload.marginals(domain, out);
    }

    private static Built custom(WorkloadSpec.Custom canonical, Domain domain, PublicArtifacts artifacts) {
        String where = "params.workload";
        PublicArtifacts.StoredWorkload stored = artifacts.workload(canonical.id());
        if (canonical.sha256() != null && !canonical.sha256().equals(stored.sha256())
                || canonical.rows() != null && canonical.rows() != stored.rows()
                || canonical.cols() != null && canonical.cols() != stored.cols()) {
            throw PlanningException.invalid(where + ".sha256", "the content of workload " + stored.id(),
                    "workload " + stored.id() + " does not have the content this request names (sha256, rows, cols)");
        }
        if (stored.cols() != domain.cells()) {
            throw PlanningException.invalid(where + ".id", "a workload with " + domain.cells() + " columns",
                    "workload " + stored.id() + " has " + stored.cols() + " columns but this dataset has "
                            + domain.cells() + " cells (one column per cell, row-major)");
        }
        Workload w = Workload.custom(domain, stored.rows(), stored.values());
        return new Built(w, new WorkloadSpec.Custom(canonical.id(), stored.sha256(), stored.rows(), stored.cols()));
    }

    /** The dataset's domain as a linear-query domain (422 when it has more attributes than supported). */
    static Domain domain(HistogramDomain declared) {
        try {
            return Domain.of(declared.sizeArray());
        } catch (LinearQueryException e) {
            throw LinearQueries.problem(e);
        }
    }

    private static int[] indices(String where, @org.jspecify.annotations.Nullable List<String> given,
            List<String> names) {
        if (given == null) {
            return new int[0];
        }
        int[] out = new int[given.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = names.indexOf(given.get(i));
            if (out[i] < 0) {
                throw PlanningException.invalid(where + "[" + i + "]", String.join(" | ", names), where + "[" + i
                        + "] is not an attribute of this dataset (" + String.join(", ", names) + ")");
            }
        }
        return out;
    }

    private static List<Box> boxes(String where, List<SortedMap<String, List<Integer>>> boxes, HistogramDomain declared,
            Domain domain) {
        List<String> names = declared.names();
        List<Box> out = new ArrayList<>(boxes.size());
        for (int b = 0; b < boxes.size(); b++) {
            int[] lo = new int[names.size()];
            int[] hi = new int[names.size()];
            for (int a = 0; a < names.size(); a++) {
                hi[a] = declared.sizes().get(a) - 1;
            }
            for (Map.Entry<String, List<Integer>> e : boxes.get(b).entrySet()) {
                String field = where + "[" + b + "]." + truncate(e.getKey());
                int a = names.indexOf(e.getKey());
                if (a < 0) {
                    throw PlanningException.invalid(field, String.join(" | ", names), field
                            + " is not an attribute of this dataset (" + String.join(", ", names) + ")");
                }
                int l = e.getValue().get(0);
                int h = e.getValue().get(1);
                int max = declared.sizes().get(a) - 1;
                if (l > h || h > max) {
                    throw PlanningException.invalid(field, "[lo, hi] with 0 ≤ lo ≤ hi ≤ " + max, field
                            + " must be an interval [lo, hi] of codes with 0 ≤ lo ≤ hi ≤ " + max);
                }
                lo[a] = l;
                hi[a] = h;
            }
            out.add(Box.of(domain, lo, hi));
        }
        return out;
    }

    private static List<String> names(String where, Object raw) {
        if (!(raw instanceof List<?> list) || list.isEmpty() || list.size() > LinearLimits.MAX_ATTRIBUTES) {
            throw PlanningException.invalid(where, "1–" + LinearLimits.MAX_ATTRIBUTES + " distinct attribute names",
                    where + " must be a list of 1–" + LinearLimits.MAX_ATTRIBUTES + " distinct attribute names");
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
            if (!(list.get(b) instanceof Map<?, ?> box) || box.size() > LinearLimits.MAX_ATTRIBUTES) {
                throw PlanningException.invalid(where + "[" + b + "]", "an object of attribute → [lo, hi]",
                        where + "[" + b + "] must map attribute names to [lo, hi]");
            }
            SortedMap<String, List<Integer>> canonical = new TreeMap<>();
            for (Map.Entry<?, ?> e : box.entrySet()) {
                String field = where + "[" + b + "]." + truncate(String.valueOf(e.getKey()));
                if (!(e.getValue() instanceof List<?> pair) || pair.size() != 2) {
                    throw PlanningException.invalid(field, "[lo, hi]", field + " must be a pair [lo, hi] of codes");
                }
                int lo = integer(field, pair.get(0), 0, LinearLimits.MAX_CELLS);
                int hi = integer(field, pair.get(1), 0, LinearLimits.MAX_CELLS);
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

    private static String truncate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "…";
    }
}
