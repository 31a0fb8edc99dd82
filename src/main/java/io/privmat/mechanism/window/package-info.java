/**
 * Sliding-window second-moment statistics under continual release: a stream of rows (or weighted
 * edges) grouped into public blocks, one private release per completed block, and the windowed
 * covariance, PCA, directional variance and cut answers as free post-processing. Three mechanisms
 * (disjoint blocks, a dyadic tree over blocks, a banded Toeplitz matrix factorisation) with their
 * persisted state; see docs/mechanisms/windows.md.
 */
@NullMarked
package io.privmat.mechanism.window;

import org.jspecify.annotations.NullMarked;
