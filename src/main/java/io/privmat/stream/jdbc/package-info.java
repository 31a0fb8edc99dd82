/** SQL of streams and subscriptions (internal). */
@NullMarked
package io.privmat.stream.jdbc;

import org.jspecify.annotations.NullMarked;
