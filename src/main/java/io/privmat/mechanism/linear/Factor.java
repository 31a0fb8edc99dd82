package io.privmat.mechanism.linear;

/**
 * One attribute's factor A_i (rows × cols) of a product strategy A = ⊗A_i, acting on fibres stored
 * as rows: {@link #forward} computes A_i·v, {@link #leastSquares} the least-squares estimate
 * (A_iᵀA_i)⁻¹A_iᵀ·y, and {@link #covariance} is K_i = (A_iᵀA_i)⁻¹. Every factor has full column rank.
 */
sealed interface Factor permits IdentityFactor, TreeFactor, DenseFactor {

    int cols();

    int rows();

    /** out (count × rows) = A_i applied to each of the count rows of in (count × cols). */
    void forward(double[] in, int count, double[] out);

    /** out (count × cols) = (A_iᵀA_i)⁻¹A_iᵀ applied to each row of in (count × rows). */
    void leastSquares(double[] in, int count, double[] out);

    /** max_j ‖A_i e_j‖₁. */
    double maxColumnL1();

    /** max_j ‖A_i e_j‖₂. */
    double maxColumnL2();

    /** True when every entry of A_iᵀA_i is ≥ 0 (then ‖A_i(e_j − e_k)‖₂² ≤ 2·max_j ‖A_i e_j‖₂²). */
    boolean gramNonNegative();

    Covariance1D covariance();
}
