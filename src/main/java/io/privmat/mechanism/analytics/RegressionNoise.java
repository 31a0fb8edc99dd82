package io.privmat.mechanism.analytics;

/**
 * What a regression's error statement needs of a noise model, for predictors X (p columns) and a
 * response y of a released second moment. Write Ĉ = C + τI + E′ (E′ the centred noise) and, for any
 * β, v = (−β, 1). Then, except with probability ν (uniformly in β):
 * ‖(E′v)_X‖ ≤ a0 + a1·‖β‖ and |E′_yy| ≤ responseNoise. For β fixed before the noise,
 * Cov((E′v)_X) = covIdentity·I + covBeta·(‖β‖²I + ββᵀ) (used by the approximate intervals).
 */
public record RegressionNoise(double a0, double a1, double responseNoise, double covIdentity, double covBeta) {}
