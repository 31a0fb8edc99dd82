/**
 * Concurrency patterns the service uses in more than one place, each written once with its failure
 * and interrupt rules: group commit ({@link GroupCommit}: concurrent callers' writes batched into one
 * transaction, used by admissions and the audit log) and the two-thread hand-off ({@link HandOff}:
 * one side of a pass on a second thread, a bounded number of items ahead, used by uploads and by the
 * reads of stored chunks). A leaf: JDK only, so every capability may use
 * it (docs/architecture.md, "The allowed arrows").
 */
@NullMarked
package io.privmat.concurrent;

import org.jspecify.annotations.NullMarked;
