package io.privmat.stream;

import io.privmat.dataset.Dataset;
import io.privmat.ledger.BudgetService;
import io.privmat.ledger.Reservation;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.window.WindowDefinition;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.linalg.NumericalFailureException;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.mechanism.window.StreamBlocks;
import io.privmat.mechanism.window.WindowMechanism;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.window.WindowRelease;
import io.privmat.mechanism.window.WindowState;
import io.privmat.plan.PlanDocuments;
import io.privmat.privacy.PrivacyLoss;
import io.privmat.release.NewRelease;
import io.privmat.release.ReleaseKind;
import io.privmat.release.ReleaseService;
import io.privmat.stream.jdbc.StreamRepository;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.json.JsonMapper;

/**
 * Releases a completed block through every active subscription of its stream, inside the caller's
 * transaction (a ROW_COUNT append's or the TIME scheduler's, which holds the stream's row lock): each
 * subscription's mechanism releases the block with noise keyed by its secret stream key and its own
 * block index, its slots change by the keys the step adds and removes, its counter advances, and the
 * window estimate is stored as a release (with PCA's top-k as its answer). All of it commits with
 * the block, or none of it does; a recomputation after a failure draws the same noise.
 *
 * <p>Between blocks the subscriptions' mechanisms and states are kept in memory; a state is used
 * only when its counter equals the one just read under the lock (else it is read from PostgreSQL),
 * and the memory copy is replaced only after the transaction commits.
 */
@Component
class BlockReleaser {

    private static final Logger log = LoggerFactory.getLogger(BlockReleaser.class);

    /**
     * A subscription's calibrated mechanism, what renders its releases, its key, the loss it is
     * charged, and the run the key belongs to (its {@code runBlock}: a restart draws a new key, and
     * every replica must then stop using the old one).
     */
    private record Runtime(WindowMechanism mechanism, QueryKind kind, @Nullable Integer k, double nu, byte[] key,
            PrivacyLoss loss, @Nullable Long run) {

        Runtime restarted(byte[] newKey, long runBlock) {
            return new Runtime(mechanism, kind, k, nu, newKey, loss, runBlock);
        }
    }

    /** One release made: for the append's response. */
    record Released(UUID subscriptionId, long block, long streamBlock, UUID releaseId) {}

