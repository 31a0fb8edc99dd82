package io.privmat.query;

import io.privmat.job.Job;
import io.privmat.job.JobService;
import io.privmat.job.NewJob;
import io.privmat.ledger.BudgetService;
import io.privmat.ledger.Reservation;
import io.privmat.privacy.Budget;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Admission (reserve + enqueue) with group commit per dataset. Admissions on one dataset serialise
 * on its account row, which PostgreSQL holds until the commit is flushed to disk, so one at a time
 * they cannot exceed one per WAL flush. Here the submissions that arrive for a dataset while its
 * previous admission transaction is running wait, and the next one takes them all (up to
 * {@value #MAX_BATCH}) into one transaction: one lock of the account, the same filter check for
 * each in arrival order as if admitted one after another (docs/accounting.md), one update of the
 * account, one RESERVE entry and one QUEUED job each, one flush. A submission that arrives while
 * nothing runs is admitted at once, alone. The lock is still the account row's, so replicas still
 * never overspend together.
 *
 * <p>If the batch's transaction fails (a dataset deleted meanwhile, the database unavailable),
 * nothing of it was written and each of its submissions is retried alone, so that one failure is
 * reported to its own submitter only. A refusal (budget exhausted) is one submission's outcome and
 * does not abort the others.
 */
@Component
class Admissions {

    static final int MAX_BATCH = 64;

    private final BudgetService budget;
    private final JobService jobs;
    private final TransactionTemplate tx;
    private final Map<UUID, Lane> lanes = new ConcurrentHashMap<>();

    Admissions(BudgetService budget, JobService jobs, TransactionTemplate tx) {
        this.budget = budget;
        this.jobs = jobs;
        this.tx = tx;
    }

    /** A submission to admit: its reservation and its job. */
    record Pending(Reservation reservation, NewJob job) {}

    /** One submission waiting in its dataset's lane. */
    private static final class Waiter {
        final Pending pending;
        boolean done;
        @Nullable Job job;
        @Nullable RuntimeException failure;

        Waiter(Pending pending) {
            this.pending = pending;
        }
    }

    /** The submissions of one dataset waiting for the running admission transaction. */
    private static final class Lane {
        final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
        boolean busy;
    }

    /**
     * Admits one submission now, in its own transaction (no batching): for submissions with an
     * Idempotency-Key, whose duplicate-key race must abort their transaction only.
     *
     * @throws io.privmat.ledger.BudgetExhaustedException when the budget cannot pay it
     */
    Job admitAlone(Pending pending) {
        return admit(List.of(pending)).get(0).result();
    }

    /** Admits a submission together with whatever else is waiting on its dataset. */
    Job admit(Pending pending) {
        UUID datasetId = pending.reservation().datasetId();
        Lane lane = lanes.computeIfAbsent(datasetId, k -> new Lane());
        Waiter self = new Waiter(pending);
        List<Waiter> batch = new ArrayList<>();
        synchronized (lane) {
            lane.waiting.add(self);
        }
        boolean interrupted = false;
        while (true) {
            synchronized (lane) {
                while (!self.done && lane.busy) {
                    try {
                        lane.wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                        if (lane.waiting.remove(self)) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException("interrupted before admission", e);
                        }
                        // Already taken into a running batch: its outcome is coming.
                    }
                }
                if (self.done) {
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                    return outcome(self);
                }
                lane.busy = true;
                batch.clear();
                Budget first = lane.waiting.peek().pending.reservation().budget();
                while (!lane.waiting.isEmpty() && batch.size() < MAX_BATCH
                        && lane.waiting.peek().pending.reservation().budget().equals(first)) {
                    batch.add(lane.waiting.poll());
                }
            }
            List<Outcome> outcomes = null;
            RuntimeException batchFailure = null;
            try {
                outcomes = batch.size() == 1 ? admit(List.of(batch.get(0).pending)) : admitOrRetryAlone(batch);
            } catch (RuntimeException e) {
                batchFailure = e;
            } catch (Error e) {
                // Every waiter of the batch (the leader too) gets the failure, not a missing outcome.
                batchFailure = new IllegalStateException("admission failed: " + e, e);
            } finally {
                synchronized (lane) {
                    for (int i = 0; i < batch.size(); i++) {
                        Waiter w = batch.get(i);
                        if (outcomes != null) {
                            w.job = outcomes.get(i).job;
                            w.failure = outcomes.get(i).failure;
                        } else {
                            w.failure = batchFailure;
                        }
                        w.done = true;
                    }
                    lane.busy = false;
                    lane.notifyAll();
                    if (lane.waiting.isEmpty()) {
                        // Idle: forget the lane (one per dataset ever seen would only grow). A submission
                        // that took it just before still runs on it; one that arrives after gets a new
                        // lane; two lanes of one dataset only batch less, the account row lock in the
                        // database still serialises their admissions.
                        lanes.remove(batch.get(0).pending.reservation().datasetId(), lane);
                    }
                }
            }
        }
    }

    private static Job outcome(Waiter w) {
        if (w.failure != null) {
            throw w.failure;
        }
        return Objects.requireNonNull(w.job);
    }

    /** A job admitted, or why not. */
    private record Outcome(@Nullable Job job, @Nullable RuntimeException failure) {
        Job result() {
            if (failure != null) {
                throw failure;
            }
            return Objects.requireNonNull(job);
        }
    }

    /** The batch in one transaction; if that fails, each submission alone. */
    private List<Outcome> admitOrRetryAlone(List<Waiter> batch) {
        List<Pending> pending = batch.stream().map(w -> w.pending).toList();
        try {
            return admit(pending);
        } catch (RuntimeException e) {
            List<Outcome> alone = new ArrayList<>(pending.size());
            for (Pending p : pending) {
                try {
                    alone.add(admit(List.of(p)).get(0));
                } catch (RuntimeException single) {
                    alone.add(new Outcome(null, single));
                }
            }
            return alone;
        }
    }

    /**
     * Reserves and enqueues submissions of one dataset (one budget) in one transaction. A refusal is
     * that submission's outcome; any other failure aborts the transaction and is thrown.
     */
    private List<Outcome> admit(List<Pending> pending) {
        Reservation head = pending.get(0).reservation();
        return tx.execute(s -> {
            List<BudgetService.Admission> admissions = budget.reserveAll(head.datasetId(), head.budget(),
                    pending.stream().map(Pending::reservation).toList());
            List<NewJob> admitted = new ArrayList<>(pending.size());
            for (int i = 0; i < pending.size(); i++) {
                BudgetService.Admission a = admissions.get(i);
                if (a.admitted()) {
                    NewJob j = pending.get(i).job();
                    admitted.add(new NewJob(j.id(), j.datasetId(), j.datasetOwner(), j.kind(), j.mechanism(),
                            j.parametersJson(), j.requestHash(), j.idempotencyKey(), j.caller(), j.lossJson(), a.cost()));
                }
            }
            List<Job> stored = admitted.isEmpty() ? List.of() : jobs.enqueueAll(admitted);
            List<Outcome> outcomes = new ArrayList<>(pending.size());
            int next = 0;
            for (BudgetService.Admission a : admissions) {
                outcomes.add(a.admitted() ? new Outcome(stored.get(next++), null) : new Outcome(null, a.refusal()));
            }
            return outcomes;
        });
    }
}
