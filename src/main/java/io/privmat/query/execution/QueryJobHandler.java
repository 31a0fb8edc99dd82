package io.privmat.query.execution;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.DatasetRows;
import io.privmat.dataset.DatasetService;
import io.privmat.dataset.EngineRun;
import io.privmat.dataset.ExternalEngine;
import io.privmat.dataset.ExternalSchema;
import io.privmat.job.Job;
import io.privmat.job.JobContext;
import io.privmat.job.JobHandler;
import io.privmat.job.JobOutput;
import io.privmat.job.PlanMismatchException;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.covariance.BinghamSampler;
import io.privmat.mechanism.linalg.NumericalFailureException;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.plan.PlanDocuments;
import io.privmat.query.QueryPlans;
import io.privmat.query.render.ResultDocuments;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * Runs every query job the same way: rebuild the mechanism from the job's stored spec, check that it
 * gives exactly the loss that was reserved (typed losses, before data access; {@link PlanDocuments}),
 * read the statistic it declares, and render its typed release ({@link ResultDocuments}).
 */
@Component
class QueryJobHandler implements JobHandler {

    private final DatasetService datasets;
    private final DatasetRows rows;
    private final QueryPlans plans;
    private final ResultDocuments results;
    private final PlanDocuments documents;
    /**
     * Plans verified for jobs about to run, so that exactly the checked instance runs. An entry is
     * removed by {@link #run} or, when the job never runs (cancelled, reaped or handed back to the
     * queue after verification), by {@link #discard}.
     */
    private final Map<UUID, Plan> verified = new ConcurrentHashMap<>();

    private final ObjectProvider<ExternalEngine> engines;

    QueryJobHandler(DatasetService datasets, DatasetRows rows, QueryPlans plans, ResultDocuments results,
            PlanDocuments documents, ObjectProvider<ExternalEngine> engines) {
        this.engines = engines;
        this.datasets = datasets;
        this.rows = rows;
        this.plans = plans;
        this.results = results;
        this.documents = documents;
    }

    @Override
    public String kind() {
        return QueryKind.COLUMN_SUMS.name();
    }

    @Override
    public Set<String> kinds() {
        return Set.copyOf(Arrays.stream(QueryKind.values()).map(Enum::name).toList());
    }

    @Override
    public void verify(Job job) {
        verified.put(job.id(), checked(job));
    }

    /** The job's plan, rebuilt from its stored spec and checked against its reserved loss and dataset. */
    private Plan checked(Job job) {
        Plan plan;
        try {
            plan = plans.rebuild(job.parameters());
        } catch (PlanningException e) {
            if (e.reason() == PlanningException.Reason.STRATEGY_FAILED) {
                // Free public work that did not finish (its time limit on this replica): before data access.
                throw new PlanMismatchException("job " + job.id() + ": " + e.getMessage(), "STRATEGY_FAILED",
                        e.getMessage() + " The job needs it before reading data; nothing was read.");
            }
            throw new PlanMismatchException("the stored plan of job " + job.id() + " does not rebuild: "
                    + e.getClass().getSimpleName());
        } catch (DataAccessException e) {
            throw e; // the database, not the stored plan: the job engine's own handling
        } catch (RuntimeException e) {
            // Whatever a stored spec that does not rebuild throws (before data access, so refunded):
            // a job never stays unfinished because its stored plan was edited.
            throw new PlanMismatchException("the stored plan of job " + job.id() + " does not rebuild: "
                    + e.getClass().getSimpleName());
        }
        if (!documents.chargeMatches(plan, job.loss())) {
            throw new PlanMismatchException("job " + job.id() + ": the rebuilt loss differs from the reserved one");
        }
        Dataset dataset = datasets.get(job.datasetId());
        if (!plan.spec().facts().equals(QueryPlans.facts(dataset))) {
            throw new PlanMismatchException("job " + job.id() + ": the dataset's public facts changed");
        }
        if (dataset.kind() == DatasetKind.EXTERNAL && engines.getIfAvailable() == null) {
            // Before data access, so the charge is refunded: this replica cannot read the rows.
            throw new PlanMismatchException("job " + job.id() + ": EXTERNAL dataset and no engine on this replica");
        }
        return plan;
    }

    @Override
    public void discard(Job job) {
        verified.remove(job.id());
    }

    /** Jobs verified and not yet run or discarded (tests). */
    int pendingVerified() {
        return verified.size();
    }

    @Override
    public JobOutput run(JobContext context) {
        Job job = context.job();
        Plan plan = verified.remove(job.id());
        if (plan == null) {
            plan = checked(job);
        }
        Dataset dataset = datasets.get(job.datasetId());
        // The statistic is read where the rows are; the noise is always added here, by the plan, with
        // the service's own sampler (an engine returns exact sums only: docs/scale-out.md).
        DataAccess access = dataset.schema() instanceof ExternalSchema external
                ? engines.getObject().open(dataset, external, plan.spec().facts(), engineRun(context))
                : new StoredDataAccess(dataset.id(), rows, context, plan.spec().facts());
        Release release = plan.release(access, NoiseSources.secure());
        context.progress(0.95);
        return results.render(job, dataset, plan, release);
    }

    /** A mechanism's own failure types, for the operators' metric (JobExecutor names none of them). */
    @Override
    public @Nullable String failureClass(Throwable t) {
        if (t instanceof BinghamSampler.SamplerFailureException) {
            return "sampler";
        }
        if (t instanceof NumericalFailureException) {
            return "numerical";
        }
        return null;
    }

    /** The job as an external engine sees it: its id and its progress. */
    private static EngineRun engineRun(JobContext context) {
        return new EngineRun() {
            @Override
            public UUID id() {
                return context.job().id();
            }

            @Override
            public void progress(double fraction) {
                context.progress(fraction);
            }
        };
    }
}
