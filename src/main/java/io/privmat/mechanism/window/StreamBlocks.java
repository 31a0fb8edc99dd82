package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.BlockRule;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.linalg.GramAccumulator;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The block structure of one stream, shared by every mechanism that releases from it: the exact
 * (secret) Gram of the open block, its row count, and the number of blocks completed so far. Rows
 * (or edges) are validated whole, clipped to B and added to the open block; under
 * {@link BlockRule#ROW_COUNT} a block completes when it holds b rows, under {@link BlockRule#TIME}
 * when the caller closes it ({@link #closeBlock()}) at the end of its public time interval.
 *
 * <p><b>Time blocks: a pending block.</b> Under TIME a row belongs to the block of its event time,
 * and only the caller's clock closes blocks. A block whose end has passed may not be closed yet
 * (the closer runs on a schedule) while rows with later event times arrive: they go into one
 * <em>pending</em> block at their own index ({@link #appendRowsAt}), which becomes the open block
 * when the blocks before it close (the ones in between are empty). At most one pending block is
 * kept: rows for a third block wait until the open block has closed ({@link #accepts}). Each completed block is handed back as a
 * {@link Block} — its exact Gram — for the caller to release through every mechanism that reads the
 * stream ({@link WindowMechanism#release} on a state {@link WindowState#withOpenBlock with that
 * block}).
 *
 * <p>Several standing queries on one stream all use the stream's block structure: the blocks are
 * a function of the public declaration and the order of the appends, never of the subscriptions.
 * A subscription that starts mid-stream starts with the block that is open at that moment.
 *
 * <p><b>Appends are all-or-nothing.</b> A batch is checked whole before anything is added (width,
 * finite values; vertex ids and weights in [0, 1] for edges; room before the horizon), so a refused
 * batch leaves the state as it was. Not thread-safe: one writer per stream.
 */
public final class StreamBlocks {

    /** Below this many rows per block segment, rank-one updates of the packed block; else BLAS dsyrk. */
    private static final int BLAS_ROWS = 32;

    /**
     * One completed block: its index in the stream, its row count (private under TIME) and its exact
     * packed Gram (secret: never shown, only released through a mechanism).
     */
    public record Block(long index, long rows, double[] packedGram) {}

    /** The blocks an append completed, in order, and how many of its rows were clipped to B. */
    public record Appended(List<Block> completed, long clippedRows) {}

    /** A TIME block after the open one that already holds rows: its index, row count and exact packed Gram. */
    public record Pending(long index, long rows, double[] packedGram) {}

    private final WindowParameters parameters;
    private long completedBlocks;
    private long openRows;
    private double[] open;
    private @Nullable Pending pending;

    private StreamBlocks(WindowParameters parameters, long completedBlocks, long openRows, double[] open,
            @Nullable Pending pending) {
        if (completedBlocks < 0 || openRows < 0) {
            throw new IllegalArgumentException("counters must be >= 0");
        }
        if (open.length != parameters.packedSize()) {
            throw new IllegalArgumentException("the open block must have " + parameters.packedSize() + " entries");
        }
        if (parameters.blockRule() == BlockRule.ROW_COUNT && openRows >= parameters.blockRows()) {
            throw new IllegalArgumentException("an open ROW_COUNT block holds fewer than " + parameters.blockRows()
                    + " rows");
        }
        if (pending != null && (parameters.blockRule() != BlockRule.TIME || pending.index() <= completedBlocks
                || pending.index() >= parameters.horizonBlocks() || pending.rows() < 0
                || pending.packedGram().length != parameters.packedSize())) {
            throw new IllegalArgumentException("a pending block is a TIME block after the open one, within the horizon");
        }
        this.parameters = parameters;
        this.completedBlocks = completedBlocks;
        this.openRows = openRows;
        this.open = open;
        this.pending = pending;
    }

    /** A new stream: nothing completed, an empty open block. */
    public static StreamBlocks start(WindowParameters parameters) {
        return new StreamBlocks(parameters, 0, 0, new double[parameters.packedSize()], null);
    }

    /** Continues a stream from its persisted counters and open block (the array is copied). */
    public static StreamBlocks resume(WindowParameters parameters, long completedBlocks, long openRows,
            double[] openBlock) {
        return resume(parameters, completedBlocks, openRows, openBlock, null);
    }

    /** Continues a TIME stream that may also hold a pending block (arrays copied). */
    public static StreamBlocks resume(WindowParameters parameters, long completedBlocks, long openRows,
            double[] openBlock, @Nullable Pending pending) {
        return new StreamBlocks(parameters, completedBlocks, openRows, openBlock.clone(), pending == null ? null
                : new Pending(pending.index(), pending.rows(), pending.packedGram().clone()));
    }

    public WindowParameters parameters() {
        return parameters;
    }

    /** Blocks completed so far: the index of the open block. */
    public long completedBlocks() {
        return completedBlocks;
    }

    /** Rows (edge events) in the open block; private under TIME. */
    public long openRows() {
        return openRows;
    }

    /** A copy of the open block's exact packed Gram (secret). */
    public double[] openBlock() {
        return open.clone();
    }

    /** The pending TIME block (a copy), or null. */
    public @Nullable Pending pending() {
        return pending == null ? null : new Pending(pending.index(), pending.rows(), pending.packedGram().clone());
    }

    /**
     * Whether rows of TIME block {@code block} can be added now: the open block, the pending one, or
     * a new pending block when there is none; never a closed block or one past the horizon. False
     * under ROW_COUNT, whose rows take the next slots whatever their time.
     */
    public boolean accepts(long block) {
        return parameters.blockRule() == BlockRule.TIME && block >= completedBlocks
                && block < parameters.horizonBlocks()
                && (block == completedBlocks || pending == null || block == pending.index());
    }

    /** True once the horizon's last block has completed: nothing more can be appended or closed. */
    public boolean exhausted() {
        return completedBlocks >= parameters.horizonBlocks();
    }

    /**
     * Appends {@code count} rows given row-major in {@code rows} (count·d values).
     *
     * @throws InvalidStreamInputException on a wrong width, a non-finite value, an edge stream, or
     *     more rows than the horizon leaves room for; nothing is appended then
     * @throws HorizonExhaustedException if the stream's last block has completed
     */
    public Appended appendRows(double[] rows, int count) {
        return appendRows(latest(), rows, count);
    }

    /**
     * Appends {@code count} rows to TIME block {@code block} (see {@link #accepts}).
     *
     * @throws InvalidStreamInputException as {@link #appendRows(double[], int)}
     * @throws IllegalStateException if the block does not take rows now ({@link #accepts} is false)
     */
    public Appended appendRowsAt(long block, double[] rows, int count) {
        requireAccepts(block);
        return appendRows(block, rows, count);
    }

    /** The newest block rows can join without a time: the pending block if any, else the open one. */
    private long latest() {
        return pending != null ? pending.index() : completedBlocks;
    }

    private void requireAccepts(long block) {
        if (exhausted()) {
            throw horizon();
        }
        if (!accepts(block)) {
            throw new IllegalStateException("block " + block + " does not take rows now (open block "
                    + completedBlocks + (pending == null ? "" : ", pending block " + pending.index()) + ")");
        }
    }

    private Appended appendRows(long target, double[] rows, int count) {
        if (parameters.graph()) {
            throw new InvalidStreamInputException(-1, "a graph stream takes edges, not rows");
        }
        int d = parameters.d();
        if (count < 0 || rows.length != (long) count * d) {
            throw new InvalidStreamInputException(-1, "expected " + count + " rows of width " + d + " ("
                    + (long) count * d + " values) but got " + rows.length + " values");
        }
        requireRoom(count);
        for (int r = 0; r < count; r++) {
            for (int c = 0; c < d; c++) {
                if (!Double.isFinite(rows[r * d + c])) {
                    throw new InvalidStreamInputException(r, "column " + c + " is not a finite number");
                }
            }
        }
        double[] clipped = rows.clone();
        long clippedRows = 0;
        for (int r = 0; r < count; r++) {
            clippedRows += clip(clipped, r * d, d, parameters.rowBound()) ? 1 : 0;
        }
        if (parameters.blockRule() == BlockRule.TIME) {
            double[] block = target == completedBlocks ? open.clone() : pendingOrEmpty(target);
            addRows(block, clipped, 0, count, d);
            place(target, count, block);
            return new Appended(List.of(), clippedRows);
        }
        List<Block> completed = new ArrayList<>();
        double[] block = open.clone();
        long blockRows = openRows;
        long index = completedBlocks;
        int next = 0;
        while (next < count) {
            int take = count - next;
            if (parameters.blockRule() == BlockRule.ROW_COUNT) {
                take = (int) Math.min(take, parameters.blockRows() - blockRows);
            }
            addRows(block, clipped, next, take, d);
            blockRows += take;
            next += take;
            if (parameters.blockRule() == BlockRule.ROW_COUNT && blockRows == parameters.blockRows()) {
                completed.add(new Block(index++, blockRows, block));
                block = new double[parameters.packedSize()];
                blockRows = 0;
            }
        }
        open = block;
        openRows = blockRows;
        completedBlocks = index;
        return new Appended(List.copyOf(completed), clippedRows);
    }

    /**
     * Appends edge events {uᵢ, vᵢ} of weight wᵢ ∈ [0, 1] (a graph stream): the row √wᵢ(e_u − e_v),
     * whose Gram term adds wᵢ to L[u][u] and L[v][v] and subtracts it from L[u][v]. An event is a
     * privacy unit; the same pair may occur in several events.
     *
     * @throws InvalidStreamInputException on lengths that differ, a vertex outside [0, d), a
     *     self-loop, a weight outside [0, 1] (or NaN), a matrix stream, or too many edges for the
     *     horizon; nothing is appended then
     * @throws HorizonExhaustedException if the stream's last block has completed
     */
    public Appended appendEdges(int[] u, int[] v, double[] weight) {
        return appendEdges(latest(), u, v, weight);
    }

    /**
     * Appends edge events to TIME block {@code block} (see {@link #accepts}).
     *
     * @throws InvalidStreamInputException as {@link #appendEdges(int[], int[], double[])}
     * @throws IllegalStateException if the block does not take rows now ({@link #accepts} is false)
     */
    public Appended appendEdgesAt(long block, int[] u, int[] v, double[] weight) {
        requireAccepts(block);
        return appendEdges(block, u, v, weight);
    }

    private Appended appendEdges(long target, int[] u, int[] v, double[] weight) {
        if (!parameters.graph()) {
            throw new InvalidStreamInputException(-1, "a matrix stream takes rows, not edges");
        }
        int count = u.length;
        if (v.length != count || weight.length != count) {
            throw new InvalidStreamInputException(-1, "u, v and weight must have the same length");
        }
        requireRoom(count);
        int n = parameters.d();
        for (int e = 0; e < count; e++) {
            if (u[e] < 0 || u[e] >= n || v[e] < 0 || v[e] >= n) {
                throw new InvalidStreamInputException(e, "vertex ids must lie in [0, " + n + ")");
            }
            if (u[e] == v[e]) {
                throw new InvalidStreamInputException(e, "self-loops are not allowed");
            }
            if (!(weight[e] >= 0 && weight[e] <= 1)) {
                throw new InvalidStreamInputException(e, "edge weights must lie in [0, 1]");
            }
        }
        if (parameters.blockRule() == BlockRule.TIME) {
            double[] block = target == completedBlocks ? open.clone() : pendingOrEmpty(target);
            for (int e = 0; e < count; e++) {
                addEdge(block, u[e], v[e], weight[e], n);
            }
            place(target, count, block);
            return new Appended(List.of(), 0);
        }
        List<Block> completed = new ArrayList<>();
        double[] block = open.clone();
        long blockRows = openRows;
        long index = completedBlocks;
        for (int e = 0; e < count; e++) {
            addEdge(block, u[e], v[e], weight[e], n);
            blockRows++;
            if (parameters.blockRule() == BlockRule.ROW_COUNT && blockRows == parameters.blockRows()) {
                completed.add(new Block(index++, blockRows, block));
                block = new double[parameters.packedSize()];
                blockRows = 0;
            }
        }
        open = block;
        openRows = blockRows;
        completedBlocks = index;
        return new Appended(List.copyOf(completed), 0);
    }

    /** The edge's Laplacian term w·(e_u − e_v)(e_u − e_v)ᵀ added to a packed block. */
    private static void addEdge(double[] block, int u, int v, double w, int n) {
        int a = Math.min(u, v);
        int b = Math.max(u, v);
        block[Packed.index(a, a, n)] += w;
        block[Packed.index(b, b, n)] += w;
        block[Packed.index(a, b, n)] -= w;
    }

    /** A copy of the pending block's Gram if it is {@code index}, else a new empty block. */
    private double[] pendingOrEmpty(long index) {
        return pending != null && pending.index() == index ? pending.packedGram().clone()
                : new double[parameters.packedSize()];
    }

    /** Stores a TIME block that gained {@code count} rows: the open block or the pending one. */
    private void place(long index, long count, double[] block) {
        if (index == completedBlocks) {
            open = block;
            openRows += count;
        } else {
            long before = pending != null && pending.index() == index ? pending.rows() : 0;
            pending = new Pending(index, before + count, block);
        }
    }

    /**
     * Completes the open block of a {@link BlockRule#TIME} stream at the end of its public time
     * interval (an empty interval completes a block of zeros, which is released like any other).
     * The pending block, when it is the next one, becomes the open block.
     *
     * @throws IllegalStateException under ROW_COUNT, where blocks complete by themselves
     * @throws HorizonExhaustedException past the horizon
     */
    public Block closeBlock() {
        if (parameters.blockRule() != BlockRule.TIME) {
            throw new IllegalStateException("ROW_COUNT blocks close when they hold " + parameters.blockRows() + " rows");
        }
        if (exhausted()) {
            throw horizon();
        }
        Block block = new Block(completedBlocks, openRows, open);
        completedBlocks++;
        if (pending != null && pending.index() == completedBlocks) {
            open = pending.packedGram();
            openRows = pending.rows();
            pending = null;
        } else {
            open = new double[parameters.packedSize()];
            openRows = 0;
        }
        return block;
    }

    private HorizonExhaustedException horizon() {
        return new HorizonExhaustedException("the stream's horizon of " + parameters.horizonBlocks()
                + " blocks is reached");
    }

    private void requireRoom(long count) {
        long left = parameters.horizonBlocks() - completedBlocks;
        if (left <= 0) {
            throw horizon();
        }
        if (parameters.blockRule() == BlockRule.ROW_COUNT) {
            long room = left > Long.MAX_VALUE / parameters.blockRows() ? Long.MAX_VALUE
                    : left * parameters.blockRows() - openRows;
            if (count > room) {
                throw new InvalidStreamInputException(-1, "only " + room + " more rows fit before the horizon of "
                        + parameters.horizonBlocks() + " blocks");
            }
        }
    }

    private static void addRows(double[] packed, double[] rows, int first, int count, int d) {
        if (count >= BLAS_ROWS) {
            GramAccumulator acc = new GramAccumulator(d);
            acc.addRows(rows, first * d, count);
            Packed.addUpper(packed, acc.result(), d);
        } else {
            for (int r = first; r < first + count; r++) {
                Packed.addOuter(packed, rows, r * d, d);
            }
        }
    }

    /** Scales the row down to L2 norm ≤ bound (as uploads do); true if it was longer. */
    static boolean clip(double[] x, int offset, int d, double bound) {
        double norm = norm(x, offset, d);
        if (norm <= bound) {
            return false;
        }
        double factor = bound / norm;
        for (int c = 0; c < d; c++) {
            x[offset + c] *= factor;
        }
        while (norm(x, offset, d) > bound) {
            for (int c = 0; c < d; c++) {
                x[offset + c] *= 1 - 0x1p-50;
            }
        }
        return true;
    }

    /** ‖x‖₂, scaled by the largest entry so that huge finite values do not overflow. */
    private static double norm(double[] x, int offset, int d) {
        double max = 0;
        for (int c = 0; c < d; c++) {
            max = Math.max(max, Math.abs(x[offset + c]));
        }
        if (max == 0) {
            return 0;
        }
        double s = 0;
        for (int c = 0; c < d; c++) {
            double v = x[offset + c] / max;
            s += v * v;
        }
        return max * Math.sqrt(s);
    }
}
