/** JDBC access to API keys and the audit log (internal). */
@NullMarked
package io.privmat.security.jdbc;

import org.jspecify.annotations.NullMarked;
