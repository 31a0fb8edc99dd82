package io.privmat.query;

import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PublicArtifacts;
import io.privmat.mechanism.catalog.ComputeBudget;
import io.privmat.problem.PrivmatException;
import io.privmat.query.workload.WorkloadRecord;
import io.privmat.query.workload.WorkloadService;
import io.privmat.security.Caller;
import io.privmat.strategy.StrategyService;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The public artifacts a plan needs, resolved from the service's stores: stored workloads
 * ({@link WorkloadService}) and cached strategies ({@link StrategyService}). Neither reads a dataset.
 * A request (with its caller, whose quotas its free computations count against) is told 409 while a
 * large strategy is computed; a worker rebuilding a stored plan (no caller: the job is paid for)
 * waits for it, or computes it. Both under the service's compute budget.
 */
final class ServiceArtifacts implements PublicArtifacts {

    private final WorkloadService workloads;
    private final StrategyService strategies;
    private final @Nullable Caller caller;

    /**
     * @param caller the request's caller, or null for a worker rebuilding a stored plan
     */
    ServiceArtifacts(WorkloadService workloads, StrategyService strategies, @Nullable Caller caller) {
        this.workloads = workloads;
        this.strategies = strategies;
        this.caller = caller;
    }

    @Override
    public ComputeBudget strategyBudget() {
        return strategies.budget();
    }

    @Override
    public StoredWorkload workload(String id) {
        WorkloadRecord w;
        double[] values;
        try {
            UUID uuid = UUID.fromString(id);
            w = workloads.get(uuid);
            values = workloads.values(uuid);
        } catch (PrivmatException | IllegalArgumentException | org.springframework.dao.DataAccessException e) {
            throw PlanningException.invalid("params.workload.id", "the id of a stored workload", "there is no workload "
                    + id + " (it may have been deleted)");
        }
        return new StoredWorkload(w.id().toString(), w.rows(), w.cols(), w.sha256(), values);
    }

    @Override
    public byte[] strategy(StrategyTask task) {
        return strategies.resolve(task, caller);
    }
}
