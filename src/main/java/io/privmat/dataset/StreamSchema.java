package io.privmat.dataset;

import io.privmat.mechanism.catalog.BlockRule;

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
 */
public record StreamSchema(int d, boolean graph, BlockRule blockRule, int blockRows, long blockSeconds,
        int windowBlocks, long horizonBlocks) implements DatasetSchema {

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

    public StreamSchema {
        if (blockRule == BlockRule.ROW_COUNT ? blockRows < 1 || blockSeconds != 0 : blockRows != 0 || blockSeconds < 1) {
            throw new IllegalArgumentException("ROW_COUNT streams declare blockRows, TIME streams blockSeconds");
        }
    }

    /** W = w·b rows in a full window under ROW_COUNT; null under TIME (the count is private). */
    public Long windowRows() {
        return blockRule == BlockRule.ROW_COUNT ? (long) windowBlocks * blockRows : null;
    }
}
