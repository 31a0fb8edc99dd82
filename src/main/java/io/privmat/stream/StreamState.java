package io.privmat.stream;

import io.privmat.mechanism.window.StreamBlocks;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A stream's persisted shared state: the block counter, the open block's exact packed Gram (secret)
 * and row count (private under TIME), the pending TIME block if any (rows of a later block that
 * arrived before the open block was released), the owner's counts, and the time of the last
 * append's event.
 */
public record StreamState(UUID datasetId, Instant startedAt, long completedBlocks, long openRows, double[] openBlock,
        StreamBlocks.@Nullable Pending pending, long appendedRows, long clippedRows, @Nullable Instant lastEventAt) {}
