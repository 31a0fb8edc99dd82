/**
 * Cross-cutting start-up configuration: the embedded PostgreSQL used when no database is
 * configured, and the choice of native BLAS/LAPACK (system, bundled OpenBLAS or pure Java).
 */
@NullMarked
package io.privmat.config;

import org.jspecify.annotations.NullMarked;
