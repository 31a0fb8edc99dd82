/**
 * Storage of API keys and the audit log (internal): JPA entities and Spring Data repositories behind
 * the repository classes the services use; SQL only for the per-subject advisory lock.
 */
@NullMarked
package io.privmat.security.jdbc;

import org.jspecify.annotations.NullMarked;
