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
 * @param completedBlocks its releases so far
 */
public record Subscription(UUID id, UUID datasetId, UUID jobId, String caller, String kind, String mechanism,
        String spec, String loss, SubscriptionState state, long firstBlock, long completedBlocks, Instant createdAt,
        @Nullable Instant cancelledAt, @Nullable String errorCode) {}
