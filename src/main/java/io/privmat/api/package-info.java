/**
 * Cross-cutting web concerns: the problem catalogue ({@link io.privmat.api.ProblemType}), the root
 * exception, the RFC 9457 problem-details mapping and the OpenAPI set-up. Controllers live in
 * their capability's {@code web} package.
 */
@NullMarked
package io.privmat.api;

import org.jspecify.annotations.NullMarked;
