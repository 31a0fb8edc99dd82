package io.privmat.query.admission;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.DatasetService;
import io.privmat.job.Job;
import io.privmat.job.JobService;
import io.privmat.job.NewJob;
import io.privmat.ledger.BudgetAccount;
import io.privmat.ledger.BudgetService;
import io.privmat.ledger.Limit;
import io.privmat.ledger.Reservation;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.InverseQuote;
import io.privmat.mechanism.catalog.MechanismDefinition;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.Param;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanLimit;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.plan.PlanDocuments;
import io.privmat.privacy.BudgetFilter;
import io.privmat.privacy.PrivacyArgumentException;
import io.privmat.privacy.Tracks;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.query.FreePlanning;
import io.privmat.query.QueryPlans;
import io.privmat.query.QueryRequest;
import io.privmat.security.Caller;
import io.privmat.strategy.StrategyService;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;

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
    private final PlanDocuments documents;
    private final FreePlanning gate;

    QueryService(DatasetService datasets, QueryPlans plans, BudgetService budget, JobService jobs,
            Admissions admissions, PlanDocuments documents, FreePlanning gate) {
        this.gate = gate;
        this.datasets = datasets;
        this.plans = plans;
        this.budget = budget;
        this.jobs = jobs;
        this.admissions = admissions;
        this.documents = documents;
    }

    /**
     * A submitted job, and whether it is an idempotent replay of an earlier submission or an earlier
     * DONE job answering a {@code reuse} request again (nothing admitted, nothing charged).
     */
    public record Submission(Job job, boolean replayed, boolean reused) {

        Submission(Job job, boolean replayed) {
            this(job, replayed, false);
        }
    }

    /** The cost of a query and the budget before and after it; charges nothing. */
    public record Quote(Plan plan, String accounting, Tracks cost, boolean admissible, Tracks remaining,
            @Nullable Tracks remainingAfter, java.math.@Nullable BigDecimal largestPureEpsilonAfter,
            java.util.List<ErrorStatement> expectedError,
            java.util.List<NoiseWarning> warnings, Limit limit, Tracks limitRemaining) {}

    public Quote quote(UUID datasetId, QueryRequest request, Caller caller) {
        Dataset dataset = datasets.visible(datasetId, caller);
        Plan plan = plans.plan(dataset, request, caller);
        BudgetService.Price price = budget.price(datasetId, dataset.budget(), plan.chargedLoss(), caller.subject());
        return new Quote(plan, dataset.budget().mode().name(), price.cost(), price.admissible(), price.remaining(),
                price.remainingAfter(), price.largestPureEpsilonAfter(), plans.catalog().expectedError(plan),
                plans.catalog().warnings(plan), price.limit(), price.limitRemaining());
    }

    /** One mechanism's smallest budget for a target, priced on the dataset's tracks (null cost: unreachable). */
    public record Priced(InverseQuote.Answer answer, @Nullable Tracks cost, boolean admissible,
            @Nullable Tracks remainingAfter, @Nullable Double shareOfBudget,
            java.util.List<NoiseWarning> warnings) {}

    /** A mechanism of the kind whose quote cannot answer the target here, and why. */
    public record NotComparable(String mechanism, String reason) {}

    /**
     * An inverse quote: the requested mechanism's smallest budget for the target, the same for the
     * other mechanisms of the kind that can read this dataset, and the one of them needing the least
     * share of the dataset's budget.
     */
    public record Inverse(String accounting, Tracks remaining, Priced requested, java.util.List<Priced> alternatives,
            java.util.List<NotComparable> notComparable, @Nullable String cheapest) {}

    /**
     * The smallest budget meeting {@code target} (docs/accuracy/inverse-quote.md); charges nothing,
     * plans only. The request's epsilon or rho is what is searched, so it must be absent; its delta
     * stays fixed.
     */
    public Inverse inverseQuote(UUID datasetId, QueryRequest query, InverseQuote.Target target, Caller caller) {
        if (query.epsilon() != null || query.rho() != null) {
            String field = query.rho() != null ? "query.rho" : "query.epsilon";
            throw PrivmatException.invalidParameter(field, "absent", field + " is what the inverse quote finds: give "
                    + "only delta (kept fixed while epsilon is searched), or no budget field at all");
        }
        Dataset dataset = datasets.visible(datasetId, caller);
        try (FreePlanning.Permit permit = gate.enter("the inverse quote", caller)) {
            return inverseQuote(dataset, query, target, caller, permit.planLimit());
        }
    }

    /**
     * The requested search first, then the alternatives while the request's plan limit lasts (those
     * left are listed as not priced).
     */
    Inverse inverseQuote(Dataset dataset, QueryRequest query, InverseQuote.Target target, Caller caller,
            PlanLimit limit) {
        BudgetFilter filter = dataset.budget().filter();
        BudgetAccount account = budget.account(dataset.id(), dataset.budget());
        BudgetService.Limits limits = budget.limits(dataset.id(), dataset.budget(), caller.subject());
        Priced requested;
        try {
            requested = price(plans.inverse(dataset, query.mechanism(), query, target, true, caller, limit), filter, account,
                    limits);
        } catch (PlanLimit.Exhausted e) {
            throw FreePlanning.outOfTime("inverse quote");
        }
        PublicFacts facts = QueryPlans.facts(dataset);
        java.util.List<Priced> alternatives = new java.util.ArrayList<>();
        java.util.List<NotComparable> notComparable = new java.util.ArrayList<>();
        for (MechanismDefinition m : plans.catalog().forKind(
                requested.answer().plan().spec().kind())) {
            if (m.name().equals(requested.answer().mechanism()) || !m.shapes().contains(facts.shape())
                    || !m.relations().contains(facts.relation()) || facts.ratings() != null
                    && !m.ratingsRelations().contains(facts.ratings().relation())) {
                continue;
            }
            if (limit.exhausted()) {
                notComparable.add(new NotComparable(m.name(), "not priced: " + limit.describe() + " was reached"));
                continue;
            }
            // The same question: the request's parameters this mechanism takes, its delta where it takes one.
            RequestParams params = query.params() == null ? null
                    : query.params().only(m.params().stream().map(Param::name).toList());
            java.math.BigDecimal delta = m.budgetForm() == QueryBudget.Form.PURE_EPSILON ? null
                    : query.delta();
            QueryRequest same = new QueryRequest(query.kind(), m.name(), null, delta, null, params);
            try {
                alternatives.add(price(plans.inverse(dataset, m.name(), same, target, false, caller, limit), filter, account,
                        limits));
            } catch (PrivmatException | PrivacyArgumentException e) {
                // PrivacyArgumentException: its largest budget is still too small a privacy loss for its calibration.
                notComparable.add(new NotComparable(m.name(), e.getMessage()));
            } catch (PlanLimit.Exhausted e) {
                notComparable.add(new NotComparable(m.name(), "not priced: " + e.getMessage() + " was reached"));
            }
        }
        String cheapest = java.util.stream.Stream.concat(java.util.stream.Stream.of(requested), alternatives.stream())
                .filter(p -> p.shareOfBudget() != null)
                .min(java.util.Comparator.comparingDouble(Priced::shareOfBudget))
                .map(p -> p.answer().mechanism()).orElse(null);
        return new Inverse(dataset.budget().mode().name(), filter.remaining(account.spent()), requested, alternatives,
                notComparable, cheapest);
    }

    private Priced price(InverseQuote.Answer answer, BudgetFilter filter, BudgetAccount account,
            BudgetService.Limits limits) {
        if (!answer.reachable()) {
            return new Priced(answer, null, false, null, null, java.util.List.of());
        }
        Tracks cost = filter.cost(answer.plan().chargedLoss());
        boolean admissible = limits.admits(cost);
        return new Priced(answer, cost, admissible, admissible ? filter.remaining(account.spent().plus(cost)) : null,
                share(cost, filter.capacity()), plans.catalog().warnings(answer.plan()));
    }

    /** The largest fraction of a track's total the cost takes (the tracks the dataset's accounting uses). */
    static double share(Tracks cost, Tracks capacity) {
        double share = 0;
        java.math.BigDecimal[][] pairs = {{cost.rho(), capacity.rho()}, {cost.epsilon(), capacity.epsilon()},
                {cost.delta(), capacity.delta()}};
        for (java.math.BigDecimal[] p : pairs) {
            if (p[1].signum() > 0) {
                share = Math.max(share, p[0].doubleValue() / p[1].doubleValue());
            }
        }
        return share;
    }

    /**
     * Starts computing the public strategy of a LINEAR_QUERIES request (a mechanism that needs one)
     * on a dataset the caller sees; reads no data and charges nothing.
     */
    public StrategyService.View startStrategy(UUID datasetId, QueryRequest request, Caller caller,
            StrategyService strategies) {
        Dataset dataset = datasets.visible(datasetId, caller);
        return strategies.start(plans.strategyTask(dataset, request, caller), caller);
    }

    public Submission submit(UUID datasetId, QueryRequest request, @Nullable String idempotencyKey, Caller who) {
        Dataset dataset = datasets.visible(datasetId, who);
        String caller = who.subject();
        Plan plan = plans.plan(dataset, request, who);
        PlanDocuments.Written written = documents.write(plan);
        if (idempotencyKey != null) {
            Optional<Job> existing = jobs.findByIdempotencyKey(datasetId, caller, idempotencyKey);
            if (existing.isPresent()) {
                return replay(existing.get(), written, caller);
            }
        }
        if (request.reuseRequested() && dataset.kind() != DatasetKind.EXTERNAL) {
            // docs/accounting.md, "Repeat answers": decided from the request hash, the dataset's data
            // version and job states only; an external source changes without privmat knowing.
            Optional<Job> earlier = jobs.findReusable(datasetId, written.requestHash(), who);
            if (earlier.isPresent()) {
                return new Submission(earlier.get(), false, true);
            }
        }
        UUID jobId = UUID.randomUUID();
        String parametersJson = written.specJson();
        String lossJson = written.lossJson();
        Admissions.Pending pending = new Admissions.Pending(new Reservation(datasetId, dataset.budget(), jobId,
                plan.spec().kind().name(), plan.spec().mechanism(), parametersJson, plan.chargedLoss(), lossJson, caller),
                new NewJob(jobId, datasetId, dataset.owner(), plan.spec().kind().name(), plan.spec().mechanism(),
                        parametersJson, written.requestHash(), idempotencyKey, caller, lossJson, Tracks.ZERO));
        if (idempotencyKey == null) {
            return new Submission(admissions.admit(pending), false);
        }
        try {
            return new Submission(admissions.admitAlone(pending), false);
        } catch (DuplicateKeyException race) {
            // A concurrent submission with the same key won; its transaction holds the only charge.
            Job winner = jobs.findByIdempotencyKey(datasetId, caller, idempotencyKey).orElseThrow(() -> race);
            return replay(winner, written, caller);
        }
    }

    /** Keys are scoped to (dataset, submitter), so a replay never sees another caller's job. */
    private static Submission replay(Job job, PlanDocuments.Written request, String caller) {
        if (!request.sameRequest(job.requestHash())) {
            throw new PrivmatException(ProblemType.IDEMPOTENCY_KEY_REUSED, "This Idempotency-Key was used for a "
                    + "different request on this dataset; use a new key.", Map.of("jobId", job.id().toString()));
        }
        return new Submission(job, true);
    }
}
