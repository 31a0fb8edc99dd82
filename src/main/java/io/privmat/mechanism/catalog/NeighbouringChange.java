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
}
