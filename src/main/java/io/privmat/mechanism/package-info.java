/**
 * DP mechanisms and noise sources, pure Java (no Spring, Jackson, JDBC or logging). Each
 * mechanism states its neighbouring relation and its privacy loss as a function of public
 * parameters; only {@code release} touches data. Built by the mechanism issues.
 */
@NullMarked
package io.privmat.mechanism;

import org.jspecify.annotations.NullMarked;
