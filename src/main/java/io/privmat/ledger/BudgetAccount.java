package io.privmat.ledger;

import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Tracks;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A dataset's account: caps, committed charges and outstanding reservations.
 *
 * @param period the current period of a budget that renews per period (committed and reserved are
 *     that period's; docs/accounting.md, "Budgets that renew per period"), or null
 */
public record BudgetAccount(UUID datasetId, AccountingMode mode, Tracks capacity, Tracks committed, Tracks reserved,
        @Nullable Long period) {

    /**
     * What admission counts as spent for a charge to {@code chargedPeriod} (null: not periodic): a
     * later period than the account's has spent nothing yet (the account rolls when it is charged).
     */
    public Tracks spentIn(@Nullable Long chargedPeriod) {
        return chargedPeriod != null && (period == null || chargedPeriod > period) ? Tracks.ZERO : spent();
    }

    /** Committed plus reserved: what admission counts as spent. */
    public Tracks spent() {
        return committed.plus(reserved);
    }
}
