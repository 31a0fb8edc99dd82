package io.privmat.mechanism.catalog;

import io.privmat.mechanism.analytics.RegressionResult;
import org.jspecify.annotations.Nullable;

/**
 * What a mechanism releases: one typed record per result kind. Everything in it is private output.
 * The records here are the kinds the framework knows; a family may add its own (the completion
 * family's {@code CompletionRelease}, the linear-query family's {@code LinearQueriesRelease}), so
 * the interface is open.
 */
public interface Release {

    /** A noisy vector (column sums). */
    record Vector(double[] values) implements Release {}

    /**
     * A covariance or PCA answer after post-processing, and the raw noisy d × d matrix when it can be
     * kept as a reusable release (uncentred, non-PCA Gaussian or Wishart).
     */
    record Covariance(CovarianceRelease result, boolean pca, boolean centered, double @Nullable [] storable,
            Facts storableMeta) implements Release {}

    /** A rank-k factorisation; {@code leftFactor} when u is part of the answer. */
    record Factors(Factorization factorization, boolean leftFactor) implements Release {}

    /** Regression coefficients with their intervals, and public facts about how they were released. */
    record Regression(RegressionResult result, Facts facts) implements Release {}

    /**
     * A sketch stored as a release: {@code graph} true for a graph cut sketch (float32, rows × vertices),
     * false for a matrix sketch.
     */
    record Sketch(boolean graph, String sketchMechanism, int rows, int cols, double[] values,
            Facts meta) implements Release {}
}
