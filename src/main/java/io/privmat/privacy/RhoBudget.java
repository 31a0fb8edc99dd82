package io.privmat.privacy;

/**
 * The largest ρ whose zCDP guarantee converts (CKS20) to at most the target (ε, δ), and the
 * Rényi order α* at which that conversion is attained.
 *
 * @param rho ρ_B, rounded down
 * @param alphaStar the order α* &gt; 1 that certifies it
 */
public record RhoBudget(double rho, double alphaStar) {}
