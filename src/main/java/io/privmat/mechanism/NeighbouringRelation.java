package io.privmat.mechanism;

/** Neighbouring relations over a matrix's rows (docs/mechanisms/neighbouring-and-sensitivities.md). */
public enum NeighbouringRelation {
    /** N-AR: add or remove one row of L2 norm at most B (unbounded DP). */
    ADD_REMOVE,
    /** N-RO: replace one row by another, both of norm at most B (bounded DP). */
    REPLACE_ONE
}
