package io.privmat.mechanism.catalog;

/**
 * One change that turns a dataset into a neighbour: a mechanism's witness that its declared
 * sensitivity is attained ({@link MechanismDefinition#extremalChanges}). A change applies to any base
 * dataset; the mechanism contract tests apply it to random ones and check that the statistic moves by
 * at most the declared sensitivity, and by more than half of it (so a halved declaration is caught).
 */
public sealed interface NeighbouringChange {

    /** ADD_REMOVE: one row of norm ≤ B added (or, read backwards, removed). */
    record AddedRow(double[] row) implements NeighbouringChange {}

    /** REPLACE_ONE: a row of the dataset, of norm ≤ B, replaced by another of norm ≤ B. */
    record ReplacedRow(double[] before, double[] after) implements NeighbouringChange {}

    /** Graphs: one edge of weight in (0, 1] added between two distinct vertices. */
    record AddedEdge(int u, int v, double weight) implements NeighbouringChange {}

    /** Histograms, ADD_REMOVE: one record added to {@code cell} (its count grows by 1). */
    record AddedRecord(int cell) implements NeighbouringChange {}

    /**
     * Histograms, REPLACE_ONE: one record moved from cell {@code from} to cell {@code to} (x − e_from
     * + e_to; the base dataset has a record in {@code from}).
     */
    record MovedRecord(int from, int to) implements NeighbouringChange {}

    /**
     * Ratings, USER (and RATING, calibrated as USER): one user's observed ratings (items ascending,
     * ratings in the declared range, at most s of them) replaced by another such set.
     */
    record ReplacedUser(int[] beforeItems, double[] beforeRatings, int[] afterItems, double[] afterRatings)
            implements NeighbouringChange {}

    /** Ratings, USER_ADD_REMOVE: one user with these ratings added. */
    record AddedUser(int[] items, double[] ratings) implements NeighbouringChange {}

    /**
     * Ratings, RATING: one observed rating (any user, any item of Ω) is {@code before} in one dataset
     * and {@code after} in the other, both in the declared range; Ω is the same in both.
     */
    record ChangedRating(double before, double after) implements NeighbouringChange {}
}
