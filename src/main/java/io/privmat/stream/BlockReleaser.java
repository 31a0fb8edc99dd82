package io.privmat.stream;

import io.privmat.dataset.Dataset;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.window.WindowDefinition;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.linalg.NumericalFailureException;
import io.privmat.mechanism.window.StreamBlocks;
import io.privmat.mechanism.window.WindowMechanism;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.window.WindowRelease;
import io.privmat.mechanism.window.WindowState;
import io.privmat.plan.PlanDocuments;
import io.privmat.release.NewRelease;
import io.privmat.release.ReleaseKind;
import io.privmat.release.ReleaseService;
import io.privmat.stream.jdbc.StreamRepository;
import java.util.ArrayList;
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

    /** A subscription's calibrated mechanism and what renders its releases. */
    private record Runtime(WindowMechanism mechanism, QueryKind kind, @Nullable Integer k, double nu, byte[] key) {}

    /** One release made: for the append's response. */
    record Released(UUID subscriptionId, long block, long streamBlock, UUID releaseId) {}

    private final StreamRepository repository;
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
    private long cachedBytes;

    BlockReleaser(StreamRepository repository, ReleaseService releases, JsonMapper json, PlanDocuments documents,
            MechanismCatalog catalog, StreamSettings settings) {
        this.repository = repository;
        this.releases = releases;
        this.json = json;
        this.documents = documents;
        this.catalog = catalog;
        this.cacheBytes = settings.stateCacheSize().toBytes();
    }

    /** The work of one transaction: states advanced so far, and subscriptions stopped. */
    static final class Batch {
        final Map<UUID, WindowState> advanced = new LinkedHashMap<>();
        final Set<UUID> stopped = new HashSet<>();
        final List<Released> released = new ArrayList<>();
    }

    /** Starts a batch and publishes its states to the memory cache when the transaction commits. */
    Batch batch() {
        Batch batch = new Batch();
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                synchronized (states) {
                    batch.advanced.forEach(BlockReleaser.this::cache);
                    batch.stopped.forEach(BlockReleaser.this::forget);
                }
            }
        });
        return batch;
    }

    /**
     * Releases {@code block} through each of {@code active} (in their fixed order) that has started:
     * a TIME subscription created after a block's end starts with the next block even if that one
     * has not been closed yet.
     */
    void release(Batch batch, Dataset dataset, WindowParameters p, StreamBlocks.Block block, List<Subscription> active) {
        for (Subscription s : active) {
            if (batch.stopped.contains(s.id()) || s.firstBlock() > block.index()) {
                continue;
            }
            Runtime rt = runtime(s);
            if (rt == null) {
                repository.setState(s.id(), SubscriptionState.FAILED, null, "PLAN_MISMATCH");
                batch.stopped.add(s.id());
                log.error("subscription {}: its stored plan does not rebuild to the charged loss; stopped", s.id());
                continue;
            }
            WindowState before = state(batch, s, rt);
            WindowMechanism.Step step = rt.mechanism().release(before.withOpenBlock(block.rows(), block.packedGram()),
                    rt.key());
            WindowState next = step.next();
            persist(s.id(), before, next);
            repository.setCompletedBlocks(s.id(), next.completedBlocks());
            WindowRelease r = step.release();
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

    /** The subscription's state at its current counter: this batch's, the memory copy, or PostgreSQL's. */
    private WindowState state(Batch batch, Subscription s, Runtime rt) {
        WindowState advanced = batch.advanced.get(s.id());
        if (advanced != null) {
            return advanced;
        }
        synchronized (states) {
            WindowState hit = states.get(s.id());
            if (hit != null && hit.completedBlocks() == s.completedBlocks()) {
                return hit;
            }
        }
        SortedMap<Long, double[]>[] slots = repository.slots(s.id());
        WindowParameters p = rt.mechanism().parameters();
        return new WindowState(rt.mechanism().kind(), p.d(), s.completedBlocks(), 0, new double[p.packedSize()],
                slots[0], slots[1]);
    }

    private void cache(UUID id, WindowState state) {
        forget(id);
        long size = state.doubles() * 8;
        if (size > cacheBytes) {
            return;
        }
        var it = states.entrySet().iterator();
        while (cachedBytes + size > cacheBytes && it.hasNext()) {
            cachedBytes -= it.next().getValue().doubles() * 8;
            it.remove();
        }
        states.put(id, state);
        cachedBytes += size;
    }

    private void forget(UUID id) {
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
            if (hit != null) {
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
                    repository.streamKey(s.id()));
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
            cachedBytes = 0;
        }
        synchronized (runtimes) {
            runtimes.clear();
        }
    }
}
