/**
 * Private sketches released once and queried for free afterwards: the Johnson–Lindenstrauss
 * mechanism for graphs (cut queries, edge-level privacy) and for matrices (directional variance),
 * and the estimators with the error intervals their public parameters imply. See
 * docs/mechanisms/sketches.md.
 */
@NullMarked
package io.privmat.mechanism.sketch;

import org.jspecify.annotations.NullMarked;
