package io.privmat.mechanism.catalog;

import io.privmat.mechanism.NeighbouringRelation;
import java.util.Objects;

/**
 * The public structure of a ratings dataset, declared at creation: the item universe n, the rating
 * range, the per-user cap s and the ratings relation (docs/mechanisms/completion.md, "Relations").
 */
public record RatingsFacts(RatingsDomain domain, RatingsRelation relation) {

    public RatingsFacts {
        Objects.requireNonNull(domain);
        Objects.requireNonNull(relation);
    }

    /** The row-level relation the facts carry: USER and RATING → REPLACE_ONE, USER_ADD_REMOVE → ADD_REMOVE. */
    public NeighbouringRelation rowRelation() {
        return relation.userRelation();
    }
}
