package io.privmat.ledger;

import io.privmat.privacy.Budget;
import io.privmat.privacy.PrivacyLoss;
import java.util.UUID;

/**
 * What a reservation records: the job, the public description of the query and its exact loss.
 *
 * @param parametersJson the query's public parameters as JSON
 * @param lossJson the privacy loss as JSON (notion and parameters)
 */
public record Reservation(UUID datasetId, Budget budget, UUID jobId, String kind, String mechanism,
        String parametersJson, PrivacyLoss loss, String lossJson, String caller) {}
