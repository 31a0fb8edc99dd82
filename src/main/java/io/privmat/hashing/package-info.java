/**
 * SHA-256 in hex, the one way the service names content by its hash (workload addresses, strategy
 * keys, idempotency hashes, API-key hashes). A leaf: JDK only, so every capability may use it,
 * the pure-Java {@code privacy} and {@code mechanism} included (docs/architecture.md, "The allowed
 * arrows").
 */
@NullMarked
package io.privmat.hashing;

import org.jspecify.annotations.NullMarked;
