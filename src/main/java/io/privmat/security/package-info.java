/**
 * Authentication and authorisation: API keys (stored only as SHA-256 hashes) sent as
 * {@code Authorization: Bearer}, roles (ADMIN, OWNER, ANALYST), the audit log of state-changing
 * calls, per-key rate limits and request-size limits. Dataset-level grants live with datasets;
 * object-level visibility (404 for what a caller may not see) is checked by each capability with
 * the {@link io.privmat.security.Caller}.
 */
@NullMarked
package io.privmat.security;

import org.jspecify.annotations.NullMarked;
