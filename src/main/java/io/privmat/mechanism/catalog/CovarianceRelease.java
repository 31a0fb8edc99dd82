package io.privmat.mechanism.catalog;

import org.jspecify.annotations.Nullable;

/**
 * A private covariance estimate: the d×d matrix (row-major, symmetric PSD after post-processing)
 * and/or its top-k eigenpairs.
 *
 * @param covariance d×d estimate, or null when only a subspace is released
 * @param eigenvalues released eigenvalues, descending
 * @param components d×k row-major, orthonormal columns (the private top-k subspace)
 * @param noiseDominated true when the estimate's largest eigenvalue is within the noise's own
 *        typical spectral size, so the answer says more about the noise than about the data (set by
 *        {@link io.privmat.mechanism.covariance.WishartMechanism#estimate}; false where not assessed). Post-processing: free.
 */
public record CovarianceRelease(int d, double @Nullable [] covariance, double[] eigenvalues, double[] components, int k,
        boolean noiseDominated) {

    /** A release whose noise level is not assessed ({@code noiseDominated} false). */
    public CovarianceRelease(int d, double @Nullable [] covariance, double[] eigenvalues, double[] components, int k) {
        this(d, covariance, eigenvalues, components, k, false);
    }
}
