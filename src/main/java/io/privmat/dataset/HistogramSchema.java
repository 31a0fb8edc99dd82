package io.privmat.dataset;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A histogram's declared attributes: each a name and a public domain of {@code size} values, coded
 * 0 … size − 1 or named by labels. The cells of the histogram are the product of the domains, in
 * row-major order (the first attribute varies slowest); one record adds 1 to one cell.
 */
public record HistogramSchema(List<Attribute> attributes) implements DatasetSchema {

    /** Most cells a histogram may have (the product of the domain sizes). */
    public static final long MAX_CELLS = 1L << 20;
    /** Most attributes. */
    public static final int MAX_ATTRIBUTES = 20;
    /** Longest attribute name or label. */
    public static final int MAX_NAME = 200;

    /**
     * One attribute.
     *
     * @param labels the names of its values in code order, or null when values are codes only
     */
    public record Attribute(String name, int size,
            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<String> labels) {

        public Attribute {
            labels = labels == null ? null : List.copyOf(labels);
        }

        /** The code of a value given as a label (when labels are declared) or as a code; −1 if neither. */
        public int code(String value, @Nullable Map<String, Integer> labelIndex) {
            if (labelIndex != null) {
                Integer c = labelIndex.get(value);
                if (c != null) {
                    return c;
                }
            }
            if (value.isEmpty() || value.length() > 9) {
                return -1;
            }
            int v = 0;
            for (int i = 0; i < value.length(); i++) {
                int digit = value.charAt(i) - '0';
                if (digit < 0 || digit > 9) {
                    return -1;
                }
                v = v * 10 + digit;
            }
            return v < size ? v : -1;
        }

        /** Label → code, or null when the attribute has no labels. */
        public @Nullable Map<String, Integer> labelIndex() {
            if (labels == null) {
                return null;
            }
            Map<String, Integer> index = new HashMap<>();
            for (int i = 0; i < labels.size(); i++) {
                index.put(labels.get(i), i);
            }
            return index;
        }
    }

    public HistogramSchema {
        attributes = List.copyOf(attributes);
    }

    /** The number of cells, the product of the domain sizes. */
    public int cells() {
        long n = 1;
        for (Attribute a : attributes) {
            n *= a.size();
        }
        return Math.toIntExact(n);
    }

    /** The domain sizes in declared order. */
    public int[] sizes() {
        return attributes.stream().mapToInt(Attribute::size).toArray();
    }

    /** The attribute names in declared order. */
    public List<String> names() {
        return attributes.stream().map(Attribute::name).toList();
    }

    /**
     * The problems of a declaration, as (parameter path, allowed, message) triples; empty when it is
     * valid: 1 … {@value #MAX_ATTRIBUTES} attributes with distinct non-empty names, each domain of
     * size ≥ 1 given by a size or by distinct labels (or both, agreeing), at most {@value #MAX_CELLS}
     * cells in all.
     */
    public static List<String[]> problems(List<Attribute> attributes) {
        List<String[]> out = new ArrayList<>();
        if (attributes.isEmpty() || attributes.size() > MAX_ATTRIBUTES) {
            out.add(new String[] {"attributes", "1 to " + MAX_ATTRIBUTES + " attributes",
                    "attributes must list 1 to " + MAX_ATTRIBUTES + " attributes but had " + attributes.size()});
            return out;
        }
        Set<String> names = new HashSet<>();
        long cells = 1;
        for (int i = 0; i < attributes.size(); i++) {
            Attribute a = attributes.get(i);
            String where = "attributes[" + i + "]";
            if (a.name() == null || a.name().isBlank() || a.name().length() > MAX_NAME) {
                out.add(new String[] {where + ".name", "1–" + MAX_NAME + " characters",
                        where + ".name must have 1–" + MAX_NAME + " characters"});
            } else if (!names.add(a.name())) {
                out.add(new String[] {where + ".name", "distinct names", where + ".name repeats an earlier name"});
            }
            if (a.size() < 1 || a.size() > MAX_CELLS) {
                out.add(new String[] {where + ".size", "[1, " + MAX_CELLS + "]",
                        where + ".size must be in [1, " + MAX_CELLS + "] but was " + a.size()});
                continue;
            }
            if (a.labels() != null) {
                Set<String> seen = new HashSet<>();
                for (int j = 0; j < a.labels().size(); j++) {
                    String label = a.labels().get(j);
                    if (label == null || label.isEmpty() || label.length() > MAX_NAME) {
                        out.add(new String[] {where + ".labels[" + j + "]", "1–" + MAX_NAME + " characters",
                                where + ".labels[" + j + "] must have 1–" + MAX_NAME + " characters"});
                    } else if (!seen.add(label)) {
                        out.add(new String[] {where + ".labels[" + j + "]", "distinct labels",
                                where + ".labels[" + j + "] repeats an earlier label"});
                    }
                }
            }
            cells *= a.size();
            if (cells > MAX_CELLS) {
                out.add(new String[] {"attributes", "at most " + MAX_CELLS + " cells",
                        "the attributes' domains multiply to more than " + MAX_CELLS + " cells"});
                return out;
            }
        }
        return out;
    }
}
