/**
 * Cross-cutting start-up configuration: the embedded PostgreSQL used when no database is
 * configured, the choice of native BLAS/LAPACK (system, bundled OpenBLAS or pure Java), and the
 * service's one mechanism catalogue.
 */
@NullMarked
package io.privmat.config;

import org.jspecify.annotations.NullMarked;
