/** Cross-cutting start-up configuration: the embedded PostgreSQL used when no database is configured. */
@NullMarked
package io.privmat.config;

import org.jspecify.annotations.NullMarked;
