/**
 * Randomness for DP mechanisms: CSPRNG-backed {@link io.privmat.mechanism.noise.NoiseSource}s, exact
 * samplers on the integers (Bernoulli(exp(−γ)), discrete Laplace, discrete Gaussian; Canonne,
 * Kamath, Steinke 2020), and release helpers that snap values to a power-of-two grid so that no
 * floating-point low-order bits leak (Mironov 2012). Pure Java.
 *
 * <p>Timing: the exact samplers take a random number of iterations that depends on the noise
 * drawn (never on the data). Callers must not expose per-sample timings; see docs/mechanisms/noise.md.
 */
@NullMarked
package io.privmat.mechanism.noise;

import org.jspecify.annotations.NullMarked;
