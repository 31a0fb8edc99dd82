package io.privmat.mechanism.linear;

/**
 * A data-independent measurement strategy: a public matrix A (rows × n) whose noisy answers y = Ax + z
 * are turned into an estimate x̂ (least squares, or B·y for the Low-Rank Mechanism) and workload
 * answers W·x̂. A strategy is a function of public inputs only (the workload and options), so it
 * costs no privacy budget, can be cached by ({@link Workload#hash()}, mechanism, options) and is
 * serialised by {@link StrategyCodec}.
 */
public sealed interface Strategy permits ProductStrategy, LowRankStrategy {

    /** IDENTITY, HIERARCHICAL, OPTIMIZED or LOW_RANK. */
    String kind();

    /** n. */
    int cells();

    /** The noise dimension (rows of A). */
    long rows();

    /** max_j ‖A e_j‖₁ (for the Low-Rank Mechanism: Δ_L of the final L). */
    double maxColumnL1();

    /** max_j ‖A e_j‖₂. */
    double maxColumnL2();

    /** Whether every entry of AᵀA is ≥ 0 (the REPLACE_ONE L2 sensitivity is then √2·max column norm). */
    boolean gramNonNegative();

    /** A·x (the statistic the noise is added to). */
    double[] measure(double[] x);

    /** The estimate x̂ from noisy measurements y. */
    double[] estimate(double[] y);

    /** Cov(x̂) when every measurement has independent noise of this variance. */
    CellCovariance covariance(double noiseVariance, Domain domain);

    StrategyInfo info();
}
