/**
 * Stored query workloads (LINEAR_QUERIES with a CUSTOM workload): content addressed by its SHA-256
 * and stored once, DENSE or SPARSE ({@link WorkloadContent}), one reference per caller, quotas
 * ({@link WorkloadSettings}) and the checked, cached decoding plans read ({@link WorkloadService}).
 */
@NullMarked
package io.privmat.query.workload;

import org.jspecify.annotations.NullMarked;
