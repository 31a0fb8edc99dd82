package io.privmat.query.dryrun;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetService;
import io.privmat.ledger.BudgetService;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanLimit;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.StandInData;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.privacy.BudgetFilter;
import io.privmat.privacy.Tracks;
import io.privmat.problem.PrivmatException;
import io.privmat.query.FreePlanning;
import io.privmat.query.QueryPlans;
import io.privmat.query.QueryRequest;
import io.privmat.query.QueryResult;
import io.privmat.query.render.ResultDocuments;
import io.privmat.security.Caller;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * Dry runs (docs/dry-run.md): a query planned and released on synthetic stand-in data made from the
 * dataset's public facts only ({@link StandInData}), so that a user sees the shape and the noise of
 * an answer before paying. Nothing is charged, reserved, stored or logged as a release; the dataset's
 * rows are never read (this class holds no way to read them). Computed while the caller waits, through
 * {@link FreePlanning} (one at a time per key, a few per replica, a time limit), on a stand-in whose
 * size {@link StandInData#maxSize} bounds by its work.
 */
@Service
public class DryRuns {

    private final DatasetService datasets;
    private final QueryPlans plans;
    private final BudgetService budget;
    private final ResultDocuments documents;
    /** Dry runs and inverse quotes at once, per key and per replica, and their time. */
    private final FreePlanning gate;

    DryRuns(DatasetService datasets, QueryPlans plans, BudgetService budget, ResultDocuments documents,
            FreePlanning gate) {
        this.gate = gate;
        this.datasets = datasets;
        this.plans = plans;
        this.budget = budget;
        this.documents = documents;
    }

    /**
     * A dry run's answer: the result document computed on the stand-in, what the stand-in is, and
     * what the real query would be charged (and whether the budget could pay it now), priced on the
     * dataset's own public facts; when the real query would be refused there (a limit that depends on
     * the public count), {@code cost} is null and {@code realRefusal} says why.
     */
    public record DryRun(QueryResult result, StandIn standIn, String accounting,
            @Nullable Tracks cost, boolean admissible, @Nullable String realRefusal) {}

    /**
     * What the stand-in is.
     *
     * @param sizeRule how its size was chosen: requested, the dataset's public count, or a default
     * @param note what it was computed from, and what its numbers do not say
     */
    public record StandIn(StandInData.Description data, String sizeRule, String note) {}

    /**
     * @param size the stand-in's rows (MATRIX), edges (GRAPH), records (HISTOGRAM) or users (RATINGS);
     *     null: the dataset's own count where it is public, else a documented default
     */
    public DryRun run(UUID datasetId, QueryRequest request, @Nullable Long size, Caller caller) {
        Dataset dataset = datasets.visible(datasetId, caller);
        PublicFacts facts = QueryPlans.facts(dataset);
        if (facts.shape() == DataShape.GRAPH && facts.cols() < 2) {
            throw PrivmatException.invalidParameter("dryRun", "a graph of at least 2 vertices",
                    "a graph of fewer than 2 vertices has no stand-in");
        }
        long max;
        try {
            max = StandInData.maxSize(facts);
        } catch (PlanningException e) {
            throw QueryPlans.problem(e);
        }
        String sizeRule;
        long chosen;
        if (size != null) {
            if (size < 1 || size > max) {
                throw PrivmatException.invalidParameter("standInSize", "[1, " + max + "]", "standInSize must be in [1, "
                        + max + "] for this dataset");
            }
            chosen = size;
            sizeRule = "requested";
        } else if (facts.shape() != DataShape.GRAPH && facts.publicRows() != null) {
            chosen = Math.min(facts.publicRows(), max);
            sizeRule = chosen == facts.publicRows() ? "the dataset's public count"
                    : "the dataset's public count, capped at " + max;
        } else {
            chosen = facts.shape() == DataShape.GRAPH ? Math.min(max, 10L * facts.cols())
                    : Math.min(max, StandInData.DEFAULT_SIZE);
            sizeRule = "default: the dataset's count is private (" + privateCount(facts) + "), so a public stand-in "
                    + (facts.shape() == DataShape.GRAPH ? "of 10 edges per vertex" : "of " + StandInData.DEFAULT_SIZE)
                    + " is used; set standInSize to try another";
        }
        try (FreePlanning.Permit permit = gate.enter("the dry run", caller)) {
            PublicFacts stand = withSize(facts, chosen);
            Plan plan;
            try {
                plan = plans.catalog().plan(request.kind(), request.mechanism(), new QueryBudget(request.epsilon(),
                        request.delta(), request.rho()), request.params(), stand, plans.artifacts(caller));
            } catch (PlanningException e) {
                throw QueryPlans.problem(e);
            }
            // The charge is the real query's, planned on the dataset's own public facts (its public count may
            // differ from the stand-in's, and with it the calibration or a size limit).
            Plan real = null;
            String realRefusal = null;
            if (stand == facts) {
                real = plan;
            } else {
                try {
                    real = plans.plan(dataset, request, caller);
                } catch (PrivmatException e) {
                    realRefusal = e.getMessage();
                }
            }
            BudgetFilter filter = dataset.budget().filter();
            Tracks cost = real == null ? null : filter.cost(real.chargedLoss());
            boolean admissible = cost != null
                    && budget.limits(datasetId, dataset.budget(), caller.subject()).admits(cost);
            PlanLimit limit = permit.planLimit();
            if (limit.exhausted()) {
                throw FreePlanning.outOfTime("dry run");
            }
            StandInData data = StandInData.of(stand, chosen, NoiseSources.secure());
            if (limit.exhausted()) {
                throw FreePlanning.outOfTime("dry run");
            }
            Release release = plan.release(data, NoiseSources.secure());
            StandIn standIn = new StandIn(data.describe(), sizeRule, "computed on synthetic data made from the "
                    + "dataset's public facts only (shape, bounds, domain" + (facts.publicRows() != null
                    && facts.shape() != DataShape.GRAPH ? ", the public count" : "") + "); the dataset's rows were "
                    + "not read, nothing was charged or stored, and the numbers say nothing about the real data: only "
                    + "the shape and the noise");
            return new DryRun(documents.dryRun(dataset, plan, release), standIn, dataset.budget().mode().name(), cost,
                    admissible, realRefusal);
        }
    }

    private static String privateCount(PublicFacts f) {
        if (f.shape() == DataShape.GRAPH) {
            return "a graph's edge count is never public";
        }
        if (f.ratings() != null) {
            return "the user count is public only under the RATING relation; this dataset's is " + f.ratings().relation();
        }
        return "under " + f.relation() + " the " + (f.shape() == DataShape.HISTOGRAM ? "record" : "row") + " count n "
                + "is private";
    }

    /** The same public facts with the stand-in's count where the count is a fact (never where it is private). */
    static PublicFacts withSize(PublicFacts f, long size) {
        if (f.publicRows() == null || f.shape() == DataShape.GRAPH) {
            return f;
        }
        return new PublicFacts(f.shape(), f.cols(), size, f.rowNormBound(), f.relation(), f.mode(), f.domain(),
                f.stream(), f.ratings());
    }
}
