/**
 * Strategies of LINEAR_QUERIES as cached public artifacts: computed from a workload alone in a small
 * background executor (no data access, no budget), stored once in PostgreSQL and in a bounded memory
 * cache, and served with their progress and expected error (docs/adr/0009-strategy-cache.md).
 */
@NullMarked
package io.privmat.strategy;

import org.jspecify.annotations.NullMarked;
