package io.privmat.mechanism.linear;

import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ReleaseMeta;

/**
 * LINEAR_QUERIES: the workload answers with their standard deviations and expected error, and the
 * estimate x̂ (null when the noise goes on W·x directly) to store as a release answering further linear queries;
 * {@code estimateMeta} holds the public facts that rebuild its error model (declared in
 * {@link ReleaseMeta}).
 */
public record LinearQueriesRelease(LinearQueryRelease result, Facts estimateMeta) implements Release {}
