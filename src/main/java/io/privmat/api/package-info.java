/**
 * Cross-cutting web concerns: the RFC 9457 problem-details mapping of the error catalogue
 * ({@code io.privmat.problem}) and the OpenAPI set-up. Controllers live in
 * their capability's {@code web} package.
 */
@NullMarked
package io.privmat.api;

import org.jspecify.annotations.NullMarked;
