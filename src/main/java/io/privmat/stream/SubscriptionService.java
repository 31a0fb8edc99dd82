package io.privmat.stream;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetService;
import io.privmat.dataset.StreamSchema;
import io.privmat.job.JobService;
import io.privmat.job.NewJob;
import io.privmat.ledger.BudgetService;
import io.privmat.ledger.Limit;
import io.privmat.ledger.Reservation;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.mechanism.catalog.BlockRule;
import io.privmat.mechanism.window.WindowAnswers;
import io.privmat.mechanism.window.WindowMechanismKind;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.window.WindowRelease;
import io.privmat.plan.PlanDocuments;
import io.privmat.privacy.Tracks;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.query.QueryPlans;
import io.privmat.query.QueryRequest;
import io.privmat.query.QueryResult;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.privmat.stream.jdbc.StreamRepository;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.util.RawValue;

/**
 * Standing queries on streams (docs/adr/0008-streams.md).
 *
 * <p><b>Charged once.</b> A subscription's plan — mechanism, kind, budget, parameters and the
 * stream's public facts — gives the loss of every release it will ever make. Creating it reserves
 * and commits that loss in one transaction, together with its job row (kind SUBSCRIPTION, DONE,
 * data access started: its charge is final and never refunded) and its secret stream key; its
 * first release covers the block open at that moment. Cancelling stops later releases; the charge
 * stays.
 *
 * <p><b>Visibility</b> follows jobs: the subscriber and the dataset's owner; anyone else gets 404.
 */
@Service
public class SubscriptionService {

    /** Job kind of a subscription's job row. */
    public static final String JOB_KIND = "SUBSCRIPTION";

