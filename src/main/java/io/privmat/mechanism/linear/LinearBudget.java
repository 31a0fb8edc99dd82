package io.privmat.mechanism.linear;

/**
 * The privacy parameter a linear-query mechanism is calibrated to (doubles already rounded down by
 * the caller from the request's decimals): pure ε for the Laplace mechanisms, ρ (zCDP) or (ε, δ)
 * (analytic Gaussian calibration) for the Gaussian ones.
 */
public sealed interface LinearBudget permits LinearBudget.Pure, LinearBudget.Rho, LinearBudget.EpsilonDelta {

    /** Pure ε-DP (Laplace). */
    record Pure(double epsilon) implements LinearBudget {}

    /** ρ-zCDP (Gaussian, σ = Δ₂/√(2ρ)). */
    record Rho(double rho) implements LinearBudget {}

    /** (ε, δ)-DP (Gaussian, Balle–Wang analytic calibration). */
    record EpsilonDelta(double epsilon, double delta) implements LinearBudget {}

    default boolean gaussian() {
        return !(this instanceof Pure);
    }
}
