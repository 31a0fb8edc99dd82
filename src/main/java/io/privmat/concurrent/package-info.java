/**
 * Concurrency patterns the service uses in more than one place, each written once with its failure
 * and interrupt rules: group commit ({@link GroupCommit}: concurrent callers' writes batched into one
 * transaction, used by admissions and the audit log). A leaf: JDK only, so every capability may use
 * it (docs/architecture.md, "The allowed arrows").
 */
@NullMarked
package io.privmat.concurrent;

import org.jspecify.annotations.NullMarked;
