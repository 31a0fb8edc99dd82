package io.privmat.ledger;

import io.privmat.privacy.Tracks;
import java.time.Instant;
import java.util.UUID;

/**
 * One subject's share of a dataset's budget (docs/accounting.md §10 "Allocations"): caps on the
 * account's own tracks, and what the subject has spent on them (committed plus reserved).
 */
public record Allocation(UUID datasetId, String subject, Tracks cap, Tracks spent, Instant updatedAt) {

    /** What the subject may still spend from its allocation (never negative). */
    public Tracks remaining() {
        return cap.minusFloor(spent);
    }
}
