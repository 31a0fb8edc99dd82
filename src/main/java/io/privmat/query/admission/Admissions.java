package io.privmat.query.admission;

import io.privmat.concurrent.GroupCommit;
import io.privmat.concurrent.GroupCommit.Outcome;
import io.privmat.job.Job;
import io.privmat.job.JobService;
import io.privmat.job.NewJob;
import io.privmat.ledger.BudgetService;
import io.privmat.ledger.Reservation;
import io.privmat.privacy.Budget;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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
 * does not abort the others. The batching is {@link GroupCommit}'s, one lane per dataset.
 */
@Component
class Admissions {

    static final int MAX_BATCH = 64;

    private final BudgetService budget;
    private final JobService jobs;
    private final TransactionTemplate tx;
    private final GroupCommit<Pending, Job> lanes;

    Admissions(BudgetService budget, JobService jobs, TransactionTemplate tx) {
        this.budget = budget;
        this.jobs = jobs;
        this.tx = tx;
        this.lanes = GroupCommit.perLane("admission", MAX_BATCH, p -> p.reservation().datasetId(),
                (first, next) -> next.reservation().budget().equals(first.reservation().budget()),
                GroupCommit.Interrupts.LEAVE_IF_WAITING,
                batch -> batch.size() == 1 ? admit(batch) : admitOrRetryAlone(batch));
    }

    /** A submission to admit: its reservation and its job. */
    record Pending(Reservation reservation, NewJob job) {}

    /**
     * Admits one submission now, in its own transaction (no batching): for submissions with an
     * Idempotency-Key, whose duplicate-key race must abort their transaction only.
     *
     * @throws io.privmat.ledger.BudgetExhaustedException when the budget cannot pay it
     */
    Job admitAlone(Pending pending) {
        return Objects.requireNonNull(admit(List.of(pending)).get(0).result());
    }

    /** Admits a submission together with whatever else is waiting on its dataset. */
    Job admit(Pending pending) {
        return Objects.requireNonNull(lanes.submit(pending));
    }

    /** The batch in one transaction; if that fails, each submission alone. */
    private List<Outcome<Job>> admitOrRetryAlone(List<Pending> pending) {
        try {
            return admit(pending);
        } catch (RuntimeException e) {
            List<Outcome<Job>> alone = new ArrayList<>(pending.size());
            for (Pending p : pending) {
                try {
                    alone.add(admit(List.of(p)).get(0));
                } catch (RuntimeException single) {
                    alone.add(Outcome.failed(single));
                }
            }
            return alone;
        }
    }

    /**
     * Reserves and enqueues submissions of one dataset (one budget) in one transaction. A refusal is
     * that submission's outcome; any other failure aborts the transaction and is thrown.
     */
    private List<Outcome<Job>> admit(List<Pending> pending) {
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
            List<Outcome<Job>> outcomes = new ArrayList<>(pending.size());
            int next = 0;
            for (BudgetService.Admission a : admissions) {
                outcomes.add(a.admitted() ? Outcome.of(stored.get(next++)) : Outcome.failed(a.refusal()));
            }
            return outcomes;
        });
    }
}
