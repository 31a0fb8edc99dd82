package io.privmat.query;

import io.privmat.mechanism.GaussianVectorMechanism;
import io.privmat.mechanism.covariance.AnalyzeGaussMechanism;
import io.privmat.mechanism.covariance.EigenSamplingMechanism;
import io.privmat.mechanism.covariance.WishartMechanism;
import org.jspecify.annotations.Nullable;

/**
 * How a COVARIANCE or PCA job runs: exactly one of the three mechanisms, the rank k, and for a
 * centred estimate the mechanism that releases the column sums.
 */
record CovarianceSpec(@Nullable AnalyzeGaussMechanism analyzeGauss, @Nullable WishartMechanism wishart,
        @Nullable EigenSamplingMechanism eigenSampling, int k, @Nullable GaussianVectorMechanism mean,
        boolean pca) {}
