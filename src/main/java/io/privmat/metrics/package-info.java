/**
 * Service metrics for the operator (Micrometer, served on the ADMIN-only /actuator/prometheus): job
 * admissions, states, queue waits and durations, problem responses, ingest volume and budget use. No
 * metric carries a data value; docs/metrics.md says which are data-dependent and why that is acceptable.
 */
@org.jspecify.annotations.NullMarked
package io.privmat.metrics;
