package io.privmat.mechanism.linear;

/**
 * The error of a calibrated linear-query mechanism, from public values only (known before anything
 * is spent).
 *
 * @param perQueryRmse √(E‖answers − Wx‖²/m) from the noise: Laplace variance 2b² (exact for the
 *     discrete Laplace on the grid) or Gaussian σ² per measurement, propagated exactly through
 *     the strategy: E‖Wx̂ − Wx‖² = var·tr(WᵀW·Cov(x̂)/var)
 * @param totalSquaredError E‖answers − Wx‖² from the noise
 * @param noiseVariance variance of each noisy measurement
 * @param sensitivity the strategy's sensitivity the noise is calibrated to
 * @param sensitivityNorm "L1" (Laplace) or "L2" (Gaussian)
 * @param noiseDimension number of noisy measurements
 * @param residualFrobenius a Low-Rank factorisation's ‖W − BL‖_F (the answers then also carry the
 *     data-dependent bias (BL − W)x, at most ‖W − BL‖₂·‖x‖₂, not included above); 0 otherwise
 */
public record ExpectedError(double perQueryRmse, double totalSquaredError, double noiseVariance, double sensitivity,
        String sensitivityNorm, long noiseDimension, double residualFrobenius) {}
