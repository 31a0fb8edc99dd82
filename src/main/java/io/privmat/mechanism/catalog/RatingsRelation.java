package io.privmat.mechanism.catalog;

import io.privmat.mechanism.NeighbouringRelation;

/**
 * Neighbouring relations over ratings datasets (docs/mechanisms/completion.md, "Relations").
 */
public enum RatingsRelation {
    /**
     * One user's whole row (items and ratings) is replaced by any other row of at most s ratings in
     * range. Calibrated with the replace-one sensitivities; because no mechanism here reads the
     * number of users m, the same run is also DP for adding or removing a user, whose sensitivity
     * is never larger. The number of users is not treated as public.
     */
    USER,
    /**
     * A user (with all of their ratings) is added or removed; calibrated with the smaller add/remove
     * sensitivities. Replacing a user is then two steps (group privacy: twice the GDP μ).
     */
    USER_ADD_REMOVE,
    /**
     * One observed rating changes to another value in [lo, hi]; the observed set Ω, hence the
     * number of users and which items each user rated, is public. Entry-level privacy (Hardt and
     * Roth 2012), much weaker than USER for people who rate many items.
     */
    RATING;

    /** The row-level relation a user-level mechanism is calibrated with (RATING → as USER). */
    public NeighbouringRelation userRelation() {
        return this == USER_ADD_REMOVE ? NeighbouringRelation.ADD_REMOVE : NeighbouringRelation.REPLACE_ONE;
    }
}
