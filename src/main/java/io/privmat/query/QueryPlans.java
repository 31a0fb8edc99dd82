package io.privmat.query;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.DatasetStatus;
import io.privmat.dataset.ExternalEngine;
import io.privmat.dataset.ExternalSchema;
import io.privmat.dataset.HistogramSchema;
import io.privmat.dataset.Neighbouring;
import io.privmat.dataset.RatingsSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.HistogramDomain;
import io.privmat.mechanism.catalog.InverseQuote;
import io.privmat.mechanism.linear.LinearQueries;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanLimit;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PublicArtifacts;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.RatingsFacts;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.ComputeBudget;
import io.privmat.plan.PlanDocuments;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.query.workload.WorkloadService;
import io.privmat.security.Caller;
import io.privmat.strategy.StrategyService;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The catalogue seen from the service: a dataset's public facts, planning a request into a
 * {@link Plan} (problem details for what cannot be planned), and the worker's rebuild of a stored
 * spec (through {@link PlanDocuments}, which query and stream share).
 */
@Component
public class QueryPlans {

    private final MechanismCatalog catalog;
    private final PlanDocuments documents;
    private final WorkloadService workloads;
    private final StrategyService strategies;
    private final ObjectProvider<ExternalEngine> engines;

    QueryPlans(MechanismCatalog catalog, PlanDocuments documents, WorkloadService workloads,
            StrategyService strategies, ObjectProvider<ExternalEngine> engines) {
        this.catalog = catalog;
        this.documents = documents;
        this.workloads = workloads;
        this.strategies = strategies;
        this.engines = engines;
    }

    public MechanismCatalog catalog() {
        return catalog;
    }

