package io.privmat.mechanism.linear;

/** The mechanisms for a batch of linear queries (docs/mechanisms/linear-queries.md). */
public enum LinearMechanism {
    /** Laplace noise on x (pure ε); answers W·x̂. */
    LAPLACE_IDENTITY,
    /** Gaussian noise on x (ρ-zCDP or (ε, δ)); answers W·x̂. */
    GAUSSIAN_IDENTITY,
    /** Laplace noise on W·x directly (pure ε), L1 sensitivity the largest column L1 norm of W. */
    LAPLACE_WORKLOAD,
    /** The binary-tree strategy with least-squares inference; Laplace (ε) or Gaussian (ρ, (ε, δ)). */
    HIERARCHICAL,
    /** The Low-Rank Mechanism (Yuan et al. 2012): W ≈ B·L, Laplace noise on L·x (pure ε). */
    LOW_RANK_MECHANISM,
    /** The Gaussian matrix mechanism with an optimised strategy (ρ-zCDP or (ε, δ)). */
    OPTIMIZED
}
