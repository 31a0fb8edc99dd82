/**
 * The catalogue of query kinds: request validation, planning to a mechanism with its exact cost
 * (from public parameters only), admission (reserve + enqueue in one transaction), and the job
 * handlers that run each kind on a dataset's rows.
 */
@NullMarked
package io.privmat.query;

import org.jspecify.annotations.NullMarked;
