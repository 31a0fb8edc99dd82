package io.privmat.query;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetService;
import io.privmat.ledger.BudgetAccount;
import io.privmat.ledger.BudgetService;
import io.privmat.mechanism.catalog.Budget;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.StandInData;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.privacy.BudgetFilter;
import io.privmat.privacy.Tracks;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.security.Caller;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * Dry runs (docs/dry-run.md): a query planned and released on synthetic stand-in data made from the
 * dataset's public facts only ({@link StandInData}), so that a user sees the shape and the noise of
 * an answer before paying. Nothing is charged, reserved, stored or logged as a release; the dataset's
 * rows are never read (this class holds no way to read them). Computed while the caller waits, at most
 * a few at a time per replica.
 */
@Service
public class DryRuns {

    private final DatasetService datasets;
    private final QueryPlans plans;
    private final BudgetService budget;
    private final ResultDocuments documents;
    /** Dry runs computed at once on this replica (each holds a core while it runs). */
    private final Semaphore running = new Semaphore(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));

    DryRuns(DatasetService datasets, QueryPlans plans, BudgetService budget, ResultDocuments documents) {
        this.datasets = datasets;
        this.plans = plans;
        this.budget = budget;
        this.documents = documents;
    }

    /**
     * A dry run's answer: the result document computed on the stand-in, what the stand-in is, and
     * what the real query would be charged (and whether the budget could pay it now).
     */
    public record DryRun(Map<String, Object> result, Map<String, Object> standIn, String accounting, Tracks cost,
            boolean admissible) {}

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
        long max = StandInData.maxSize(facts);
        Map<String, Object> standIn = new LinkedHashMap<>();
        long chosen;
        if (size != null) {
            if (size < 1 || size > max) {
                throw PrivmatException.invalidParameter("standInSize", "[1, " + max + "]", "standInSize must be in [1, "
                        + max + "] for this dataset");
            }
            chosen = size;
            standIn.put("sizeRule", "requested");
        } else if (facts.shape() != DataShape.GRAPH && facts.publicRows() != null) {
            chosen = Math.min(facts.publicRows(), max);
            standIn.put("sizeRule", chosen == facts.publicRows() ? "the dataset's public count"
                    : "the dataset's public count, capped at " + max);
        } else {
            chosen = facts.shape() == DataShape.GRAPH ? Math.min(max, 10L * facts.cols())
                    : Math.min(max, StandInData.DEFAULT_SIZE);
            standIn.put("sizeRule", "default: the dataset's count is private (" + privateCount(facts)
                    + "), so a public stand-in "
                    + (facts.shape() == DataShape.GRAPH ? "of 10 edges per vertex" : "of " + StandInData.DEFAULT_SIZE)
                    + " is used; set standInSize to try another");
        }
        PublicFacts stand = withSize(facts, chosen);
        Plan plan;
        try {
            plan = plans.catalog().plan(request.kind(), request.mechanism(), new Budget(request.epsilon(),
                    request.delta(), request.rho()), request.params(), stand, plans.artifacts());
        } catch (PlanningException e) {
            throw QueryPlans.problem(e);
        }
        BudgetFilter filter = dataset.budget().filter();
        BudgetAccount account = budget.account(datasetId, dataset.budget());
        Tracks cost = filter.cost(plan.chargedLoss());
        boolean admissible = filter.admits(account.spent(), cost);
        if (!acquire()) {
            throw new PrivmatException(ProblemType.RATE_LIMITED, "Dry runs are busy on this replica; retry in a few "
                    + "seconds.", Map.of());
        }
        try {
            StandInData data = StandInData.of(stand, chosen, NoiseSources.secure());
            Release release = plan.release(data, NoiseSources.secure());
            standIn.putAll(data.describe());
            standIn.put("note", "computed on synthetic data made from the dataset's public facts only (shape, "
                    + "bounds, domain" + (facts.publicRows() != null && facts.shape() != DataShape.GRAPH
                    ? ", the public count" : "") + "); the dataset's rows were not read, nothing was charged or "
                    + "stored, and the numbers say nothing about the real data: only the shape and the noise");
            return new DryRun(documents.dryRun(dataset, plan, release), standIn, dataset.budget().mode().name(), cost,
                    admissible);
        } finally {
            running.release();
        }
    }

    private boolean acquire() {
        try {
            return running.tryAcquire(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
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
