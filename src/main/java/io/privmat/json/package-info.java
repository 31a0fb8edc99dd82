/**
 * JSON-shaped values in plain Java: {@link io.privmat.json.JsonValues} checks and freezes what a JSON
 * document can carry (the one place raw request parameters and problem members are copied),
 * {@link io.privmat.json.JsonObject} is an ordered, immutable object of such values (raw request
 * parameters extend it in {@code mechanism}), and {@link io.privmat.json.ProblemProperties} holds the
 * extension members of an RFC 9457 problem. A
 * leaf: JDK only, so that the pure-Java {@code mechanism} (its request parameters, its planning
 * refusals) and every capability use the same values (docs/architecture.md, "The allowed arrows").
 */
@NullMarked
package io.privmat.json;

import org.jspecify.annotations.NullMarked;
