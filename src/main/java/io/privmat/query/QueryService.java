package io.privmat.query;

import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetService;
import io.privmat.job.Job;
import io.privmat.job.JobService;
import io.privmat.job.NewJob;
import io.privmat.ledger.BudgetAccount;
import io.privmat.ledger.BudgetService;
import io.privmat.ledger.Reservation;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.privacy.BudgetFilter;
import io.privmat.privacy.Tracks;
import io.privmat.security.Caller;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;

/**
 * Quotes and submits queries: plan → (reserve + enqueue in one transaction, grouped per dataset with
 * the submissions arriving meanwhile: {@link Admissions}).
 */
@Service
public class QueryService {

    private final DatasetService datasets;
    private final QueryPlans plans;
    private final BudgetService budget;
    private final JobService jobs;
    private final Admissions admissions;
    private final JsonMapper json;

    QueryService(DatasetService datasets, QueryPlans plans, BudgetService budget, JobService jobs,
            Admissions admissions, JsonMapper json) {
        this.datasets = datasets;
        this.plans = plans;
        this.budget = budget;
        this.jobs = jobs;
        this.admissions = admissions;
        this.json = json;
    }

    /** A submitted job, and whether it is an idempotent replay of an earlier submission. */
    public record Submission(Job job, boolean replayed) {}

    /** The cost of a query and the budget before and after it; charges nothing. */
    public record Quote(Plan plan, String accounting, Tracks cost, boolean admissible, Tracks remaining,
            @Nullable Tracks remainingAfter, java.math.@Nullable BigDecimal largestPureEpsilonAfter,
            java.util.List<io.privmat.mechanism.catalog.ErrorStatement> expectedError) {}

    public Quote quote(UUID datasetId, QueryRequest request, Caller caller) {
        Dataset dataset = datasets.visible(datasetId, caller);
        Plan plan = plans.plan(dataset, request, caller);
        BudgetFilter filter = dataset.budget().filter();
        Tracks cost = filter.cost(plan.chargedLoss());
        BudgetAccount account = budget.account(datasetId, dataset.budget());
        boolean admissible = filter.admits(account.spent(), cost);
        Tracks remaining = filter.remaining(account.spent());
        Tracks after = account.spent().plus(cost);
        return new Quote(plan, dataset.budget().mode().name(), cost, admissible, remaining,
                admissible ? filter.remaining(after) : null, admissible ? filter.largestPureEpsilon(after) : null,
                plans.catalog().expectedError(plan));
    }

    /**
     * Starts computing the public strategy of a LINEAR_QUERIES request (OPTIMIZED, LOW_RANK_MECHANISM)
     * on a dataset the caller sees; reads no data and charges nothing.
     */
    public io.privmat.strategy.StrategyService.View startStrategy(UUID datasetId, QueryRequest request, Caller caller,
            io.privmat.strategy.StrategyService strategies) {
        Dataset dataset = datasets.visible(datasetId, caller);
        return strategies.start(plans.strategyTask(dataset, request, caller), caller);
    }

    public Submission submit(UUID datasetId, QueryRequest request, @Nullable String idempotencyKey, Caller who) {
        Dataset dataset = datasets.visible(datasetId, who);
        String caller = who.subject();
        Plan plan = plans.plan(dataset, request, who);
        String requestHash = Canonical.sha256(plan.spec().toMap());
        if (idempotencyKey != null) {
            Optional<Job> existing = jobs.findByIdempotencyKey(datasetId, caller, idempotencyKey);
            if (existing.isPresent()) {
                return replay(existing.get(), requestHash, caller);
            }
        }
        UUID jobId = UUID.randomUUID();
        String parametersJson = plans.specJson(plan);
        String lossJson = json.writeValueAsString(QueryPlans.lossDocument(plan));
        Admissions.Pending pending = new Admissions.Pending(new Reservation(datasetId, dataset.budget(), jobId,
                plan.spec().kind().name(), plan.spec().mechanism(), parametersJson, plan.chargedLoss(), lossJson, caller),
                new NewJob(jobId, datasetId, dataset.owner(), plan.spec().kind().name(), plan.spec().mechanism(),
                        parametersJson, requestHash, idempotencyKey, caller, lossJson, Tracks.ZERO));
        if (idempotencyKey == null) {
            return new Submission(admissions.admit(pending), false);
        }
        try {
            return new Submission(admissions.admitAlone(pending), false);
        } catch (DuplicateKeyException race) {
            // A concurrent submission with the same key won; its transaction holds the only charge.
            Job winner = jobs.findByIdempotencyKey(datasetId, caller, idempotencyKey).orElseThrow(() -> race);
            return replay(winner, requestHash, caller);
        }
    }

    /** Keys are scoped to (dataset, submitter), so a replay never sees another caller's job. */
    private static Submission replay(Job job, String requestHash, String caller) {
        if (!job.requestHash().equals(requestHash)) {
            throw new PrivmatException(ProblemType.IDEMPOTENCY_KEY_REUSED, "This Idempotency-Key was used for a "
                    + "different request on this dataset; use a new key.", Map.of("jobId", job.id().toString()));
        }
        return new Submission(job, true);
    }
}
