package io.privmat.ledger;

import io.privmat.ledger.jdbc.LedgerRepository;
import io.privmat.privacy.Budget;
import io.privmat.privacy.BudgetFilter;
import io.privmat.privacy.PrivacyLoss;
import io.privmat.privacy.Tracks;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Admission, commit and refund against a dataset's budget.
 *
 * <p>{@link #reserve} must run inside the caller's transaction (it joins it), together with the
 * insertion of the job it pays for, so that both commit or neither does. It locks the account row
 * ({@code SELECT … FOR UPDATE}), asks the dataset's privacy filter whether spent + cost fits, and
 * appends a RESERVE entry. A reservation counts as spent until it is committed or released.
 */
@Service
public class BudgetService {

    private final LedgerRepository repository;
    private final Clock clock;

    public BudgetService(LedgerRepository repository, Clock clock) {
        this.repository = repository;
        this.clock = clock;
    }

    /**
     * The same service on another connection pool: its methods join the transactions of that pool
     * (the job engine's own pool, docs/reliability.md). Not a Spring bean, so the transaction
     * propagation rules below are the caller's to keep: call it inside a transaction of that pool.
     */
    public static BudgetService on(org.springframework.jdbc.core.JdbcTemplate jdbc, Clock clock) {
        return new BudgetService(new LedgerRepository(jdbc), clock);
    }

    /** The account of a dataset with this budget, created on first use. */
    @Transactional
    public BudgetAccount account(UUID datasetId, Budget budget) {
        ensure(datasetId, budget);
        return repository.find(datasetId).orElseThrow();
    }

    /** What a loss would cost on a dataset's budget now, and what remains before and after it. */
    public record Price(Tracks cost, boolean admissible, Tracks remaining, @Nullable Tracks remainingAfter,
            @Nullable BigDecimal largestPureEpsilonAfter) {}

    /**
     * Prices a charge of {@code charged} on the dataset's budget as it stands (quotes of queries and
     * subscriptions alike); charges nothing. The amounts after it are given only when it is admissible.
     */
    @Transactional
    public Price price(UUID datasetId, Budget budget, PrivacyLoss charged) {
        BudgetFilter filter = budget.filter();
        Tracks cost = filter.cost(charged);
        ensure(datasetId, budget);
        Tracks spent = repository.find(datasetId).orElseThrow().spent();
        boolean admissible = filter.admits(spent, cost);
        Tracks after = spent.plus(cost);
        return new Price(cost, admissible, filter.remaining(spent), admissible ? filter.remaining(after) : null,
                admissible ? filter.largestPureEpsilon(after) : null);
    }

    private void ensure(UUID datasetId, Budget budget) {
        if (repository.find(datasetId).isEmpty()) {
            BudgetFilter filter = budget.filter();
            repository.ensureAccount(datasetId, budget.mode(), filter.capacity(), clock.instant());
        }
    }

    /**
     * Admits and records a charge, or throws {@link BudgetExhaustedException} (nothing recorded).
     * Must be called within a transaction that also records the job.
     *
     * @return the charged amounts on the filter's tracks
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Tracks reserve(Reservation r) {
        Admission admission = reserveAll(r.datasetId(), r.budget(), List.of(r)).get(0);
        if (admission.refusal() != null) {
            throw admission.refusal();
        }
        return admission.cost();
    }

    /** The outcome of one reservation of {@link #reserveAll}: its charge, or why it was refused. */
    public record Admission(Tracks cost, @org.jspecify.annotations.Nullable BudgetExhaustedException refusal) {

        public boolean admitted() {
            return refusal == null;
        }
    }

    /**
     * Admits reservations on one dataset in the order given, under one lock of its account: each is
     * checked against the spent amount plus the costs admitted before it in the list, exactly as if
     * they had been reserved one after another; a refused one records nothing and does not stop the
     * others. The admitted ones are charged with one update of the account and one RESERVE entry
     * each. Must be called within the transaction that also records their jobs.
     *
     * @return one outcome per reservation, in order
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public List<Admission> reserveAll(UUID datasetId, Budget budget, List<Reservation> reservations) {
        BudgetAccount account = repository.lock(datasetId).orElse(null);
        if (account == null) {
            repository.ensureAccount(datasetId, budget.mode(), budget.filter().capacity(), clock.instant());
            account = repository.lock(datasetId).orElseThrow();
        }
        BudgetFilter filter = budget.filter();
        Tracks spent = account.spent();
        Tracks charged = Tracks.ZERO;
        List<Admission> outcomes = new java.util.ArrayList<>(reservations.size());
        List<LedgerRepository.NewEntry> entries = new java.util.ArrayList<>(reservations.size());
        java.time.Instant now = clock.instant();
        for (Reservation r : reservations) {
            if (!r.datasetId().equals(datasetId) || !r.budget().equals(budget)) {
                throw new IllegalArgumentException("reservations of one batch must share the dataset and its budget");
            }
            Tracks cost = filter.cost(r.loss());
            if (!filter.admits(spent, cost)) {
                outcomes.add(new Admission(cost, new BudgetExhaustedException(budget.mode(), cost, filter.remaining(spent))));
                continue;
            }
            spent = spent.plus(cost);
            charged = charged.plus(cost);
            outcomes.add(new Admission(cost, null));
            entries.add(new LedgerRepository.NewEntry(r.jobId(), EntryType.RESERVE, r.kind(), r.mechanism(),
                    r.parametersJson(), r.lossJson(), cost, r.caller()));
        }
        if (!entries.isEmpty()) {
            repository.adjust(datasetId, charged, false, Tracks.ZERO);
            repository.appendAll(datasetId, entries, now);
        }
        return outcomes;
    }

    /**
     * Makes a job's reservation final: called in the same transaction that durably marks "data
     * access started". Idempotent: a second call for the same job changes nothing.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void commit(UUID jobId) {
        settle(jobId, EntryType.COMMIT);
    }

    /**
     * Refunds a job's reservation. Only for a job that never reached "data access started" — the
     * caller (the job engine) guarantees that; a job already committed is never refunded.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void refund(UUID jobId) {
        settle(jobId, EntryType.REFUND);
    }

    private void settle(UUID jobId, EntryType type) {
        List<LedgerEntry> entries = repository.entriesOfJob(jobId);
        LedgerEntry reserve = entries.stream().filter(e -> e.type() == EntryType.RESERVE).findFirst()
                .orElseThrow(() -> new IllegalStateException("job has no reservation"));
        repository.lock(reserve.datasetId());
        List<LedgerEntry> locked = repository.entriesOfJob(jobId);
        boolean settled = locked.stream().anyMatch(e -> e.type() == EntryType.COMMIT || e.type() == EntryType.REFUND);
        if (settled) {
            if (locked.stream().anyMatch(e -> e.type() == type)) {
                return;
            }
            throw new IllegalStateException("job " + jobId + " is already settled differently; refusing " + type);
        }
        Tracks amount = new Tracks(reserve.rho(), reserve.epsilon(), reserve.delta());
        repository.adjust(reserve.datasetId(), amount, true, type == EntryType.COMMIT ? amount : Tracks.ZERO);
        repository.append(reserve.datasetId(), jobId, type, reserve.kind(), reserve.mechanism(), reserve.parameters(),
                reserve.loss(), amount, reserve.caller(), clock.instant());
    }

    @Transactional(readOnly = true)
    public List<LedgerEntry> entries(UUID datasetId, long afterId, int limit) {
        return repository.entries(datasetId, afterId, limit);
    }

    @Transactional(readOnly = true)
    public long entryCount(UUID datasetId) {
        return repository.count(datasetId);
    }

    /** The entries charged to one subject (what an analyst may see of a shared ledger). */
    @Transactional(readOnly = true)
    public List<LedgerEntry> entriesOf(UUID datasetId, String caller, long afterId, int limit) {
        return repository.entriesOf(datasetId, caller, afterId, limit);
    }

    @Transactional(readOnly = true)
    public long entryCountOf(UUID datasetId, String caller) {
        return repository.countOf(datasetId, caller);
    }

    /**
     * The dataset's final charges (COMMIT entries) after {@code afterId}, with their admission times;
     * {@code caller} null for every caller's, else that subject's only.
     */
    @Transactional(readOnly = true)
    public List<CommittedCharge> commits(UUID datasetId, @Nullable String caller,
            long afterId, int limit) {
        return repository.commits(datasetId, caller, afterId, limit);
    }

    @Transactional(readOnly = true)
    public long commitCount(UUID datasetId, @Nullable String caller) {
        return repository.commitCount(datasetId, caller);
    }

    /** Entries read per round trip by {@link #verify}: what bounds its memory, whatever the ledger's length. */
    static final int VERIFY_PAGE = 1000;

    /**
     * Verifies a dataset's hash chain and its account's totals (docs/accounting.md, "Tamper
     * evidence"): reads every entry once, in pages of {@value #VERIFY_PAGE}, all in one read-only
     * snapshot (so that entries appended meanwhile neither break the sums nor the chain), and
     * recomputes each hash in Java.
     *
     * @param exportedHead a head exported earlier that the chain must still contain, or null
     */
    @Transactional(readOnly = true, isolation = Isolation.REPEATABLE_READ)
    public LedgerChain.Result verify(UUID datasetId, byte @org.jspecify.annotations.Nullable [] exportedHead) {
        LedgerChain.Check check = new LedgerChain.Check(exportedHead);
        long after = 0;
        while (true) {
            List<LedgerChain.Chained> page = repository.chained(datasetId, after, VERIFY_PAGE);
            page.forEach(check::accept);
            if (page.size() < VERIFY_PAGE) {
                break;
            }
            after = page.get(page.size() - 1).entry().id();
        }
        BudgetAccount account = repository.find(datasetId).orElse(null);
        return account == null ? check.result(null, null) : check.result(account.committed(), account.reserved());
    }

    /** The dataset's last entry with its stored hash (unverified), if it has entries. */
    @Transactional(readOnly = true)
    public java.util.Optional<LedgerChain.Chained> head(UUID datasetId) {
        return repository.head(datasetId);
    }

    /** [committed, reserved] recomputed from the entries (for audits and tests). */
    @Transactional(readOnly = true)
    public Tracks[] resum(UUID datasetId) {
        return repository.resum(datasetId);
    }
}
