package io.privmat.security;

import io.privmat.concurrent.GroupCommit;
import io.privmat.security.jdbc.AuditRepository;

/**
 * Appends audit events with group commit: a request's event is written before its response
 * completes, as when each request wrote its own row, but the events of requests that finish while
 * another append is running wait for it and are then written together, in arrival order, in one
 * INSERT and one commit (at most {@value #MAX_BATCH}); the first to find no append running writes
 * the batch. Each caller returns once the transaction holding its event has committed, or gets its
 * failure (the whole batch's); an interrupted caller still waits for its event. The batching is
 * {@link GroupCommit}'s, as for the admissions (query.Admissions); the cost it removes is measured in
 * docs/benchmarks.md, "Admissions from clients in another process".
 */
final class AuditAppender {

    static final int MAX_BATCH = 256;

    private final GroupCommit<AuditRepository.Entry, Void> appends;

    AuditAppender(AuditRepository audit) {
        this.appends = GroupCommit.oneLane("audit append", MAX_BATCH, GroupCommit.Interrupts.WAIT,
                GroupCommit.Writer.whole(audit::insertAll));
    }

    /** Appends the event; returns when it is committed. */
    void append(AuditRepository.Entry entry) {
        appends.submit(entry);
    }
}
