package io.privmat.mechanism;

/**
 * The one table of sensitivities (docs/mechanisms/neighbouring-and-sensitivities.md). Every mechanism takes its sensitivity
 * from here, never ad hoc; the factor between the relations is where silent DP bugs live.
 */
public final class Sensitivities {

    private Sensitivities() {}

    /**
     * The row bound used in sensitivity formulas: B widened by 2⁻⁴⁰ relative, so that the few-ulp
     * error of the floating-point norm computed when rows were clipped cannot put a stored row
     * above the bound the noise assumes.
     */
    static double bound(double rowBound) {
        return rowBound * (1 + 0x1p-40);
    }

    /**
     * Column sums Σᵢ xᵢ of rows with ‖xᵢ‖₂ ≤ B, in L2: B under ADD_REMOVE (one row appears or
     * disappears), 2B under REPLACE_ONE (x − x′ with both of norm ≤ B).
     */
    public static double columnSumsL2(double rowBound, NeighbouringRelation relation) {
        double b = bound(rowBound);
        return relation == NeighbouringRelation.ADD_REMOVE ? b : 2 * b;
    }

    /** Column sums in L1: ‖x‖₁ ≤ √d·‖x‖₂, so √d·B (ADD_REMOVE) or 2√d·B (REPLACE_ONE). */
    public static double columnSumsL1(double rowBound, int columns, NeighbouringRelation relation) {
        return Math.nextUp(Math.sqrt(columns) * columnSumsL2(rowBound, relation));
    }

    /**
     * The Gram matrix XᵀX in Frobenius norm (vec(XᵀX) in L2): B² under ADD_REMOVE (‖xxᵀ‖_F = ‖x‖²),
     * √2·B² under REPLACE_ONE (‖xxᵀ − yyᵀ‖_F² ≤ ‖x‖⁴ + ‖y‖⁴, tight for x ⟂ y).
     */
    public static double gramFrobenius(double rowBound, NeighbouringRelation relation) {
        double b2 = Math.nextUp(bound(rowBound) * bound(rowBound));
        return relation == NeighbouringRelation.ADD_REMOVE ? b2 : Math.nextUp(Math.sqrt(2) * b2);
    }

    /**
     * The eigenvalue vector λ(XᵀX) in L1: B² under ADD_REMOVE, 2B² under REPLACE_ONE (Weyl
     * interlacing plus the trace; docs/mechanisms/neighbouring-and-sensitivities.md).
     */
    public static double eigenvaluesL1(double rowBound, NeighbouringRelation relation) {
        double b2 = Math.nextUp(bound(rowBound) * bound(rowBound));
        return relation == NeighbouringRelation.ADD_REMOVE ? b2 : 2 * b2;
    }

    /**
     * One weighted edge event's term of a graph Laplacian, in Frobenius norm (vec(L) in L2). An edge
     * {u, v} of weight w ∈ [0, 1] is the row √w·(e_u − e_v), whose Gram term is w·bbᵀ with
     * b = e_u − e_v, ‖b‖² = 2, so ‖w·bbᵀ‖_F = w·‖b‖² ≤ 2 under ADD_REMOVE (the edge event present
     * or absent). Under REPLACE_ONE (one edge event replaced by another, any pair and weight):
     * ‖w·bbᵀ − w′·b′b′ᵀ‖_F² = 4w² + 4w′² − 2ww′(bᵀb′)² ≤ 8, so 2√2. These equal
     * {@link #gramFrobenius} at B = √2 (the row norm of a unit-weight edge).
     */
    public static double edgeLaplacianFrobenius(NeighbouringRelation relation) {
        return relation == NeighbouringRelation.ADD_REMOVE ? 2.0 : Math.nextUp(Math.sqrt(8.0));
    }

    /**
     * λ_min(XᵀX) of rows with ‖x‖₂ ≤ B: B² under both relations. Adding xxᵀ raises every eigenvalue
     * by between 0 and ‖x‖² (Weyl); replacing x by x′ adds x′x′ᵀ − xxᵀ, whose eigenvalues lie in
     * [−B², B²], so λ_min moves by at most B² (Weyl).
     */
    public static double minEigenvalue(double rowBound) {
        return Math.nextUp(bound(rowBound) * bound(rowBound));
    }

    /**
     * The cross moment Xᵀy in L2, where each row z = (x, y, …) has ‖z‖₂ ≤ B (x some columns, y another):
     * ‖x·y‖ = ‖x‖·|y| ≤ (‖x‖² + y²)/2 ≤ B²/2 under ADD_REMOVE, and ‖x·y − x′·y′‖ ≤ B² under
     * REPLACE_ONE.
     */
    public static double crossMomentL2(double rowBound, NeighbouringRelation relation) {
        double b2 = Math.nextUp(bound(rowBound) * bound(rowBound));
        return relation == NeighbouringRelation.ADD_REMOVE ? Math.nextUp(b2 / 2) : b2;
    }
}
