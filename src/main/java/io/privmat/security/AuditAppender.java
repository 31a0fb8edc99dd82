package io.privmat.security;

import io.privmat.security.jdbc.AuditRepository;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Appends audit events with group commit: a request's event is written before its response
 * completes, as when each request wrote its own row, but the events of requests that finish while
 * another append is running wait for it and are then written together, in arrival order, in one
 * INSERT and one commit (at most {@value #MAX_BATCH}); the first to find no append running writes
 * the batch. Each caller returns once the transaction holding its event has committed, or gets its
 * failure (the whole batch's). Same pattern as the admissions' group commit (query.Admissions); the
 * cost it removes is measured in docs/benchmarks.md, "Admissions from clients in another process".
 */
final class AuditAppender {

    static final int MAX_BATCH = 256;

    private final AuditRepository audit;
    private final Object lock = new Object();
    private final ArrayList<Waiter> waiting = new ArrayList<>();
    private boolean busy;

    AuditAppender(AuditRepository audit) {
        this.audit = audit;
    }

    private static final class Waiter {
        final AuditRepository.Entry entry;
        boolean done;
        @Nullable RuntimeException failure;

        Waiter(AuditRepository.Entry entry) {
            this.entry = entry;
        }
    }

    /** Appends the event; returns when it is committed. */
    void append(AuditRepository.Entry entry) {
        Waiter self = new Waiter(entry);
        boolean interrupted = false;
        synchronized (lock) {
            waiting.add(self);
        }
        while (true) {
            List<Waiter> batch;
            synchronized (lock) {
                while (!self.done && busy) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        // Queued, perhaps already in a running batch: its outcome is coming.
                        interrupted = true;
                    }
                }
                if (self.done) {
                    break;
                }
                busy = true;
                int n = Math.min(MAX_BATCH, waiting.size());
                batch = new ArrayList<>(waiting.subList(0, n));
                waiting.subList(0, n).clear();
            }
            RuntimeException failure = null;
            try {
                audit.insertAll(batch.stream().map(w -> w.entry).toList());
            } catch (RuntimeException e) {
                failure = e;
            } catch (Error e) {
                failure = new IllegalStateException("audit append failed: " + e, e);
            } finally {
                synchronized (lock) {
                    for (Waiter w : batch) {
                        w.failure = failure;
                        w.done = true;
                    }
                    busy = false;
                    lock.notifyAll();
                }
            }
            // Not done only if more than MAX_BATCH were ahead of it: take the next batch.
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (self.failure != null) {
            throw self.failure;
        }
    }
}
