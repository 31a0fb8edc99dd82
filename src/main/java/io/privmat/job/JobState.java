package io.privmat.job;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Job states and the one table of allowed transitions.
 *
 * <pre>
 * QUEUED  → RUNNING    a worker claimed it
 * QUEUED  → CANCELLED  cancelled before any worker took it (refunded)
 * RUNNING → QUEUED     the worker died before "data access started" (reaper; no charge final yet)
 * RUNNING → DONE       result stored
 * RUNNING → FAILED     the mechanism failed (charge kept if data access had started, else refunded)
 * RUNNING → CANCELLED  cancelled while running (refunded only if data access had not started)
 * </pre>
 */
public enum JobState {
    QUEUED, RUNNING, DONE, FAILED, CANCELLED;

    private static final Map<JobState, Set<JobState>> ALLOWED = Map.of(
            QUEUED, EnumSet.of(RUNNING, CANCELLED),
            RUNNING, EnumSet.of(QUEUED, DONE, FAILED, CANCELLED),
            DONE, EnumSet.noneOf(JobState.class),
            FAILED, EnumSet.noneOf(JobState.class),
            CANCELLED, EnumSet.noneOf(JobState.class));

    public boolean canBecome(JobState next) {
        return ALLOWED.get(this).contains(next);
    }

    public boolean isTerminal() {
        return ALLOWED.get(this).isEmpty();
    }

    /** Throws if {@code this → next} is not in the table. */
    public void requireTransition(JobState next) {
        if (!canBecome(next)) {
            throw new IllegalStateException("job state " + this + " cannot become " + next);
        }
    }
}
