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
     * Column sums of rows clipped entrywise to [−c, c], in L1: a clipped row has
     * ‖clip(x)‖₁ = Σⱼ min(c, |xⱼ|) ≤ min(d·c, ‖x‖₁) ≤ min(d·c, √d·B), so min(d·c, √d·B) under
     * ADD_REMOVE and twice that under REPLACE_ONE (‖clip(x) − clip(y)‖₁ ≤ ‖clip(x)‖₁ + ‖clip(y)‖₁).
     */
    public static double clippedColumnSumsL1(double rowBound, double entryBound, int columns,
            NeighbouringRelation relation) {
        double one = Math.min(Math.nextUp(columns * entryBound),
                columnSumsL1(rowBound, columns, NeighbouringRelation.ADD_REMOVE));
        return relation == NeighbouringRelation.ADD_REMOVE ? one : 2 * one;
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

    /**
     * A histogram x (counts per cell of a public domain) in L1: one record added or removed changes
     * one count by 1 (x ± e_j), so 1 under ADD_REMOVE; one record replaced moves a count from one
     * cell to another (x − e_j + e_k), so 2 under REPLACE_ONE.
     */
    public static double histogramL1(NeighbouringRelation relation) {
        return relation == NeighbouringRelation.ADD_REMOVE ? 1 : 2;
    }

    /** The histogram in L2: ‖±e_j‖₂ = 1 under ADD_REMOVE, ‖e_k − e_j‖₂ = √2 under REPLACE_ONE. */
    public static double histogramL2(NeighbouringRelation relation) {
        return relation == NeighbouringRelation.ADD_REMOVE ? 1 : Math.nextUp(Math.sqrt(2));
    }

    /**
     * A linear statistic A·x of a histogram in L1, from the largest column L1 norm c₁ = max_j ‖A e_j‖₁:
     * c₁ under ADD_REMOVE (A(±e_j)), 2·c₁ under REPLACE_ONE (‖A e_k − A e_j‖₁ ≤ ‖A e_k‖₁ + ‖A e_j‖₁).
     * c₁ is a floating-point sum; it is widened by 2⁻³⁰ relative, far above its rounding error.
     */
    public static double linearL1(double maxColumnL1, NeighbouringRelation relation) {
        return Math.nextUp(histogramL1(relation) * maxColumnL1 * (1 + 0x1p-30));
    }

    /**
     * A linear statistic A·x of a histogram in L2, from the largest column L2 norm c₂: c₂ under
     * ADD_REMOVE. Under REPLACE_ONE ‖A(e_k − e_j)‖₂² = ‖A e_k‖² + ‖A e_j‖² − 2(AᵀA)_{jk}, at most 2c₂²
     * when every entry of AᵀA is ≥ 0 (√2·c₂), and at most (2c₂)² otherwise (triangle inequality).
     * Widened by 2⁻³⁰ relative for the floating-point norm.
     */
    public static double linearL2(double maxColumnL2, boolean gramNonNegative, NeighbouringRelation relation) {
        double factor = relation == NeighbouringRelation.ADD_REMOVE ? 1 : gramNonNegative ? Math.nextUp(Math.sqrt(2)) : 2;
        return Math.nextUp(factor * maxColumnL2 * (1 + 0x1p-30));
    }
}
