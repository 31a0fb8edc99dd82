package io.privmat.mechanism;

/**
 * The one table of sensitivities (mechanisms.md §1.2). Every mechanism takes its sensitivity
 * from here, never ad hoc; the factor between the relations is where silent DP bugs live.
 */
public final class Sensitivities {

    private Sensitivities() {}

    /**
     * Column sums Σᵢ xᵢ of rows with ‖xᵢ‖₂ ≤ B, in L2: B under ADD_REMOVE (one row appears or
     * disappears), 2B under REPLACE_ONE (x − x′ with both of norm ≤ B).
     */
    public static double columnSumsL2(double rowBound, NeighbouringRelation relation) {
        return relation == NeighbouringRelation.ADD_REMOVE ? rowBound : 2 * rowBound;
    }

    /** Column sums in L1: ‖x‖₁ ≤ √d·‖x‖₂, so √d·B (ADD_REMOVE) or 2√d·B (REPLACE_ONE). */
    public static double columnSumsL1(double rowBound, int columns, NeighbouringRelation relation) {
        return Math.sqrt(columns) * columnSumsL2(rowBound, relation);
    }
}
