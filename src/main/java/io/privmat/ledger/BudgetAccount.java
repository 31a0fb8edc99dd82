package io.privmat.ledger;

import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Tracks;
import java.util.UUID;

/** A dataset's account: caps, committed charges and outstanding reservations. */
public record BudgetAccount(UUID datasetId, AccountingMode mode, Tracks capacity, Tracks committed, Tracks reserved) {

    /** Committed plus reserved: what admission counts as spent. */
    public Tracks spent() {
        return committed.plus(reserved);
    }
}
