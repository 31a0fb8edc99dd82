package io.privmat.ledger;

import io.privmat.privacy.Budget;
import io.privmat.privacy.PrivacyLoss;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What a reservation records: the job, the public description of the query and its exact loss.
 *
 * @param parametersJson the query's public parameters as JSON
 * @param lossJson the privacy loss as JSON (notion and parameters)
 * @param period the period of a periodic budget the charge pays for (docs/accounting.md, "Budgets
 *     that renew per period"), or null for a charge on a budget that does not renew
 */
public record Reservation(UUID datasetId, Budget budget, UUID jobId, String kind, String mechanism,
        String parametersJson, PrivacyLoss loss, String lossJson, String caller, @Nullable Long period) {

    /** A charge on a budget that does not renew. */
    public Reservation(UUID datasetId, Budget budget, UUID jobId, String kind, String mechanism, String parametersJson,
            PrivacyLoss loss, String lossJson, String caller) {
        this(datasetId, budget, jobId, kind, mechanism, parametersJson, loss, lossJson, caller, null);
    }
}
