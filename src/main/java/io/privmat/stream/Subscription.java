package io.privmat.stream;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A standing query on a stream (its secret stream key is not part of this record: it is read only
 * where releases are computed).
 *
 * @param spec the canonical plan as JSON (what was charged)
 * @param loss the loss document as JSON (as run, and as charged)
 * @param firstBlock the stream block it started with (its block 0)
 * @param completedBlocks the stream blocks it has passed since its first: its releases, and on a
 *     stream whose budget renews per period the blocks of periods it was paused in (no release)
 * @param chargedPeriod on a stream whose budget renews per period (docs/accounting.md, "Budgets that
 *     renew per period"), the latest period it holds a committed charge for; else null
 * @param pausedPeriod the period whose charge was refused: it reads none of its blocks and is
 *     charged again at the first block of the next period; null when not paused
 * @param pausedLimit the limit that refused that charge (ALLOCATION, POOL or TOTAL), or null
 * @param runBlock the stream block its current state and stream key started with when it restarted
 *     after a pause; null when that is its first block
 */
public record Subscription(UUID id, UUID datasetId, UUID jobId, String caller, String kind, String mechanism,
        String spec, String loss, SubscriptionState state, long firstBlock, long completedBlocks, Instant createdAt,
        @Nullable Instant cancelledAt, @Nullable String errorCode, @Nullable Long chargedPeriod,
        @Nullable Long pausedPeriod, @Nullable String pausedLimit, @Nullable Long runBlock) {

    /** A subscription on a stream whose budget does not renew. */
    public Subscription(UUID id, UUID datasetId, UUID jobId, String caller, String kind, String mechanism, String spec,
            String loss, SubscriptionState state, long firstBlock, long completedBlocks, Instant createdAt,
            @Nullable Instant cancelledAt, @Nullable String errorCode) {
        this(id, datasetId, jobId, caller, kind, mechanism, spec, loss, state, firstBlock, completedBlocks, createdAt,
                cancelledAt, errorCode, null, null, null, null);
    }

    /**
     * Its own index of the stream block its current state started with: 0, or after a restart the
     * restart block's. Its releases' block indices are stream block − first block throughout, and its
     * mechanism's state counts from the start of the current run.
     */
    public long runOffset() {
        return runBlock == null ? 0 : runBlock - firstBlock;
    }

    /** The same subscription with these counters and period fields (the releaser's view within one transaction). */
    public Subscription with(long completed, @Nullable Long charged, @Nullable Long paused, @Nullable String limit,
            @Nullable Long run) {
        return new Subscription(id, datasetId, jobId, caller, kind, mechanism, spec, loss, state, firstBlock, completed,
                createdAt, cancelledAt, errorCode, charged, paused, limit, run);
    }
}
