/**
 * Column sums: the catalogue values GAUSSIAN, LAPLACE and CLIPPED_LAPLACE (Σᵢ xᵢ with Gaussian or
 * discrete Laplace noise; CLIPPED_LAPLACE clips each entry first). Their noise is mechanism's
 * top-level vector mechanisms. docs/mechanisms/catalogue.md.
 */
@NullMarked
package io.privmat.mechanism.sums;

import org.jspecify.annotations.NullMarked;
