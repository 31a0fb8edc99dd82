package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.BlockRule;
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

    private final WindowMechanism mechanism;
    private final byte[] key;
    private final StreamBlocks blocks;
    private WindowState state;

    private WindowStream(WindowMechanism mechanism, byte[] key, WindowState state) {
        if (key.length != NoiseSources.STREAM_KEY_BYTES) {
            throw new IllegalArgumentException("a stream key has " + NoiseSources.STREAM_KEY_BYTES + " bytes");
        }
        if (state.mechanism() != mechanism.kind() || state.d() != mechanism.parameters().d()) {
            throw new IllegalArgumentException("the state belongs to another mechanism or dimension");
        }
        this.mechanism = mechanism;
        this.key = key.clone();
        this.blocks = StreamBlocks.resume(mechanism.parameters(), state.completedBlocks(), state.openRows(),
                state.openBlock());
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
        return released(blocks.appendRows(rows, count));
    }

    /**
     * Appends edge events {uᵢ, vᵢ} of weight wᵢ ∈ [0, 1] (a graph stream): the row √wᵢ(e_u − e_v),
     * whose Gram term adds wᵢ to L[u][u] and L[v][v] and subtracts it from L[u][v].
     *
     * @throws InvalidStreamInputException on lengths that differ, a vertex outside [0, d), a
     *     self-loop, a weight outside [0, 1] (or NaN), or too many edges for the horizon
     */
    public Appended appendEdges(int[] u, int[] v, double[] weight) {
        return released(blocks.appendEdges(u, v, weight));
    }

    /**
     * Closes the open block of a {@link BlockRule#TIME} stream at the end of its time interval and
     * releases it (an empty interval releases a block of zeros plus noise, like any other).
     *
     * @throws IllegalStateException under ROW_COUNT, where blocks close by themselves
     * @throws HorizonExhaustedException past the horizon
     */
    public WindowRelease closeBlock() {
        WindowRelease release = release(blocks.closeBlock());
        state = state.withOpenBlock(blocks.openRows(), blocks.openBlock());
        return release;
    }

    private Appended released(StreamBlocks.Appended appended) {
        List<WindowRelease> releases = new ArrayList<>();
        for (StreamBlocks.Block block : appended.completed()) {
            releases.add(release(block));
        }
        state = state.withOpenBlock(blocks.openRows(), blocks.openBlock());
        return new Appended(List.copyOf(releases), appended.clippedRows());
    }

    private WindowRelease release(StreamBlocks.Block block) {
        WindowMechanism.Step step = mechanism.release(state.withOpenBlock(block.rows(), block.packedGram()), key);
        state = step.next();
        return step.release();
    }
}
