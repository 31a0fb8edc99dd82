/**
 * The just-in-time compiler's warm-up at start-up (docs/benchmarks.md): the read path's kernels and a
 * PCA release with its result document, on a synthetic matrix; no dataset read, nothing stored.
 */
@NullMarked
package io.privmat.query.warmup;

import org.jspecify.annotations.NullMarked;
