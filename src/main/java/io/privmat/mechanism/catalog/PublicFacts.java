package io.privmat.mechanism.catalog;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.privacy.AccountingMode;
import org.jspecify.annotations.Nullable;

/**
 * Everything a plan may depend on about a dataset: only its public facts. The row count is present
 * only where it is public (REPLACE_ONE matrices; a graph's declared vertex count), so a mechanism
 * cannot make its noise or clamping depend on a private n.
 *
 * @param cols d for a matrix; the vertex count for a graph
 * @param publicRows n when it is public, else null
 */
public record PublicFacts(DataShape shape, int cols, @Nullable Long publicRows, double rowNormBound,
        NeighbouringRelation relation, AccountingMode mode) {

    public PublicFacts {
        if (cols < 1) {
            throw new IllegalArgumentException("cols must be ≥ 1");
        }
        if (relation == NeighbouringRelation.ADD_REMOVE && shape == DataShape.MATRIX && publicRows != null) {
            throw new IllegalArgumentException("under ADD_REMOVE the row count is private");
        }
    }

    /** n, for mechanisms that need it public; refused (400) otherwise. */
    public int requirePublicRows(String mechanism) {
        if (publicRows == null) {
            throw PlanningException.invalid("mechanism", "a mechanism for private n", mechanism
                    + " releases one row per record and needs a public row count (REPLACE_ONE); this dataset is "
                    + relation);
        }
        return Math.toIntExact(publicRows);
    }
}
