package io.privmat.fault;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetService;
import io.privmat.job.JobService;
import io.privmat.job.NewJob;
import io.privmat.ledger.BudgetService;
import io.privmat.ledger.Reservation;
import io.privmat.privacy.Tracks;
import io.privmat.privacy.Zcdp;
import java.util.UUID;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Admits a {@link FaultHandlers#KIND} job exactly as a query is admitted (reserve + enqueue in one
 * transaction): a job whose duration the fault tests control, charged ρ = 1e-4.
 */
public final class FaultJobs {

    public static final String LOSS_JSON = "{\"notion\":\"zCDP\",\"rho\":0.0001}";

    private final DatasetService datasets;
    private final BudgetService budget;
    private final JobService jobs;
    private final TransactionTemplate tx;

    public FaultJobs(DatasetService datasets, BudgetService budget, JobService jobs, TransactionTemplate tx) {
        this.datasets = datasets;
        this.budget = budget;
        this.jobs = jobs;
        this.tx = tx;
    }

    /**
     * @param parametersJson the handler's instructions, e.g. {@code {"runMillis": 2000}},
     *     {@code {"verifyMillis": 3000}}, {@code {"latch": true}} (run until {@link FaultHandlers#release})
     *     or {@code {"runMillisAfterStop": 1500}} (run until the worker pool stops, then 1.5 s)
     */
    public UUID enqueue(UUID datasetId, String caller, String parametersJson) {
        Dataset dataset = datasets.get(datasetId);
        UUID id = UUID.randomUUID();
        tx.executeWithoutResult(s -> {
            Tracks cost = budget.reserve(new Reservation(datasetId, dataset.budget(), id, FaultHandlers.KIND, "TEST",
                    parametersJson, Zcdp.of(1e-4), LOSS_JSON, caller));
            jobs.enqueue(new NewJob(id, datasetId, dataset.owner(), FaultHandlers.KIND, "TEST", parametersJson,
                    "fault-" + id, null, caller, LOSS_JSON, cost));
        });
        return id;
    }
}
