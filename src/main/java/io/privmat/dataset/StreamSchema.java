package io.privmat.dataset;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.privmat.mechanism.catalog.BlockRule;
import org.jspecify.annotations.Nullable;

/**
 * A stream's declared block structure, public and fixed at creation: rows of {@code d} values (or
 * weighted edge events on {@code d} declared vertices), blocks of {@code blockRows} rows or of
 * {@code blockSeconds} seconds from the stream's start, a window of {@code windowBlocks} completed
 * blocks and a horizon of {@code horizonBlocks} blocks, after which the stream takes no more rows.
 * Every noise scale and cost of a subscription on the stream is a function of this, d, B and the
 * neighbouring relation (docs/mechanisms/windows.md).
 *
 * @param blockRows b under ROW_COUNT, 0 under TIME
 * @param blockSeconds the block length under TIME, 0 under ROW_COUNT
 * @param periodBlocks P when the stream's budget renews per period of P blocks (period k is blocks
 *     [kP, (k+1)P); docs/accounting.md, "Budgets that renew per period"), null when it does not
 *     (absent from the stored document then, as before it existed)
 */
public record StreamSchema(int d, boolean graph, BlockRule blockRule, int blockRows, long blockSeconds,
        int windowBlocks, long horizonBlocks, @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Long periodBlocks)
        implements DatasetSchema {

    /** Largest row width (or vertex count) of a stream: the window mechanisms hold d×d matrices. */
    public static final int MAX_D = 5000;
    /** Largest window, in blocks. */
    public static final int MAX_WINDOW_BLOCKS = 1 << 20;
    /** Largest block, in rows. */
    public static final int MAX_BLOCK_ROWS = 1 << 30;
    /** Longest time block: one year. */
    public static final long MAX_BLOCK_SECONDS = 366L * 24 * 3600;
    /** Largest horizon, in blocks. */
    public static final long MAX_HORIZON_BLOCKS = 1L << 40;
    /** Longest period of a renewing budget, in blocks. */
    public static final long MAX_PERIOD_BLOCKS = 1_000_000_000L;

    public StreamSchema {
        if (blockRule == BlockRule.ROW_COUNT ? blockRows < 1 || blockSeconds != 0 : blockRows != 0 || blockSeconds < 1) {
            throw new IllegalArgumentException("ROW_COUNT streams declare blockRows, TIME streams blockSeconds");
        }
        if (periodBlocks != null && (periodBlocks < 1 || periodBlocks > MAX_PERIOD_BLOCKS)) {
            throw new IllegalArgumentException("periodBlocks must be in [1, " + MAX_PERIOD_BLOCKS + "]");
        }
    }

    /** A stream whose budget does not renew. */
    public StreamSchema(int d, boolean graph, BlockRule blockRule, int blockRows, long blockSeconds, int windowBlocks,
            long horizonBlocks) {
        this(d, graph, blockRule, blockRows, blockSeconds, windowBlocks, horizonBlocks, null);
    }

    /** Whether the budget renews per period. */
    public boolean renews() {
        return periodBlocks != null;
    }

    /** The period of stream block {@code block}, ⌊block/P⌋; null when the budget does not renew. */
    public @Nullable Long periodOf(long block) {
        return periodBlocks == null ? null : Math.floorDiv(block, periodBlocks);
    }

    /** W = w·b rows in a full window under ROW_COUNT; null under TIME (the count is private). */
    public Long windowRows() {
        return blockRule == BlockRule.ROW_COUNT ? (long) windowBlocks * blockRows : null;
    }
}
