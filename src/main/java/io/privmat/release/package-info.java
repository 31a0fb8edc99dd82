/**
 * Stored private artifacts (sketches, noisy second-moment matrices) with their provenance, and the
 * free queries answered from them — directional variances and graph cuts — which are
 * post-processing: they touch no raw data and never charge the ledger.
 */
@NullMarked
package io.privmat.release;

import org.jspecify.annotations.NullMarked;
