/**
 * Datasets: creation with a privacy unit and budget, streaming upload of matrices (CSV/TSV,
 * Matrix Market, .npy) and graphs (edge lists) into chunked PostgreSQL storage with validation
 * and row clipping, and the streaming readers that mechanisms use. Public surface: this package;
 * {@code ingest}, {@code storage} and {@code web} are internal.
 */
@NullMarked
package io.privmat.dataset;

import org.jspecify.annotations.NullMarked;
