package io.privmat.ledger;

import io.privmat.json.ProblemProperties;
import io.privmat.ledger.jdbc.LedgerRepository;
import io.privmat.privacy.Budget;
import io.privmat.privacy.BudgetFilter;
import io.privmat.privacy.PrivacyLoss;
import io.privmat.privacy.Tracks;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
            @Nullable BigDecimal largestPureEpsilonAfter, Limit limit, Tracks limitRemaining) {}

    /**
     * Prices a charge of {@code charged} on the dataset's budget as it stands (quotes of queries and
     * subscriptions alike); charges nothing. The amounts after it are given only when it is admissible.
     */
    @Transactional
    public Price price(UUID datasetId, Budget budget, PrivacyLoss charged, String subject) {
        return price(datasetId, budget, charged, subject, null);
    }

    /**
     * Prices a charge to {@code period} of a budget that renews per period (null: one that does
     * not): a period after the account's current one has spent nothing yet.
     */
    @Transactional
    public Price price(UUID datasetId, Budget budget, PrivacyLoss charged, String subject, @Nullable Long period) {
        BudgetFilter filter = budget.filter();
        Tracks cost = filter.cost(charged);
        BudgetAccount account = account(datasetId, budget);
        // The caller's own limit (its allocation, or the pool) and the total (docs/accounting.md §10).
        Limits limits = limits(datasetId, budget, subject, period);
        boolean admissible = limits.admits(cost);
        Tracks spent = account.spentIn(period);
        Tracks after = spent.plus(cost);
        return new Price(cost, admissible, filter.remaining(spent), admissible ? filter.remaining(after) : null,
                admissible ? filter.largestPureEpsilon(after) : null, limits.limit(), limits.remaining());
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
     * checked against the limit that pays its caller's queries (its allocation, or the unallocated
     * pool; docs/accounting.md §10) and against the dataset's total, with the spent amounts plus the
     * costs admitted before it in the list, exactly as if they had been reserved one after another;
     * a refused one records nothing and does not stop the others. The admitted ones are charged with
     * one update of the account, one of each allocation that pays any, and one RESERVE entry each.
     * Must be called within the transaction that also records their jobs.
     *
     * @return one outcome per reservation, in order
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public List<Admission> reserveAll(UUID datasetId, Budget budget, List<Reservation> reservations) {
        BudgetAccount account = lockAccount(datasetId, budget);
        Long period = reservations.isEmpty() ? null : reservations.get(0).period();
        if (reservations.stream().anyMatch(r -> !java.util.Objects.equals(r.period(), period))) {
            throw new IllegalArgumentException("reservations of one batch must pay for the same period");
        }
        account = enterPeriod(account, period);
        BudgetFilter filter = budget.filter();
        Tracks spent = account.spent();
        // Σ (cap − spent) over every allocation: what allocated subjects may still spend, which the
        // pool may not. It does not change when an allocated subject spends (its allocation's
        // headroom shrinks by what the total's spent grows), so the pool is spent + held.
        Tracks held = headroom(datasetId);
        Map<String, Allocation> allocations = new HashMap<>();
        repository.allocationsOf(datasetId, reservations.stream().map(Reservation::caller).distinct().toList())
                .forEach(a -> allocations.put(a.subject(), a));
        Map<String, Tracks> allocationCharged = new LinkedHashMap<>();
        Tracks charged = Tracks.ZERO;
        List<Admission> outcomes = new java.util.ArrayList<>(reservations.size());
        List<LedgerRepository.NewEntry> entries = new java.util.ArrayList<>(reservations.size());
        java.time.Instant now = clock.instant();
        for (Reservation r : reservations) {
            if (!r.datasetId().equals(datasetId) || !r.budget().equals(budget)) {
                throw new IllegalArgumentException("reservations of one batch must share the dataset and its budget");
            }
            Tracks cost = filter.cost(r.loss());
            Allocation own = allocations.get(r.caller());
            // The caller's own limit first (so a refusal names it), then the total, which the
            // invariant Σ allocations + pool spending ≤ total already implies (checked regardless).
            BudgetExhaustedException refusal = null;
            if (own != null) {
                Tracks ownSpent = own.spent().plus(allocationCharged.getOrDefault(r.caller(), Tracks.ZERO));
                if (!ownSpent.plus(cost).fitsWithin(own.cap())) {
                    refusal = new BudgetExhaustedException(budget.mode(), cost, Limit.ALLOCATION,
                            own.cap().minusFloor(ownSpent), filter.remaining(spent));
                }
            } else if (!filter.admits(spent.plus(held), cost)) {
                refusal = new BudgetExhaustedException(budget.mode(), cost, Limit.POOL, filter.remaining(spent.plus(held)),
                        filter.remaining(spent));
            }
            if (refusal == null && !filter.admits(spent, cost)) {
                refusal = new BudgetExhaustedException(budget.mode(), cost, filter.remaining(spent));
            }
            if (refusal != null) {
                outcomes.add(new Admission(cost, refusal));
                continue;
            }
            spent = spent.plus(cost);
            charged = charged.plus(cost);
            if (own != null) {
                allocationCharged.merge(r.caller(), cost, Tracks::plus);
                held = held.minusFloor(cost);
            }
            outcomes.add(new Admission(cost, null));
            entries.add(new LedgerRepository.NewEntry(r.jobId(), EntryType.RESERVE, r.kind(), r.mechanism(),
                    r.parametersJson(), r.lossJson(), cost, r.caller(), r.period()));
        }
        if (!entries.isEmpty()) {
            repository.adjust(datasetId, charged, false, Tracks.ZERO);
            allocationCharged.forEach((subject, amount) -> repository.adjustAllocation(datasetId, subject, amount, false));
            repository.appendAll(datasetId, entries, now);
        }
        return outcomes;
    }

    /**
     * The locked account ready for charges to {@code period} (docs/accounting.md, "Budgets that renew
     * per period"): a later period than the account's rolls it (its totals and its allocations'
     * spent amounts start again at 0). Charges arrive in the order of the stream's blocks, so a
     * charge to an earlier period, a periodic charge on an account that already holds charges that
     * are not, or the reverse, is a fault of the caller: refused here, before any data is read.
     */
    private BudgetAccount enterPeriod(BudgetAccount account, @Nullable Long period) {
        Long current = account.period();
        if (period == null) {
            if (current != null) {
                throw new IllegalStateException("a charge without a period on the periodic account of dataset "
                        + account.datasetId());
            }
            return account;
        }
        if (current != null && period < current) {
            throw new IllegalStateException("a charge to period " + period + " after the account of dataset "
                    + account.datasetId() + " entered period " + current);
        }
        if (current == null ? account.spent().isZero() : period > current) {
            if (!account.reserved().isZero()) {
                throw new IllegalStateException("period " + current + " of dataset " + account.datasetId()
                        + " ends with open reservations");
            }
            repository.roll(account.datasetId(), period);
            return repository.lock(account.datasetId()).orElseThrow();
        }
        if (current == null) {
            throw new IllegalStateException("a periodic charge on the account of dataset " + account.datasetId()
                    + ", which holds charges without a period");
        }
        return account;
    }

    private BudgetAccount lockAccount(UUID datasetId, Budget budget) {
        BudgetAccount account = repository.lock(datasetId).orElse(null);
        if (account == null) {
            repository.ensureAccount(datasetId, budget.mode(), budget.filter().capacity(), clock.instant());
            account = repository.lock(datasetId).orElseThrow();
        }
        return account;
    }

    /** Σ (cap − spent) over a dataset's allocations. */
    private Tracks headroom(UUID datasetId) {
        Tracks[] sums = repository.allocationSums(datasetId);
        return sums[0].minusFloor(sums[1]);
    }

    /** Most allocations one dataset may have: bounds the owner's listing and the admission's sums. */
    public static final int MAX_ALLOCATIONS = 1000;

    /**
     * What pays a subject's queries on a dataset: its allocation if it has one, else the unallocated
     * pool (docs/accounting.md §10), with what remains of that limit and of the total. Everything
     * here is the subject's own or public to it, except {@code pool} and {@code allocated}, which
     * only the owner and ADMIN are shown.
     *
     * @param own the subject's allocation, or null
     * @param remaining what remains of the limit that applies
     * @param totalRemaining what remains of the dataset's total
     * @param pool what remains of the unallocated pool
     * @param allocated Σ of every allocation's caps
     */
    public record Limits(Limit limit, @org.jspecify.annotations.Nullable Allocation own, Tracks remaining,
            Tracks totalRemaining, Tracks pool, Tracks allocated) {

        /** Whether a query of this cost would be admitted now (its limit and the total). */
        public boolean admits(Tracks cost) {
            return cost.fitsWithin(remaining) && cost.fitsWithin(totalRemaining);
        }
    }

    /** The limits that apply to {@code subject}'s queries on the dataset now (creates the account if needed). */
    @Transactional
    public Limits limits(UUID datasetId, Budget budget, String subject) {
        return limits(datasetId, budget, subject, null);
    }

    /**
     * The limits that apply to {@code subject}'s charges to {@code period} of a budget that renews
     * per period (null: now, or a budget that does not renew): in a period after the account's
     * current one nothing is spent yet, neither on the total nor on any allocation.
     */
    @Transactional
    public Limits limits(UUID datasetId, Budget budget, String subject, @Nullable Long period) {
        BudgetAccount account = account(datasetId, budget);
        BudgetFilter filter = budget.filter();
        boolean fresh = period != null && (account.period() == null || period > account.period());
        Tracks[] sums = repository.allocationSums(datasetId);
        if (fresh) {
            sums[1] = Tracks.ZERO;
        }
        Tracks spent = account.spentIn(period);
        Tracks pool = filter.remaining(spent.plus(sums[0].minusFloor(sums[1])));
        Tracks total = filter.remaining(spent);
        Allocation own = repository.allocationsOf(datasetId, List.of(subject)).stream().findFirst()
                .map(a -> fresh ? new Allocation(a.datasetId(), a.subject(), a.cap(), Tracks.ZERO, a.updatedAt()) : a)
                .orElse(null);
        return own != null ? new Limits(Limit.ALLOCATION, own, own.remaining(), total, pool, sums[0])
                : new Limits(Limit.POOL, null, pool, total, pool, sums[0]);
    }

    /** A dataset's allocations, by subject. */
    @Transactional(readOnly = true)
    public List<Allocation> allocations(UUID datasetId) {
        return repository.allocations(datasetId);
    }

    /**
     * Sets a subject's allocation to {@code cap}, under the account's lock: refused (nothing changed)
     * when the cap is below what the subject has spent, reserved included, or when the pool cannot
     * pay the raise, i.e. when Σ allocations + what unallocated subjects spent would exceed the
     * total on some track. A subject that spent from the pool before takes its spending along.
     */
    @Transactional
    public Allocation allocate(UUID datasetId, Budget budget, String subject, Tracks cap) {
        BudgetAccount account = lockAccount(datasetId, budget);
        BudgetFilter filter = budget.filter();
        Allocation existing = repository.allocationsOf(datasetId, List.of(subject)).stream().findFirst().orElse(null);
        if (existing == null && repository.allocationCount(datasetId) >= MAX_ALLOCATIONS) {
            throw new AllocationConflictException("The dataset already has " + MAX_ALLOCATIONS
                    + " allocations, the most it may have.", ProblemProperties.of("maxAllocations", MAX_ALLOCATIONS));
        }
        Tracks spentBy = existing != null ? existing.spent() : repository.spentBy(datasetId, subject);
        if (!spentBy.fitsWithin(cap)) {
            throw new AllocationConflictException("An allocation cannot be lower than what the analyst has spent "
                    + "(reservations included).", ProblemProperties.of("spent", TrackView.charged(spentBy, budget.mode()).members()));
        }
        // Everyone else's headroom: Σ (cap − spent) without this subject's allocation.
        Tracks others = headroom(datasetId).minusFloor(existing == null ? Tracks.ZERO : existing.remaining());
        // The pool's spending includes this subject's past spending when it had no allocation, and
        // account.spent() includes both: the test is spent + others' headroom + this one's ≤ total.
        Tracks available = filter.remaining(account.spent().plus(others));
        if (!filter.admits(account.spent().plus(others), cap.minusFloor(spentBy))) {
            throw new AllocationConflictException("The unallocated pool cannot pay this allocation: allocations and "
                    + "what unallocated analysts spent may not exceed the dataset's total.",
                    ProblemProperties.of("largest", TrackView.available(spentBy.plus(available), budget.mode()).members(),
                            "spent", TrackView.charged(spentBy, budget.mode()).members()));
        }
        repository.putAllocation(datasetId, subject, cap, spentBy, clock.instant());
        return repository.allocationsOf(datasetId, List.of(subject)).get(0);
    }

    /** Removes a subject's allocation: it draws from the pool again, taking its spending along. */
    @Transactional
    public boolean deallocate(UUID datasetId, Budget budget, String subject) {
        lockAccount(datasetId, budget);
        return repository.deleteAllocation(datasetId, subject);
    }

    /**
     * Makes a job's reservation final: called in the same transaction that durably marks "data
     * access started". Idempotent: a second call for the same job changes nothing.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void commit(UUID jobId) {
        settle(jobId, null, EntryType.COMMIT);
    }

    /**
     * Makes a job's reservation for {@code period} of a periodic budget final, in the transaction that
     * reserved it (the account is still in that period). Idempotent like {@link #commit(UUID)}.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void commit(UUID jobId, long period) {
        settle(jobId, period, EntryType.COMMIT);
    }

    /**
     * Refunds a job's reservation. Only for a job that never reached "data access started" — the
     * caller (the job engine) guarantees that; a job already committed is never refunded.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void refund(UUID jobId) {
        settle(jobId, null, EntryType.REFUND);
    }

    private void settle(UUID jobId, @Nullable Long period, EntryType type) {
        List<LedgerEntry> entries = repository.entriesOfJob(jobId);
        LedgerEntry reserve = entries.stream()
                .filter(e -> e.type() == EntryType.RESERVE && java.util.Objects.equals(e.period(), period)).findFirst()
                .orElseThrow(() -> new IllegalStateException("job has no reservation"
                        + (period == null ? "" : " for period " + period)));
        BudgetAccount account = repository.lock(reserve.datasetId()).orElse(null);
        if (period != null && (account == null || !period.equals(account.period()))) {
            throw new IllegalStateException("settling period " + period + " of job " + jobId
                    + " after its account left that period");
        }
        List<LedgerEntry> locked = repository.entriesOfJob(jobId).stream()
                .filter(e -> java.util.Objects.equals(e.period(), period)).toList();
        boolean settled = locked.stream().anyMatch(e -> e.type() == EntryType.COMMIT || e.type() == EntryType.REFUND);
        if (settled) {
            if (locked.stream().anyMatch(e -> e.type() == type)) {
                return;
            }
            throw new IllegalStateException("job " + jobId + " is already settled differently; refusing " + type);
        }
        Tracks amount = new Tracks(reserve.rho(), reserve.epsilon(), reserve.delta());
        repository.adjust(reserve.datasetId(), amount, true, type == EntryType.COMMIT ? amount : Tracks.ZERO);
        if (type == EntryType.REFUND) {
            // An allocation counts committed plus reserved, like the account: a commit leaves it.
            repository.adjustAllocation(reserve.datasetId(), reserve.caller(), amount, true);
        }
        repository.append(reserve.datasetId(), jobId, type, reserve.kind(), reserve.mechanism(), reserve.parameters(),
                reserve.loss(), amount, reserve.caller(), period, clock.instant());
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
        BudgetAccount account = repository.find(datasetId).orElse(null);
        // A periodic account's totals are its current period's: the sums are of that period's entries.
        LedgerChain.Check check = new LedgerChain.Check(exportedHead, account == null ? null : account.period());
        long after = 0;
        while (true) {
            List<LedgerChain.Chained> page = repository.chained(datasetId, after, VERIFY_PAGE);
            page.forEach(check::accept);
            if (page.size() < VERIFY_PAGE) {
                break;
            }
            after = page.get(page.size() - 1).entry().id();
        }
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
