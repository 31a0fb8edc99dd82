/**
 * A thin facade over the linear algebra we use: BLAS/LAPACK through dev.ludovic.netlib (native
 * OpenBLAS, system or bundled, as bound at start-up by io.privmat.config.NativeBlas; a pure-Java
 * implementation otherwise) for the large products
 * and the symmetric eigendecomposition, EJML for small decompositions. Pure Java API.
 */
@NullMarked
package io.privmat.mechanism.linalg;

import org.jspecify.annotations.NullMarked;