    /** The facts a plan may use: shape, bound, relation, accounting, and n only where it is public. */
    public static PublicFacts facts(Dataset dataset) {
        if (dataset.kind() == DatasetKind.STREAM) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "Dataset " + dataset.id() + " is a STREAM: it "
                    + "answers standing subscriptions (POST /v1/datasets/" + dataset.id() + "/subscriptions), not "
                    + "one-shot queries.", Map.of());
        }
        if (dataset.status() != DatasetStatus.READY || dataset.cols() == null) {
            throw new PrivmatException(ProblemType.DATASET_NOT_READY,
                    "Dataset " + dataset.id() + " has no data yet; upload it first.", Map.of());
        }
        RatingsSchema declaredRatings = dataset.schema() instanceof RatingsSchema r ? r
                : dataset.schema() instanceof ExternalSchema e ? e.ratings() : null;
        if (declaredRatings != null) {
            RatingsSchema r = declaredRatings;
            // Items, range, cap and relation are declared; the user count m is a fact only under RATING,
            // where Ω is public (docs/ratings.md). COMPLETION mechanisms take these facts, and the entry-level
            // low-rank ones under RATING only; the other matrix mechanisms refuse the shape (a missing rating
            // is not a zero).
            RatingsRelation relation = r.relation(dataset.neighbouring());
            return PublicFacts.ratings(new RatingsFacts(r.domain(), relation),
                    relation == RatingsRelation.RATING ? dataset.rows() : null,
                    dataset.budget().mode());
        }
        boolean graph = dataset.kind() == DatasetKind.GRAPH;
        // An EXTERNAL dataset is a MATRIX to the mechanisms: d and B declared, n public only where
        // the owner declared it (REPLACE_ONE); its rows are read by an engine (docs/scale-out.md).
        NeighbouringRelation relation = dataset.neighbouring() == Neighbouring.ADD_REMOVE
                ? NeighbouringRelation.ADD_REMOVE : NeighbouringRelation.REPLACE_ONE;
        if (dataset.schema() instanceof HistogramSchema h) {
            // One record adds 1 to one cell; its count is public only under REPLACE_ONE.
            Long records = relation == NeighbouringRelation.REPLACE_ONE ? dataset.rows() : null;
            return new PublicFacts(DataShape.HISTOGRAM, h.cells(), records, 1.0, relation, dataset.budget().mode(),
                    new HistogramDomain(h.names(), java.util.Arrays.stream(h.sizes()).boxed().toList()));
        }
        Long publicRows = graph || relation == NeighbouringRelation.REPLACE_ONE ? dataset.rows() : null;
        double bound = graph || dataset.rowNormBound() == null ? 1.0 : dataset.rowNormBound();
        return new PublicFacts(graph ? DataShape.GRAPH : DataShape.MATRIX, Math.toIntExact(dataset.cols()), publicRows,
                bound, relation, dataset.budget().mode());
    }

    /** Plans a request of this caller (whose quotas any free computation it needs counts against). */
    public Plan plan(Dataset dataset, QueryRequest request, Caller caller) {
        PublicFacts facts = plannable(dataset);
        try {
            return catalog.plan(request.kind(), request.mechanism(),
                    new QueryBudget(request.epsilon(), request.delta(), request.rho()), request.params(), facts,
                    artifacts(caller));
        } catch (PlanningException e) {
            throw problem(e);
        }
    }

    /**
     * Artifacts for pricing mechanisms the caller did not ask for: a strategy is used only when small
     * (computed inline) or already computed; nothing is started in the background for them.
     */
    private PublicArtifacts computedOnly(Caller caller) {
        PublicArtifacts base = artifacts(caller);
        return new PublicArtifacts() {
            @Override
            public ComputeBudget strategyBudget() {
                return base.strategyBudget();
            }

            @Override
            public StoredWorkload workload(String id) {
                return base.workload(id);
            }

            @Override
            public byte[] strategy(StrategyTask task) {
                boolean done = strategies.view(task.id()).map(v -> v.status()
                        == StrategyService.Status.DONE).orElse(false);
                if (!task.small() && !done) {
                    throw new PlanningException(PlanningException.Reason.STRATEGY_NOT_READY, task.mechanism()
                            + "'s strategy for this workload is not computed yet (start it with a quote or "
                            + "POST /v1/datasets/{id}/strategies with that mechanism); it was not priced.", Map.of());
                }
                return base.strategy(task);
            }
        };
    }

    /**
     * The artifacts a request's plan resolves (a large strategy not yet computed answers 409), its free
     * computations counted against this caller's quotas.
     */
    public PublicArtifacts artifacts(Caller caller) {
        return new ServiceArtifacts(workloads, strategies, caller);
    }

    /**
     * The smallest budget at which {@code mechanism}'s quote meets {@code target} on this dataset
     * (docs/accuracy/inverse-quote.md): plans only, reads nothing.
     */
    public InverseQuote.Answer inverse(Dataset dataset, String mechanism, QueryRequest request,
            InverseQuote.Target target, boolean requested, Caller caller,
            PlanLimit limit) {
        PublicFacts facts = plannable(dataset);
        try {
            return InverseQuote.smallest(catalog, request.kind(), mechanism,
                    request.delta(), request.params(), facts, requested ? artifacts(caller) : computedOnly(caller),
                    target, limit);
        } catch (PlanningException e) {
            throw problem(e);
        }
    }

    /** The dataset's public facts, refused (before any charge) when nothing here could read its rows. */
    PublicFacts plannable(Dataset dataset) {
        PublicFacts facts = facts(dataset);
        if (dataset.kind() == DatasetKind.EXTERNAL && engines.getIfAvailable() == null) {
            // Refused before any charge: nothing here can read the rows.
            throw new PrivmatException(ProblemType.EXTERNAL_ENGINE_UNAVAILABLE, "Dataset " + dataset.id() + " is "
                    + "EXTERNAL and this service runs without an engine for external data (the Spark-enabled build, "
                    + "docs/scale-out.md); nothing was charged.", Map.of("datasetId", dataset.id().toString()));
        }
        return facts;
    }

    /**
     * The strategy computation a LINEAR_QUERIES request (of a mechanism that needs a public strategy)
     * needs on this dataset, to start ahead of a query. Plans and charges nothing.
     */
    public PublicArtifacts.StrategyTask strategyTask(Dataset dataset, QueryRequest request,
            Caller caller) {
        PublicFacts facts = facts(dataset);
        try {
            return LinearQueries.strategyTask(request.mechanism(), request.params(), facts,
                    new ServiceArtifacts(workloads, strategies, caller));
        } catch (PlanningException e) {
            throw problem(e);
        }
    }

    /** Rebuilds a job's stored spec (JSON) through the same validation as a new request. */
    public Plan rebuild(String specJson) {
        return documents.rebuild(specJson, new ServiceArtifacts(workloads, strategies, null));
    }

    /**
     * Rebuilds a stored spec to state its accuracy in a view (the transparency record): a strategy not
     * yet computed is not computed here (the rebuild then fails), so a GET never starts that work.
     */
    Plan rebuildForView(String specJson, Caller caller) {
        return documents.rebuild(specJson, computedOnly(caller));
    }

    public static PrivmatException problem(PlanningException e) {
        ProblemType type = switch (e.reason()) {
            case INVALID_PARAMETER -> ProblemType.INVALID_PARAMETER;
            case INCOMPATIBLE_ACCOUNTING -> ProblemType.INCOMPATIBLE_ACCOUNTING;
            case WRONG_DATASET_KIND -> ProblemType.WRONG_DATASET_KIND;
            case DATASET_TOO_LARGE -> ProblemType.DATASET_TOO_LARGE;
            case GRAPH_TOO_SMALL -> ProblemType.GRAPH_TOO_SMALL;
            case WORKLOAD_TOO_LARGE -> ProblemType.WORKLOAD_TOO_LARGE;
            case STRATEGY_NOT_READY -> ProblemType.STRATEGY_NOT_READY;
            case STRATEGY_FAILED -> ProblemType.STRATEGY_FAILED;
        };
        return new PrivmatException(type, e.getMessage(), e.properties());
    }
}
