/**
 * Covariance (second-moment) estimation and PCA: Analyze Gauss, the additive Wishart mechanism and
 * pure-ε iterative eigenvector sampling with an exact Bingham sampler. Each takes the exact Gram
 * matrix XᵀX (built by streaming) and public parameters only. See docs/mechanisms/covariance.md.
 */
@NullMarked
package io.privmat.mechanism.covariance;

import org.jspecify.annotations.NullMarked;
