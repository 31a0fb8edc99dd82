package io.privmat.api;

import io.privmat.problem.PrivmatException;
/** Validation of paging parameters, the same everywhere. */
public final class Paging {

    private Paging() {}

    /** Checks {@code offset} (or a keyset cursor) ≥ 0 and {@code limit} in [1, maxLimit]. */
    public static void check(String offsetName, long offset, int limit, int maxLimit) {
        if (offset < 0) {
            throw PrivmatException.invalidParameter(offsetName, "[0, ∞)",
                    offsetName + " must be in [0, ∞) but was " + offset);
        }
        if (limit < 1 || limit > maxLimit) {
            throw PrivmatException.invalidParameter("limit", "[1, " + maxLimit + "]",
                    "limit must be in [1, " + maxLimit + "] but was " + limit);
        }
    }
}
