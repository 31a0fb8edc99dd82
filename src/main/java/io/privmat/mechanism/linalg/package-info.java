/**
 * A thin facade over the linear algebra we use: BLAS/LAPACK through dev.ludovic.netlib (the
 * system's OpenBLAS when installed, a pure-Java implementation otherwise) for the large products
 * and the symmetric eigendecomposition, EJML for small decompositions. Pure Java API.
 */
@NullMarked
package io.privmat.mechanism.linalg;

import org.jspecify.annotations.NullMarked;
