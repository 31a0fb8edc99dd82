package io.privmat.dataset;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import java.util.AbstractList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import org.jspecify.annotations.Nullable;

/**
 * A RATINGS dataset's declaration, public and fixed at creation (docs/ratings.md): the item
 * universe (n items, named by declared labels in id order, or "0" … "n − 1"), the rating range
 * [min, max], the per-user cap s, and the declared relation (USER or RATING). Uploads are validated
 * against it and the completion mechanisms are calibrated with it ({@link #domain()}).
 *
 * @param items n, the number of items
 * @param labels the declared item labels in id order, or null when only n was declared
 * @param min the smallest rating
 * @param max the largest rating
 * @param perUserCap s, the most ratings one user contributes
 * @param declared USER (one user's ratings is the unit) or RATING (one rating is the unit); stored
 *     as {@code relation}
 */
public record RatingsSchema(int items, @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<String> labels,
        double min, double max, int perUserCap, @JsonProperty("relation") Declared declared) implements DatasetSchema {

    /** Most items a RATINGS dataset may declare. */
    public static final int MAX_ITEMS = 1 << 20;
    /** Longest item label. */
    public static final int MAX_LABEL = 200;

    /** The relation an owner declares; with the dataset's {@link Neighbouring} it gives the {@link RatingsRelation}. */
    public enum Declared {
        /** One user's ratings, all of them, is the privacy unit (the default). */
        USER,
        /** One rating is the privacy unit; which users rated which items (Ω) is public. REPLACE_ONE only. */
        RATING
    }

    public RatingsSchema {
        labels = labels == null ? null : List.copyOf(labels);
        if (labels != null && labels.size() != items) {
            throw new IllegalArgumentException("labels must name the " + items + " items");
        }
        new RatingsDomain(items, min, max, perUserCap); // validates n, the range and s
    }

    /** The public parameters the completion mechanisms are calibrated with. */
    public RatingsDomain domain() {
        return new RatingsDomain(items, min, max, perUserCap);
    }

    /**
     * The relation mechanisms calibrate with: USER under REPLACE_ONE → USER, USER under ADD_REMOVE →
     * USER_ADD_REMOVE, RATING (declared under REPLACE_ONE only) → RATING.
     */
    public RatingsRelation relation(Neighbouring neighbouring) {
        if (declared == Declared.RATING) {
            if (neighbouring != Neighbouring.REPLACE_ONE) {
                throw new IllegalArgumentException("the RATING relation is defined under REPLACE_ONE only");
            }
            return RatingsRelation.RATING;
        }
        return neighbouring == Neighbouring.ADD_REMOVE ? RatingsRelation.USER_ADD_REMOVE : RatingsRelation.USER;
    }

    /**
     * The item labels in id order: the declared ones, or "0" … "n − 1" generated on access (no list of
     * n strings is held).
     */
    public List<String> itemLabels() {
        return labels != null ? labels : new Numbered(items);
    }

    /** Label → item id (a map of n entries when labels were declared, parsing of "0" … "n − 1" otherwise). */
    public ItemIndex itemIndex() {
        if (labels == null) {
            return label -> numbered(label, items);
        }
        Map<String, Integer> index = new HashMap<>(labels.size() * 2);
        for (int i = 0; i < labels.size(); i++) {
            index.put(labels.get(i), i);
        }
        return label -> index.getOrDefault(label, -1);
    }

    /** Resolves an item label. */
    @FunctionalInterface
    public interface ItemIndex {
        /** The item's id in [0, n), or −1 when the label is not in the universe. */
        int id(String label);
    }

    /** The id named by a canonical decimal "0" … "n − 1" (no sign, no leading zero), or −1. */
    public static int numbered(String label, int n) {
        int len = label.length();
        if (len == 0 || len > 10 || (len > 1 && label.charAt(0) == '0')) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < len; i++) {
            int digit = label.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            v = v * 10 + digit;
        }
        return v < n ? (int) v : -1;
    }

    private static final class Numbered extends AbstractList<String> implements RandomAccess {
        private final int n;

        Numbered(int n) {
            this.n = n;
        }

        @Override
        public String get(int index) {
            java.util.Objects.checkIndex(index, n);
            return Integer.toString(index);
        }

        @Override
        public int size() {
            return n;
        }
    }
}
