package io.privmat.mechanism.window;

import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.noise.NoiseSources;
import java.util.ArrayList;
import java.util.List;

/**
 * Drives one stream: appends rows (or edges) to the open block, and releases each block as it
 * completes. Holds a {@link WindowMechanism}, the stream's secret key and the current
 * {@link WindowState}; not thread-safe (one writer per stream).
 *
 * <p><b>Appends are all-or-nothing.</b> A batch is validated whole before anything is added (width,
 * finite values; vertex ids and weights in [0, 1] for edges; room before the horizon), so a refused
 * batch leaves the state as it was. Rows longer than B are scaled down to B (as at upload) and
 * counted. Under {@link BlockRule#ROW_COUNT} a batch that fills blocks releases them in order; the
 * caller persists the resulting {@link #state()} and the releases together.
 *
 * <p><b>Restart.</b> Build a new stream from the persisted state and key
 * ({@link #resume}); every later release equals the one the original stream would have made.
 */
public final class WindowStream {

    /** Below this many rows per block segment, rank-one updates of the packed block; else BLAS dsyrk. */
    private static final int BLAS_ROWS = 32;

    private final WindowMechanism mechanism;
    private final WindowParameters parameters;
    private final byte[] key;
    private WindowState state;

    private WindowStream(WindowMechanism mechanism, byte[] key, WindowState state) {
        if (key.length != NoiseSources.STREAM_KEY_BYTES) {
            throw new IllegalArgumentException("a stream key has " + NoiseSources.STREAM_KEY_BYTES + " bytes");
        }
        if (state.mechanism() != mechanism.kind() || state.d() != mechanism.parameters().d()) {
            throw new IllegalArgumentException("the state belongs to another mechanism or dimension");
        }
        this.mechanism = mechanism;
        this.parameters = mechanism.parameters();
        this.key = key.clone();
        this.state = state;
    }

    /** A new stream; {@code streamKey} from {@link NoiseSources#newStreamKey()}, kept secret by the caller. */
    public static WindowStream start(WindowMechanism mechanism, byte[] streamKey) {
        return new WindowStream(mechanism, streamKey, mechanism.initialState());
    }

    /** Continues a stream from its persisted state and key. */
    public static WindowStream resume(WindowMechanism mechanism, byte[] streamKey, WindowState state) {
        return new WindowStream(mechanism, streamKey, state);
    }

    public WindowMechanism mechanism() {
        return mechanism;
    }

    /** The current state (immutable; safe to persist while the stream continues). */
    public WindowState state() {
        return state;
    }

    /** The releases an append triggered, in block order, and how many of its rows were clipped to B. */
    public record Appended(List<WindowRelease> releases, long clippedRows) {}

    /**
     * Appends {@code count} rows given row-major in {@code rows} (count·d values).
     *
     * @throws InvalidStreamInputException on a wrong width, a non-finite value, a graph stream, or
     *     more rows than the horizon leaves room for; nothing is appended then
     * @throws HorizonExhaustedException if the stream has released its last block
     */
    public Appended appendRows(double[] rows, int count) {
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
        List<WindowRelease> releases = new ArrayList<>();
        double[] open = state.openBlock().clone();
        long openRows = state.openRows();
        int next = 0;
        while (next < count) {
            int take = count - next;
            if (parameters.blockRule() == BlockRule.ROW_COUNT) {
                take = (int) Math.min(take, parameters.blockRows() - openRows);
            }
            addRows(open, clipped, next, take, d);
            openRows += take;
            next += take;
            if (parameters.blockRule() == BlockRule.ROW_COUNT && openRows == parameters.blockRows()) {
                releases.add(releaseOpen(open, openRows));
                open = new double[parameters.packedSize()];
                openRows = 0;
            }
        }
        state = state.withOpenBlock(openRows, open);
        return new Appended(List.copyOf(releases), clippedRows);
    }

    /**
     * Appends edge events {uᵢ, vᵢ} of weight wᵢ ∈ [0, 1] (a graph stream): the row √wᵢ(e_u − e_v),
     * whose Gram term adds wᵢ to L[u][u] and L[v][v] and subtracts it from L[u][v].
     *
     * @throws InvalidStreamInputException on lengths that differ, a vertex outside [0, d), a
     *     self-loop, a weight outside [0, 1] (or NaN), or too many edges for the horizon
     */
    public Appended appendEdges(int[] u, int[] v, double[] weight) {
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
        List<WindowRelease> releases = new ArrayList<>();
        double[] open = state.openBlock().clone();
        long openRows = state.openRows();
        for (int e = 0; e < count; e++) {
            int a = Math.min(u[e], v[e]);
            int b = Math.max(u[e], v[e]);
            double w = weight[e];
            open[Packed.index(a, a, n)] += w;
            open[Packed.index(b, b, n)] += w;
            open[Packed.index(a, b, n)] -= w;
            openRows++;
            if (parameters.blockRule() == BlockRule.ROW_COUNT && openRows == parameters.blockRows()) {
                releases.add(releaseOpen(open, openRows));
                open = new double[parameters.packedSize()];
                openRows = 0;
            }
        }
        state = state.withOpenBlock(openRows, open);
        return new Appended(List.copyOf(releases), 0);
    }

    /**
     * Closes the open block of a {@link BlockRule#TIME} stream at the end of its time interval and
     * releases it (an empty interval releases a block of zeros plus noise, like any other).
     *
     * @throws IllegalStateException under ROW_COUNT, where blocks close by themselves
     * @throws HorizonExhaustedException past the horizon
     */
    public WindowRelease closeBlock() {
        if (parameters.blockRule() != BlockRule.TIME) {
            throw new IllegalStateException("ROW_COUNT blocks close when they hold " + parameters.blockRows() + " rows");
        }
        return releaseOpen(state.openBlock().clone(), state.openRows());
    }

    private WindowRelease releaseOpen(double[] open, long openRows) {
        WindowMechanism.Step step = mechanism.release(state.withOpenBlock(openRows, open), key);
        state = step.next();
        return step.release();
    }

    private void requireRoom(long count) {
        long left = parameters.horizonBlocks() - state.completedBlocks();
        if (left <= 0) {
            throw new HorizonExhaustedException("the stream's horizon of " + parameters.horizonBlocks()
                    + " blocks is reached");
        }
        if (parameters.blockRule() == BlockRule.ROW_COUNT) {
            long room = left > Long.MAX_VALUE / parameters.blockRows() ? Long.MAX_VALUE
                    : left * parameters.blockRows() - state.openRows();
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
