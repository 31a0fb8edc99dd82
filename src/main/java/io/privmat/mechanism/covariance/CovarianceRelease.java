package io.privmat.mechanism.covariance;

import org.jspecify.annotations.Nullable;

/**
 * A private covariance estimate: the d×d matrix (row-major, symmetric PSD after post-processing)
 * and/or its top-k eigenpairs.
 *
 * @param covariance d×d estimate, or null when only a subspace is released
 * @param eigenvalues released eigenvalues, descending
 * @param components d×k row-major, orthonormal columns (the private top-k subspace)
 */
public record CovarianceRelease(int d, double @Nullable [] covariance, double[] eigenvalues, double[] components, int k) {}