    private final DatasetService datasets;
    private final StreamRepository repository;
    private final BudgetService budget;
    private final JobService jobs;
    private final TransactionTemplate tx;
    private final JsonMapper json;
    private final PlanDocuments documents;
    private final MechanismCatalog catalog;
    private final Clock clock;
    private final StreamSettings settings;
    private final Map<UUID, Plan> plans = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, Plan> eldest) {
            return size() > 1000;
        }
    };

    public SubscriptionService(DatasetService datasets, StreamRepository repository, BudgetService budget,
            JobService jobs, TransactionTemplate tx, JsonMapper json, PlanDocuments documents,
            MechanismCatalog catalog, Clock clock, StreamSettings settings) {
        this.datasets = datasets;
        this.repository = repository;
        this.budget = budget;
        this.jobs = jobs;
        this.tx = tx;
        this.json = json;
        this.documents = documents;
        this.catalog = catalog;
        this.clock = clock;
        this.settings = settings;
    }

    /** The cost of a subscription and the budget before and after it; charges nothing. */
    public record Quote(Plan plan, String accounting, Tracks cost, boolean admissible, Tracks remaining,
            @Nullable Tracks remainingAfter, @Nullable BigDecimal largestPureEpsilonAfter,
            java.util.List<NoiseWarning> warnings, Limit limit, Tracks limitRemaining, @Nullable Long period) {}

    public Quote quote(UUID datasetId, QueryRequest request, Caller caller) {
        Dataset dataset = datasets.visible(datasetId, caller);
        Plan plan = plan(dataset, request);
        StreamSchema schema = StreamFacts.schema(dataset);
        // On a budget that renews per period, priced against the period of the stream's open block:
        // the one a subscription created now is charged first (docs/accounting.md, "Budgets that
        // renew per period").
        Long period = schema.periodOf(repository.counters(datasetId).map(c -> c[0]).orElse(0L));
        // A subscription's charge goes through the same reservation as a query: the caller's
        // allocation or the pool, and the total (docs/accounting.md §10).
        BudgetService.Price price = budget.price(datasetId, dataset.budget(), plan.chargedLoss(), caller.subject(),
                period);
        return new Quote(plan, dataset.budget().mode().name(), price.cost(), price.admissible(), price.remaining(),
                price.remainingAfter(), price.largestPureEpsilonAfter(), catalog.warnings(plan),
                price.limit(), price.limitRemaining(), period);
    }

    /** A created subscription, and whether it is an idempotent replay of an earlier creation. */
    public record Created(Subscription subscription, boolean replayed) {}

    /**
     * Plans, charges (reserve and commit) and records a subscription in one transaction, under the
     * stream's row lock (so its first block is the one open now, and no append interleaves).
     */
    public Created create(UUID datasetId, QueryRequest request, @Nullable String idempotencyKey, Caller who) {
        Dataset dataset = datasets.visible(datasetId, who);
        Plan plan = plan(dataset, request);
        String caller = who.subject();
        PlanDocuments.Written written = documents.write(plan);
        String specJson = written.specJson();
        if (idempotencyKey != null) {
            Optional<Created> replay = replay(datasetId, caller, idempotencyKey, written);
            if (replay.isPresent()) {
                return replay.get();
            }
        }
        String lossJson = written.lossJson();
        UUID jobId = UUID.randomUUID();
        UUID id = UUID.randomUUID();
        try {
            Subscription created = tx.execute(status -> {
                StreamState stream = repository.lock(datasetId).orElseThrow(() -> new PrivmatException(
                        ProblemType.WRONG_DATASET_KIND, "Dataset " + datasetId + " is not a STREAM.", Map.of()));
                WindowParameters p = StreamFacts.parameters(dataset);
                StreamSchema schema = StreamFacts.schema(dataset);
                long first = stream.completedBlocks();
                if (schema.blockRule() == BlockRule.TIME) {
                    // The block the clock is in, not the stream's counter: that one lags a block's end
                    // until the scheduler has closed it, by a time that appends may lengthen.
                    first = Math.max(first, StreamService.blockAt(stream.startedAt(), schema.blockSeconds(),
                            clock.instant()));
                }
                if (first >= p.horizonBlocks()) {
                    throw StreamService.horizon(datasetId, p);
                }
                // A budget that renews per period (ROW_COUNT streams only): the charge is for the period
                // of the block it starts with — the open block — fixed here under the stream's lock (no
                // block closes meanwhile), so the releasing transactions charge later periods in order.
                Long period = schema.periodOf(first);
                Tracks cost = budget.reserve(new Reservation(datasetId, dataset.budget(), jobId, JOB_KIND,
                        plan.spec().mechanism(), specJson, plan.chargedLoss(), lossJson, caller, period));
                // Data access begins with the next append or block end: the charge is final now.
                if (period == null) {
                    budget.commit(jobId);
                } else {
                    budget.commit(jobId, period);
                }
                Subscription s = new Subscription(id, datasetId, jobId, caller, plan.spec().kind().name(),
                        plan.spec().mechanism(), specJson, lossJson, SubscriptionState.ACTIVE, first, 0,
                        clock.instant(), null, null, period, null, null, null);
                jobs.recordSubscription(new NewJob(jobId, datasetId, dataset.owner(), JOB_KIND, plan.spec().mechanism(),
                        specJson, written.requestHash(), idempotencyKey, caller, lossJson, cost),
                        description(s, dataset, plan, lossJson));
                repository.insertSubscription(s, NoiseSources.newStreamKey());
                return s;
            });
            return new Created(repository.find(created.id()).orElseThrow(), false);
        } catch (DuplicateKeyException race) {
            // A concurrent creation with the same key won; its transaction holds the only charge.
            return replay(datasetId, caller, idempotencyKey, written).orElseThrow(() -> race);
        }
    }

    private Optional<Created> replay(UUID datasetId, String caller, @Nullable String key,
            PlanDocuments.Written request) {
        if (key == null) {
            return Optional.empty();
        }
        return jobs.findByIdempotencyKey(datasetId, caller, key).map(job -> {
            if (!request.sameRequest(job.requestHash()) || !job.kind().equals(JOB_KIND)) {
                throw new PrivmatException(ProblemType.IDEMPOTENCY_KEY_REUSED, "This Idempotency-Key was used for a "
                        + "different request on this dataset; use a new key.", Map.of("jobId", job.id().toString()));
            }
            return new Created(repository.findByJob(job.id()).orElseThrow(), true);
        });
    }

    /** The job's result document: what was subscribed, where to follow it. */
    private String description(Subscription s, Dataset dataset, Plan plan, String lossJson) {
        return json.writeValueAsString(new QueryResult.Subscription(new QueryResult.Head(s.jobId(), dataset.id(),
                JOB_KIND, s.mechanism(), dataset.neighbouring().name(), StreamFacts.rowBound(dataset), null),
                new RawValue(lossJson), plan.noise(), s.id(), s.kind(), s.firstBlock(), "/v1/subscriptions/" + s.id()));
    }

    private Plan plan(Dataset dataset, QueryRequest request) {
        try {
            return catalog.plan(request.kind(), request.mechanism(),
                    new QueryBudget(request.epsilon(), request.delta(), request.rho()), request.params(),
                    StreamFacts.facts(dataset));
        } catch (PlanningException e) {
            throw QueryPlans.problem(e);
        }
    }

    /** A subscription the caller may see: its subscriber, or its dataset's owner (404 otherwise). */
    public Subscription visible(UUID id, Caller caller) {
        Subscription s = repository.find(id).orElseThrow(() -> notFound(id));
        if (!s.caller().equals(caller.subject()) && !owns(s.datasetId(), caller)) {
            throw notFound(id);
        }
        return s;
    }

    private boolean owns(UUID datasetId, Caller caller) {
        if (!caller.is(Role.OWNER)) {
            return false;
        }
        try {
            datasets.owned(datasetId, caller);
            return true;
        } catch (PrivmatException e) {
            return false;
        }
    }

    /** A stream's subscriptions the caller may see: all for its owner, the analyst's own otherwise. */
    public List<Subscription> list(UUID datasetId, Caller caller, int offset, int limit) {
        Dataset dataset = datasets.visible(datasetId, caller);
        StreamFacts.schema(dataset);
        return repository.list(datasetId, owns(datasetId, caller) ? null : caller.subject(), offset, limit);
    }

    public long count(UUID datasetId, Caller caller) {
        return repository.count(datasetId, owns(datasetId, caller) ? null : caller.subject());
    }

    /** Stops later releases (the charge stays): 409 when it is not active. */
    public Subscription cancel(UUID id, Caller caller) {
        Subscription s = visible(id, caller);
        tx.executeWithoutResult(status -> {
            repository.lock(s.datasetId()); // no append is releasing for it meanwhile
            Subscription locked = repository.find(id).orElseThrow(() -> notFound(id));
            if (locked.state() != SubscriptionState.ACTIVE) {
                throw new PrivmatException(ProblemType.SUBSCRIPTION_NOT_ACTIVE, "Subscription " + id + " is "
                        + locked.state() + "; only an ACTIVE subscription can be cancelled.",
                        Map.of("state", locked.state().name()));
            }
            repository.setState(id, SubscriptionState.CANCELLED, clock.instant(), null);
        });
        return repository.find(id).orElseThrow();
    }

    /** The subscription's plan (rebuilt from its stored spec; public noise facts for the views). */
    public Plan plan(Subscription s) {
        synchronized (plans) {
            Plan hit = plans.get(s.id());
            if (hit != null) {
                return hit;
            }
        }
        Plan plan = documents.rebuild(s.spec());
        synchronized (plans) {
            plans.put(s.id(), plan);
        }
        return plan;
    }

    /**
     * What anyone sees of a subscription now (docs/mechanisms/windows.md, "Timing"): on a TIME stream
     * only the releases whose publication time start + (i + 1)·s + D has passed, whenever they were
     * computed — so {@code completedBlocks} is a function of the clock while the scheduler keeps up —
     * and FINISHED only once the last of them is shown. Other streams: as stored.
     */
    public Subscription published(Subscription s) {
        long shown = shownReleases(s);
        if (shown == s.completedBlocks()) {
            return s;
        }
        SubscriptionState state = s.state() == SubscriptionState.FINISHED ? SubscriptionState.ACTIVE : s.state();
        return new Subscription(s.id(), s.datasetId(), s.jobId(), s.caller(), s.kind(), s.mechanism(), s.spec(),
                s.loss(), state, s.firstBlock(), shown, s.createdAt(), s.cancelledAt(), s.errorCode(), s.chargedPeriod(),
                s.pausedPeriod(), s.pausedLimit(), s.runBlock());
    }

    /** How many of a subscription's releases are shown now (all of them unless its stream has TIME blocks). */
    private long shownReleases(Subscription s) {
        Dataset dataset = datasets.get(s.datasetId());
        StreamSchema schema = StreamFacts.schema(dataset);
        if (schema.blockRule() != BlockRule.TIME) {
            return s.completedBlocks();
        }
        // Stream block i is shown once start + (i + 1)·s + D ≤ now: blocks below ⌊(now − D − start)/s⌋.
        long shownBlocks = StreamService.blockAt(dataset.createdAt(), schema.blockSeconds(),
                clock.instant().minus(settings.releaseDelay()));
        return Math.max(0, Math.min(s.completedBlocks(), shownBlocks - s.firstBlock()));
    }

    /** Its shown releases ({@link #published}), newest first. */
    public List<SubscriptionRelease> releases(Subscription s, int offset, int limit) {
        return repository.releases(s.id(), shownReleases(s), offset, limit);
    }

    public long releaseCount(Subscription s) {
        return repository.releaseCount(s.id(), shownReleases(s));
    }

    /** One release with its kind's full answer (COVARIANCE: the PSD-projected estimate, computed here). */
    public record Detail(SubscriptionRelease release, @Nullable CovarianceRelease covariance) {}

    public Detail release(Subscription s, long block) {
        SubscriptionRelease r = (block < shownReleases(s) ? repository.release(s.id(), block)
                : Optional.<SubscriptionRelease>empty()).orElseThrow(() -> new PrivmatException(
                ProblemType.NOT_FOUND, "Subscription " + s.id() + " has no release for block " + block + ".",
                Map.of("block", block)));
        CovarianceRelease covariance = null;
        if (QueryKind.valueOf(s.kind()) == QueryKind.COVARIANCE) {
            Plan plan = plan(s);
            WindowParameters p = plan.spec().facts().stream().parameters(plan.spec().facts());
            Facts meta = r.meta();
            Long rows = meta.find(ReleaseMeta.WINDOW_ROWS);
            WindowRelease window = new WindowRelease(WindowMechanismKind.valueOf(s.mechanism()), r.block(),
                    meta.get(ReleaseMeta.FIRST_BLOCK), rows != null ? rows : -1, p.d(),
                    repository.releasePayload(r.releaseId()), meta.get(ReleaseMeta.NOISE_VARIANCE),
                    meta.get(ReleaseMeta.ROUNDING_BOUND));
            covariance = WindowAnswers.covariance(p, window, p.d(), true);
        }
        return new Detail(r, covariance);
    }

    /** Drops memory copies of plans (tests). */
    void clear() {
        synchronized (plans) {
            plans.clear();
        }
    }

    private static PrivmatException notFound(UUID id) {
        return new PrivmatException(ProblemType.SUBSCRIPTION_NOT_FOUND, "No subscription with id " + id + ".",
                Map.of("subscriptionId", id.toString()));
    }
}
