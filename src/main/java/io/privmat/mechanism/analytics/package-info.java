/**
 * Free analytics on a released noisy second-moment matrix (Analyze Gauss, Wishart, JL sketch): linear
 * regression, sparse and non-negative PCA, rank-k approximation and projections, each with an error
 * statement computed from released values and public noise parameters only. docs/mechanisms/analytics.md.
 */
@NullMarked
package io.privmat.mechanism.analytics;

import org.jspecify.annotations.NullMarked;
