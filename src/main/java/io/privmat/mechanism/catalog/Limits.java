package io.privmat.mechanism.catalog;

import java.util.Map;

/** Size limits checked from public facts before anything is charged, and shared parameter checks. */
public final class Limits {

    /** Largest d for mechanisms that hold the d × d Gram matrix (200 MB a copy; eigensolvers need ~3). */
    public static final int MAX_GRAM_DIMENSION = 5000;
    /** Largest m·ℓ a row-based job holds (three m × ℓ float64 arrays: 240 MB). */
    public static final long MAX_FACTOR_ENTRIES = 10_000_000L;
    /** Largest rank k of the low-rank mechanisms. */
    public static final int MAX_K = 200;

    /**
     * Largest m·n of a ratings matrix the entry-level low-rank mechanisms hold dense (8 bytes an entry:
     * 200 MB; the items-as-rows orientation streams transposed blocks of at most as much again).
     */
    public static final long MAX_DENSE_RATINGS = 25_000_000L;

    private Limits() {}

    /** Refuses, before anything is read, a ratings matrix too large to hold dense (users × items). */
    public static void checkDenseRatings(long users, int items, String mechanism) {
        if (users * items > MAX_DENSE_RATINGS) {
            throw new PlanningException(PlanningException.Reason.DATASET_TOO_LARGE, mechanism + " holds the "
                    + "centred ratings as a dense users × items matrix: m·n = " + users * items + " exceeds "
                    + MAX_DENSE_RATINGS + ".", Map.of("users", users, "items", items, "maxEntries", MAX_DENSE_RATINGS));
        }
    }

    public static void checkGramDimension(int d, String mechanism) {
        if (d > MAX_GRAM_DIMENSION) {
            throw new PlanningException(PlanningException.Reason.DATASET_TOO_LARGE, mechanism + " holds the d × d "
                    + "Gram matrix; this dataset has d = " + d + " columns (at most " + MAX_GRAM_DIMENSION
                    + " are supported).", Map.of("cols", d, "maxCols", MAX_GRAM_DIMENSION));
        }
    }

    public static void checkFactorSize(long m, int width) {
        if (m * width > MAX_FACTOR_ENTRIES) {
            throw PlanningException.invalid("params.k", "smaller", "the job would hold m·" + width + " = "
                    + m * width + " values per factor (more than " + MAX_FACTOR_ENTRIES + "); lower k");
        }
    }

    /** params.k, required, in [1, max]. */
    public static int requireK(Params params, int max, String what) {
        Integer k = params.optionalInteger("k");
        if (k == null || k > max) {
            throw PlanningException.invalid("params.k", "[1, " + max + "]",
                    k == null ? what + " needs params.k in [1, " + max + "]"
                            : "params.k must be an integer in [1, " + max + "]");
        }
        return k;
    }

    /** Refuses a parameter that does not apply to this kind. */
    public static void refuse(Params params, String name, String why) {
        if (params.has(name)) {
            throw PlanningException.invalid("params." + name, "absent", why);
        }
    }
}
