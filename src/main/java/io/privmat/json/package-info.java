/**
 * JSON-shaped values in plain Java: {@link io.privmat.json.JsonValues} checks and freezes what a JSON
 * document can carry (the one place raw request parameters are copied). A leaf: JDK only, so that
 * the pure-Java {@code mechanism} (its request parameters) and every capability use the same values
 * (docs/architecture.md, "The allowed arrows").
 */
@NullMarked
package io.privmat.json;

import org.jspecify.annotations.NullMarked;
