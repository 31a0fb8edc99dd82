/** HTTP adapter of security: API keys and the audit log (internal). */
@NullMarked
package io.privmat.security.web;

import org.jspecify.annotations.NullMarked;
