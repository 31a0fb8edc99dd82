package io.privmat.dataset.web;

import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.Neighbouring;
import io.privmat.dataset.RatingsSchema;
import io.privmat.problem.PrivmatException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Validates a RATINGS declaration (required for RATINGS, optional for EXTERNAL — EXTERNAL ratings, USER
 * relation only — and refused for other kinds; docs/ratings.md).
 */
final class RatingsDeclaration {

    private RatingsDeclaration() {}

    static @Nullable RatingsSchema validate(DatasetKind kind, CreateDatasetRequest.@Nullable RatingsRequest r,
            Neighbouring neighbouring) {
        if (kind != DatasetKind.RATINGS) {
            if (r != null && kind != DatasetKind.EXTERNAL) {
                throw PrivmatException.invalidParameter("ratings", "absent", "ratings applies to a RATINGS dataset "
                        + "(or EXTERNAL ratings) only");
            }
            if (r == null) {
                return null;
            }
        }
        if (r == null) {
            throw PrivmatException.invalidParameter("ratings", "an object", "a RATINGS dataset needs its declaration: "
                    + "{\"items\": n, \"min\": …, \"max\": …, \"perUserCap\": s}");
        }
        List<String> labels = r.itemLabels();
        Integer items = r.items();
        if (labels != null) {
            labels(labels);
            if (items != null && items != labels.size()) {
                throw PrivmatException.invalidParameter("ratings.items", "the number of itemLabels",
                        "ratings.items must equal the number of itemLabels (" + labels.size() + ") but was " + items);
            }
            items = labels.size();
        }
        if (items == null || items < 1 || items > RatingsSchema.MAX_ITEMS) {
            throw PrivmatException.invalidParameter("ratings.items", "[1, " + RatingsSchema.MAX_ITEMS + "]",
                    items == null ? "ratings needs items (n) or itemLabels"
                            : "ratings.items must be in [1, " + RatingsSchema.MAX_ITEMS + "] but was " + items);
        }
        Double min = r.min();
        Double max = r.max();
        if (min == null || !Double.isFinite(min)) {
            throw PrivmatException.invalidParameter("ratings.min", "a finite number", "ratings.min must be a finite "
                    + "number");
        }
        if (max == null || !Double.isFinite(max) || !(max > min) || !Double.isFinite(max - min)) {
            throw PrivmatException.invalidParameter("ratings.max", "a finite number above min",
                    "ratings.max must be a finite number above ratings.min (" + min + ")");
        }
        Integer cap = r.perUserCap();
        if (cap == null || cap < 1 || cap > items) {
            throw PrivmatException.invalidParameter("ratings.perUserCap", "[1, " + items + "]",
                    "ratings.perUserCap (s) is required and must be in [1, n = " + items + "] but was " + cap);
        }
        RatingsSchema.Declared declared = RatingsSchema.Declared.USER;
        if (r.relation() != null) {
            try {
                declared = RatingsSchema.Declared.valueOf(r.relation().strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw PrivmatException.invalidParameter("ratings.relation", "USER | RATING",
                        "ratings.relation must be one of USER | RATING");
            }
        }
        if (declared == RatingsSchema.Declared.RATING && neighbouring != Neighbouring.REPLACE_ONE) {
            throw PrivmatException.invalidParameter("ratings.relation", "USER under ADD_REMOVE",
                    "the RATING relation changes one rating's value (the observed set is public): it is defined "
                            + "under REPLACE_ONE only, not ADD_REMOVE");
        }
        if (declared == RatingsSchema.Declared.RATING && kind == DatasetKind.EXTERNAL) {
            throw PrivmatException.invalidParameter("ratings.relation", "USER for EXTERNAL ratings",
                    "EXTERNAL ratings take the USER relation only: under RATING the users and the observed set are "
                            + "public and would have to be declared, which an EXTERNAL source does not do");
        }
        return new RatingsSchema(items, labels, min, max, cap, declared);
    }

    private static void labels(List<String> labels) {
        if (labels.isEmpty() || labels.size() > RatingsSchema.MAX_ITEMS) {
            throw PrivmatException.invalidParameter("ratings.itemLabels", "1 to " + RatingsSchema.MAX_ITEMS + " labels",
                    "ratings.itemLabels must have 1 to " + RatingsSchema.MAX_ITEMS + " labels but had " + labels.size());
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < labels.size(); i++) {
            String label = labels.get(i);
            String where = "ratings.itemLabels[" + i + "]";
            if (label == null || label.isEmpty() || label.length() > RatingsSchema.MAX_LABEL) {
                throw PrivmatException.invalidParameter(where, "1–" + RatingsSchema.MAX_LABEL + " characters",
                        where + " must have 1–" + RatingsSchema.MAX_LABEL + " characters");
            }
            if (!seen.add(label)) {
                throw PrivmatException.invalidParameter(where, "distinct labels", where + " repeats an earlier label");
            }
        }
    }
}
