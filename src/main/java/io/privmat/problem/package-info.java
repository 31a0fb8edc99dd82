/**
 * The error catalogue every capability stands on: the problem types ({@link ProblemType}: slug,
 * title, HTTP status) and the root exception that carries one. No web types; the RFC 9457 mapping
 * lives in {@code io.privmat.api}.
 */
@NullMarked
package io.privmat.problem;

import org.jspecify.annotations.NullMarked;
