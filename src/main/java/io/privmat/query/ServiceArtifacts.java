package io.privmat.query;

import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PublicArtifacts;
import io.privmat.problem.PrivmatException;
import io.privmat.strategy.StrategyService;
import java.util.UUID;

/**
 * The public artifacts a plan needs, resolved from the service's stores: stored workloads
 * ({@link WorkloadService}) and cached strategies ({@link StrategyService}). Neither reads a dataset.
 * A request ({@code rebuild} false) is told 409 while a large strategy is computed; a worker
 * rebuilding a stored plan ({@code rebuild} true) waits for it, or computes it.
 */
final class ServiceArtifacts implements PublicArtifacts {

    private final WorkloadService workloads;
    private final StrategyService strategies;
    private final boolean rebuild;

    ServiceArtifacts(WorkloadService workloads, StrategyService strategies, boolean rebuild) {
        this.workloads = workloads;
        this.strategies = strategies;
        this.rebuild = rebuild;
    }

    @Override
    public StoredWorkload workload(String id) {
        Workload w;
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
        return strategies.resolve(task, rebuild);
    }
}
