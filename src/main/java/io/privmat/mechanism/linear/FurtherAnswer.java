package io.privmat.mechanism.linear;

/**
 * The answer qᵀx̂ to a further linear query from a released estimate, with its exact standard
 * deviation from public values. {@code biasFactor} is the norm of the part of q the strategy does
 * not reproduce, ‖(ML − I)ᵀq‖₂ for the Low-Rank Mechanism (x̂ = M·y, y = Lx + z),
 * and 0 for least-squares strategies (which have full column rank, so qᵀx̂ is unbiased for every
 * q); the bias is then at most biasFactor·‖x‖₂.
 */
public record FurtherAnswer(double value, double standardDeviation, double biasFactor) {}
