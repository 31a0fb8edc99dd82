/**
 * Asynchronous jobs: the job table and its state machine ({@link io.privmat.job.JobState}), a
 * worker pool in every replica that claims jobs with {@code FOR UPDATE SKIP LOCKED}, heartbeats,
 * a reaper for dead workers, progress, and results stored exactly once. What a job computes is
 * supplied by {@link io.privmat.job.JobHandler}s registered by other capabilities.
 */
@NullMarked
package io.privmat.job;

import org.jspecify.annotations.NullMarked;
