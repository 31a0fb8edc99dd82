package io.privmat.mechanism;

/**
 * The one table of sensitivities (mechanisms.md §1.2). Every mechanism takes its sensitivity
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
     * interlacing plus the trace; mechanisms.md §1.2).
     */
    public static double eigenvaluesL1(double rowBound, NeighbouringRelation relation) {
        double b2 = Math.nextUp(bound(rowBound) * bound(rowBound));
        return relation == NeighbouringRelation.ADD_REMOVE ? b2 : 2 * b2;
    }

    /**
     * One rating changed within its public range [lo, hi] (entry-level neighbours, the RATING
     * relation of the ratings datasets): the matrix moves by one entry of size at most hi − lo, so
     * vec(matrix) has L2 sensitivity hi − lo. As a row change it is a vector of L2 norm ≤ hi − lo,
     * which is what the row-level low-rank mechanisms' proofs use ("2B" with B = (hi − lo)/2).
     */
    public static double ratingEntryChange(double lo, double hi) {
        if (!(hi > lo) || !Double.isFinite(lo) || !Double.isFinite(hi)) {
            throw new IllegalArgumentException("need finite lo < hi");
        }
        return Math.nextUp(bound(hi - lo));
    }

    /**
     * Private ALS item statistics, the n per-item Grams Σ_{i rated j} uᵢuᵢᵀ (r × r each) stacked, in
     * Frobenius norm, for user factors clipped to ‖u‖ ≤ C and at most s ratings per user: one user
     * adds uuᵀ to at most s blocks, √(s·‖u‖⁴) ≤ √s·C² under ADD_REMOVE; replaced, the blocks of
     * both users (PSD, non-negative inner products) give √(2s)·C² under REPLACE_ONE.
     */
    public static double alsItemGramsFrobenius(int perUserCap, double clip, NeighbouringRelation relation) {
        double c2 = Math.nextUp(bound(clip) * bound(clip));
        double copies = relation == NeighbouringRelation.ADD_REMOVE ? perUserCap : 2.0 * perUserCap;
        return Math.nextUp(Math.sqrt(copies) * c2);
    }

    /**
     * Private ALS item right-hand sides Σ_{i rated j} y_ij·uᵢ (r each) stacked, in L2, for ‖u‖ ≤ C
     * and a user's observed (centred) ratings of L2 norm ≤ L: one user contributes the vector
     * (y_ij·u)_j of norm ‖y‖·‖u‖ ≤ L·C under ADD_REMOVE, and the difference of two such vectors,
     * ≤ 2·L·C, under REPLACE_ONE.
     */
    public static double alsItemRhsL2(double rowBound, double clip, NeighbouringRelation relation) {
        double lc = Math.nextUp(bound(rowBound) * bound(clip));
        return relation == NeighbouringRelation.ADD_REMOVE ? lc : 2 * lc;
    }
}
