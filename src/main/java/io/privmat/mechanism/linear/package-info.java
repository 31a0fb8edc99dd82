/**
 * Batch linear counting queries over a histogram with public attribute domains: workloads as values,
 * data-independent strategies (identity, hierarchical, the Low-Rank Mechanism, optimised Gaussian
 * matrix-mechanism strategies) and calibrated mechanisms whose expected error is known from public
 * values before anything is spent (docs/mechanisms/linear-queries.md).
 */
@NullMarked
package io.privmat.mechanism.linear;

import org.jspecify.annotations.NullMarked;