    private final StreamRepository repository;
    private final BudgetService budget;
    private final ReleaseService releases;
    private final JsonMapper json;
    private final PlanDocuments documents;
    private final MechanismCatalog catalog;
    private final long cacheBytes;
    private final Map<UUID, Runtime> runtimes = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, Runtime> eldest) {
            return size() > 10_000;
        }
    };
    private final LinkedHashMap<UUID, WindowState> states = new LinkedHashMap<>(16, 0.75f, true);
    /** The run (runBlock) of each cached state: a state of an earlier run is never used. */
    private final Map<UUID, Long> stateRuns = new HashMap<>();
    private long cachedBytes;

    BlockReleaser(StreamRepository repository, BudgetService budget, ReleaseService releases, JsonMapper json,
            PlanDocuments documents, MechanismCatalog catalog, StreamSettings settings) {
        this.repository = repository;
        this.budget = budget;
        this.releases = releases;
        this.json = json;
        this.documents = documents;
        this.catalog = catalog;
        this.cacheBytes = settings.stateCacheSize().toBytes();
    }

    /**
     * The work of one transaction: states advanced so far, subscriptions stopped, the subscriptions'
     * rows as this transaction changed them, those paused (their memory state dropped) and restarted
     * (a new key).
     */
    static final class Batch {
        final Map<UUID, WindowState> advanced = new LinkedHashMap<>();
        final Set<UUID> stopped = new HashSet<>();
        final List<Released> released = new ArrayList<>();
        final Map<UUID, Subscription> current = new HashMap<>();
        final Set<UUID> paused = new HashSet<>();
        final Map<UUID, Runtime> restarted = new HashMap<>();
    }

    /** Starts a batch and publishes its states to the memory cache when the transaction commits. */
    Batch batch() {
        Batch batch = new Batch();
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                synchronized (states) {
                    batch.paused.forEach(BlockReleaser.this::forget);
                    batch.advanced.forEach((id, state) -> cache(id, state, batch.current.get(id).runBlock()));
                    batch.stopped.forEach(BlockReleaser.this::forget);
                }
                synchronized (runtimes) {
                    runtimes.putAll(batch.restarted);
                }
            }
        });
        return batch;
    }

    /**
     * Releases {@code block} through each of {@code active} (in their fixed order) that has started:
     * a TIME subscription created after a block's end starts with the next block even if that one
     * has not been closed yet.
     *
     * <p>On a stream whose budget renews per period (docs/accounting.md, "Budgets that renew per
     * period") a subscription never reads a block unless it holds a committed charge for the block's
     * period: before it reads the first block of a period it has not paid, it is charged for that
     * period here (reserve and commit, in this transaction, in the subscriptions' fixed order, from
     * public values and earlier charges only; every charge a block needs is made before any
     * subscription reads the block). Refused, it is paused for the period: it reads none
     * of its blocks and releases nothing for them; at the first block of the next period it is
     * charged again and, admitted, restarts like a new subscription (an empty state and a new stream
     * key).
     */
    void release(Batch batch, Dataset dataset, WindowParameters p, StreamBlocks.Block block, List<Subscription> active) {
        Long period = StreamFacts.schema(dataset).periodOf(block.index());
        // First every charge this block needs, in the subscriptions' order, before anything reads it:
        // each admission depends on public values and earlier charges only.
        List<Paid> readers = new ArrayList<>(active.size());
        for (Subscription listed : active) {
            Subscription s = batch.current.getOrDefault(listed.id(), listed);
            if (batch.stopped.contains(s.id()) || s.firstBlock() > block.index()) {
                continue;
            }
            Runtime rt = batch.restarted.containsKey(s.id()) ? batch.restarted.get(s.id()) : runtime(s);
            if (rt == null) {
                repository.setState(s.id(), SubscriptionState.FAILED, null, "PLAN_MISMATCH");
                batch.stopped.add(s.id());
                log.error("subscription {}: its stored plan does not rebuild to the charged loss; stopped", s.id());
                continue;
            }
            Paid paid = period == null ? new Paid(s, rt, false) : pay(batch, dataset, s, rt, period, block.index());
            if (paid != null) { // null: paused for this period, the block is not read
                readers.add(paid);
            }
        }
        for (Paid paid : readers) {
            Subscription s = paid.subscription();
            Runtime rt = paid.runtime();
            WindowState before = paid.restarted() ? empty(rt) : state(batch, s, rt);
            WindowMechanism.Step step = rt.mechanism().release(before.withOpenBlock(block.rows(), block.packedGram()),
                    rt.key());
            WindowState next = step.next();
            persist(s.id(), before, next);
            long offset = s.runOffset();
            repository.setCompletedBlocks(s.id(), offset + next.completedBlocks());
            batch.current.put(s.id(), s.with(offset + next.completedBlocks(), s.chargedPeriod(), s.pausedPeriod(),
                    s.pausedLimit(), s.runBlock()));
            // Its releases are numbered by its own block index (stream block − first block) whatever its
            // run; the window's indices shift with it (post-processing of the same release).
            WindowRelease run = step.release();
            WindowRelease r = offset == 0 ? run : new WindowRelease(run.mechanism(), run.block() + offset,
                    run.firstBlock() + offset, run.rows(), run.d(), run.window(), run.noiseVariance(),
                    run.roundingBound());
            UUID releaseId = UUID.randomUUID();
            Facts meta = WindowDefinition.releaseMeta(p, r, rt.nu());
            releases.store(new NewRelease(releaseId, dataset.id(), s.jobId(), p.graph() ? ReleaseKind.WINDOW_LAPLACIAN
                    : ReleaseKind.WINDOW_COVARIANCE, s.mechanism(), s.spec(), s.loss(), meta, p.d(), p.d(), r.window(),
                    false));
            repository.insertRelease(s.id(), r.block(), block.index(), releaseId, answer(rt, p, r, s.mechanism()));
            batch.advanced.put(s.id(), next);
            batch.released.add(new Released(s.id(), r.block(), block.index(), releaseId));
        }
    }

    /**
     * PCA: the top-k eigenpairs of the PSD-projected estimate (post-processing), as JSON; else null.
     * Also null if the eigendecomposition of the released estimate does not converge: a function of
     * the release only, and a recomputation would fail the same way, so it must not stop the stream
     * (the release is stored without its components).
     */
    private @Nullable String answer(Runtime rt, WindowParameters p, WindowRelease r, String mechanism) {
        if (rt.kind() != QueryKind.PCA) {
            return null;
        }
        Release.Covariance c;
        try {
            c = (Release.Covariance) WindowDefinition.answer(QueryKind.PCA, rt.k(), rt.nu(), p, r, mechanism);
        } catch (NumericalFailureException e) {
            log.warn("a PCA window release's eigendecomposition did not converge; stored without components");
            return null;
        }
        CovarianceRelease top = c.result();
        List<double[]> rows = new ArrayList<>();
        for (int i = 0; i < top.d(); i++) {
            rows.add(java.util.Arrays.copyOfRange(top.components(), i * top.k(), (i + 1) * top.k()));
        }
        return json.writeValueAsString(new Components(top.k(), top.eigenvalues(), rows));
    }

    /** A PCA window release's top-k directions, as its stored document holds them. */
    private record Components(int k, double[] eigenvalues, List<double[]> components) {}

    /** Inserts the slots the step added and deletes those it removed (slots never change in place). */
    private void persist(UUID id, WindowState before, WindowState next) {
        WindowState.Changes c = next.changes(before);
        c.secretRemoved().forEach(k -> repository.deleteSlot(id, true, k));
        c.publishedRemoved().forEach(k -> repository.deleteSlot(id, false, k));
        c.secretAdded().forEach(k -> repository.insertSlot(id, true, k, next.secret().get(k)));
        c.publishedAdded().forEach(k -> repository.insertSlot(id, false, k, next.published().get(k)));
    }

    /** What {@link #pay} leaves: the subscription and its runtime as they are now, and whether it restarted. */
    private record Paid(Subscription subscription, Runtime runtime, boolean restarted) {}

    /**
     * Makes sure {@code s} holds a committed charge for {@code period} before it reads {@code block}:
     * charges it when its latest charge is for an earlier period, restarting it (new key, empty state
     * from this block on) when it was paused; returns null when it is paused for this period (the
     * block is passed without being read).
     */
    private @Nullable Paid pay(Batch batch, Dataset dataset, Subscription s, Runtime rt, long period, long block) {
        Long paused = s.pausedPeriod();
        if (paused != null && period <= paused) {
            skip(batch, s, block);
            return null;
        }
        if (s.chargedPeriod() != null && period <= s.chargedPeriod()) {
            return new Paid(s, rt, false);
        }
        BudgetService.Admission admission = budget.reserveAll(dataset.id(), dataset.budget(), List.of(new Reservation(
                dataset.id(), dataset.budget(), s.jobId(), SubscriptionService.JOB_KIND, s.mechanism(), s.spec(),
                rt.loss(), s.loss(), s.caller(), period))).get(0);
        if (!admission.admitted()) {
            Subscription pausedNow = s.with(s.completedBlocks(), s.chargedPeriod(), period,
                    admission.refusal().limit().name(), s.runBlock());
            batch.paused.add(s.id());
            skip(batch, pausedNow, block);
            return null;
        }
        budget.commit(s.jobId(), period);
        if (paused == null) {
            Subscription charged = s.with(s.completedBlocks(), period, null, null, s.runBlock());
            repository.setPeriods(s.id(), charged.completedBlocks(), period, null, null);
            batch.current.put(s.id(), charged);
            return new Paid(charged, rt, false);
        }
        // A restart like a new subscription: a new secret key, so the old key's index-to-noise map is
        // never used over other data (docs/mechanisms/windows.md, "Keyed noise"), and an empty state.
        byte[] key = NoiseSources.newStreamKey();
        repository.restart(s.id(), key, block);
        Subscription restarted = s.with(block - s.firstBlock(), period, null, null, block);
        repository.setPeriods(s.id(), restarted.completedBlocks(), period, null, null);
        Runtime fresh = rt.restarted(key, block);
        batch.restarted.put(s.id(), fresh);
        batch.advanced.remove(s.id());
        batch.current.put(s.id(), restarted);
        return new Paid(restarted, fresh, true);
    }

    /** Passes a block a paused subscription does not read: its counter moves on, nothing is read or released. */
    private void skip(Batch batch, Subscription s, long block) {
        Subscription passed = s.with(block + 1 - s.firstBlock(), s.chargedPeriod(), s.pausedPeriod(), s.pausedLimit(),
                s.runBlock());
        repository.setPeriods(s.id(), passed.completedBlocks(), passed.chargedPeriod(), passed.pausedPeriod(),
                passed.pausedLimit());
        batch.advanced.remove(s.id());
        batch.current.put(s.id(), passed);
    }

    /** An empty state at counter 0: a new subscription's, or a restarted one's. */
    private static WindowState empty(Runtime rt) {
        WindowParameters p = rt.mechanism().parameters();
        return new WindowState(rt.mechanism().kind(), p.d(), 0, 0, new double[p.packedSize()], new java.util.TreeMap<>(),
                new java.util.TreeMap<>());
    }

    /** The subscription's state at its current counter: this batch's, the memory copy, or PostgreSQL's. */
    private WindowState state(Batch batch, Subscription s, Runtime rt) {
        WindowState advanced = batch.advanced.get(s.id());
        if (advanced != null) {
            return advanced;
        }
        long counter = s.completedBlocks() - s.runOffset();
        synchronized (states) {
            WindowState hit = states.get(s.id());
            if (hit != null && hit.completedBlocks() == counter
                    && java.util.Objects.equals(stateRuns.get(s.id()), s.runBlock())) {
                return hit;
            }
        }
        SortedMap<Long, double[]>[] slots = repository.slots(s.id());
        WindowParameters p = rt.mechanism().parameters();
        return new WindowState(rt.mechanism().kind(), p.d(), counter, 0, new double[p.packedSize()],
                slots[0], slots[1]);
    }

    private void cache(UUID id, WindowState state, @Nullable Long run) {
        forget(id);
        long size = state.doubles() * 8;
        if (size > cacheBytes) {
            return;
        }
        var it = states.entrySet().iterator();
        while (cachedBytes + size > cacheBytes && it.hasNext()) {
            var evicted = it.next();
            cachedBytes -= evicted.getValue().doubles() * 8;
            stateRuns.remove(evicted.getKey());
            it.remove();
        }
        states.put(id, state);
        stateRuns.put(id, run);
        cachedBytes += size;
    }

    private void forget(UUID id) {
        stateRuns.remove(id);
        WindowState old = states.remove(id);
        if (old != null) {
            cachedBytes -= old.doubles() * 8;
        }
    }

    /**
     * The subscription's mechanism, rebuilt from its stored plan through the catalogue and checked
     * against the loss it was charged (typed losses, decimals by value; {@link PlanDocuments}); null when
     * they differ or it does not rebuild.
     */
    private @Nullable Runtime runtime(Subscription s) {
        synchronized (runtimes) {
            Runtime hit = runtimes.get(s.id());
            // Another replica may have restarted it with a new key since this copy was made.
            if (hit != null && java.util.Objects.equals(hit.run(), s.runBlock())) {
                return hit;
            }
        }
        Runtime built;
        try {
            Plan plan = documents.rebuild(s.spec());
            if (!documents.chargeMatches(plan, s.loss())) {
                return null;
            }
            built = new Runtime(WindowDefinition.mechanism(catalog, plan.spec()), plan.spec().kind(),
                    plan.spec().params().optionalInteger("k"), plan.spec().params().number("nu"),
                    repository.streamKey(s.id()), plan.chargedLoss(), s.runBlock());
        } catch (RuntimeException e) {
            log.error("subscription {}: its stored plan does not rebuild ({})", s.id(), e.getClass().getSimpleName());
            return null;
        }
        synchronized (runtimes) {
            runtimes.put(s.id(), built);
        }
        return built;
    }

    /** Drops every memory copy (tests: a cold start without a new context). */
    void clear() {
        synchronized (states) {
            states.clear();
            stateRuns.clear();
            cachedBytes = 0;
        }
        synchronized (runtimes) {
            runtimes.clear();
        }
    }
}
