package io.privmat.mechanism.window;

import static io.privmat.mechanism.window.WindowTestSupport.key;
import static io.privmat.mechanism.window.WindowTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.WindowParameters;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One stream's shared blocks released through several mechanisms: the same releases as a stream of
 * each mechanism alone, a resumed copy continues identically, and a mechanism joining mid-stream
 * starts with the open block.
 */
class StreamBlocksTest {

    static final NeighbouringRelation AR = NeighbouringRelation.ADD_REMOVE;

    /** Releases a block through a mechanism whose persisted slots are {@code slots} (open block not kept). */
    private static WindowMechanism.Step release(WindowMechanism m, WindowState slots, StreamBlocks.Block b, byte[] key) {
        return m.release(slots.withOpenBlock(b.rows(), b.packedGram()), key);
    }

    @Test
    void sharedBlocksGiveEachMechanismTheReleasesOfItsOwnStream() {
        int d = 5;
        WindowParameters p = WindowParameters.rows(d, 1, 4, 3, 20, AR);
        double[] x = rows(37, d, 9);
        List<WindowMechanism> mechanisms = new ArrayList<>();
        for (WindowMechanismKind kind : WindowMechanismKind.values()) {
            mechanisms.add(WindowMechanism.forRho(kind, p, 0.5, WindowMechanism.Options.DEFAULT));
        }
        // Alone: one WindowStream per mechanism, the rows in one batch.
        List<List<WindowRelease>> alone = new ArrayList<>();
        for (int i = 0; i < mechanisms.size(); i++) {
            alone.add(WindowStream.start(mechanisms.get(i), key(100 + i)).appendRows(x, 37).releases());
        }
        // Shared: one StreamBlocks, the rows in uneven batches, every mechanism releasing each block.
        StreamBlocks blocks = StreamBlocks.start(p);
        List<WindowState> states = new ArrayList<>();
        mechanisms.forEach(m -> states.add(m.initialState()));
        List<List<WindowRelease>> shared = new ArrayList<>();
        mechanisms.forEach(m -> shared.add(new ArrayList<>()));
        int[] batches = {3, 1, 9, 0, 24};
        int at = 0;
        for (int n : batches) {
            double[] batch = java.util.Arrays.copyOfRange(x, at * d, (at + n) * d);
            at += n;
            for (StreamBlocks.Block b : blocks.appendRows(batch, n).completed()) {
                for (int i = 0; i < mechanisms.size(); i++) {
                    WindowMechanism.Step step = release(mechanisms.get(i), states.get(i), b, key(100 + i));
                    shared.get(i).add(step.release());
                    // What a store keeps: the slots, with an empty open block.
                    states.set(i, step.next());
                }
            }
            // A persisted copy of the counters and the open block continues identically.
            blocks = StreamBlocks.resume(p, blocks.completedBlocks(), blocks.openRows(), blocks.openBlock());
        }
        assertThat(blocks.completedBlocks()).isEqualTo(9);
        assertThat(blocks.openRows()).isEqualTo(1);
        for (int i = 0; i < mechanisms.size(); i++) {
            assertThat(shared.get(i)).hasSameSizeAs(alone.get(i));
            for (int t = 0; t < alone.get(i).size(); t++) {
                assertThat(shared.get(i).get(t).window()).as("%s block %d", mechanisms.get(i).kind(), t)
                        .containsExactly(alone.get(i).get(t).window());
            }
        }
    }

    @Test
    void aMechanismJoiningMidStreamStartsWithTheOpenBlock() {
        int d = 3;
        WindowParameters p = WindowParameters.rows(d, 1, 4, 2, 10, AR);
        double[] x = rows(12, d, 4);
        StreamBlocks blocks = StreamBlocks.start(p);
        assertThat(blocks.appendRows(java.util.Arrays.copyOfRange(x, 0, 6 * d), 6).completed()).hasSize(1);
        // Joins now: its block 0 is the stream's block 1, which already holds 2 rows.
        WindowMechanism m = WindowMechanism.forRho(WindowMechanismKind.BLOCKS, p, 1, WindowMechanism.Options.DEFAULT);
        List<StreamBlocks.Block> next = blocks.appendRows(java.util.Arrays.copyOfRange(x, 6 * d, 12 * d), 6).completed();
        assertThat(next).extracting(StreamBlocks.Block::index).containsExactly(1L, 2L);
        WindowMechanism.Step first = release(m, m.initialState(), next.get(0), key(3));
        assertThat(first.release().block()).isZero();
        assertThat(first.release().rows()).isEqualTo(4);
        double[] exact = WindowTestSupport.gram(x, d, 4, 8);
        double[] released = first.release().window();
        double tau = Math.sqrt(first.release().noiseVariance());
        for (int i = 0; i < d * d; i++) {
            assertThat(Math.abs(released[i] - exact[i])).isLessThan(8 * tau + 1e-9);
        }
    }

    @Test
    void refusedBatchesLeaveCountersAndBlockUnchanged() {
        WindowParameters p = WindowParameters.rows(2, 1, 3, 2, 2, AR);
        StreamBlocks blocks = StreamBlocks.start(p);
        blocks.appendRows(new double[] {3, 4}, 1);
        double[] open = blocks.openBlock();
        assertThatThrownBy(() -> blocks.appendRows(new double[] {1, Double.NaN}, 1))
                .isInstanceOf(InvalidStreamInputException.class);
        assertThatThrownBy(() -> blocks.appendRows(new double[12], 6)).isInstanceOf(InvalidStreamInputException.class)
                .hasMessageContaining("only 5 more rows");
        assertThatThrownBy(() -> blocks.appendEdges(new int[] {0}, new int[] {1}, new double[] {1}))
                .isInstanceOf(InvalidStreamInputException.class);
        assertThat(blocks.openBlock()).containsExactly(open);
        assertThat(blocks.openRows()).isEqualTo(1);
        assertThat(blocks.completedBlocks()).isZero();
        assertThatThrownBy(blocks::closeBlock).isInstanceOf(IllegalStateException.class);
        assertThat(blocks.appendRows(new double[10], 5).completed()).hasSize(2);
        assertThat(blocks.exhausted()).isTrue();
        assertThatThrownBy(() -> blocks.appendRows(new double[2], 1)).isInstanceOf(HorizonExhaustedException.class);
    }

    @Test
    void timeBlocksCloseOnRequestUntilTheHorizon() {
        WindowParameters p = WindowParameters.timed(2, 1, 2, 2, AR);
        StreamBlocks blocks = StreamBlocks.start(p);
        blocks.appendRows(new double[] {1, 0, 0, 1}, 2);
        StreamBlocks.Block first = blocks.closeBlock();
        assertThat(first.rows()).isEqualTo(2);
        assertThat(first.packedGram()).containsExactly(1, 0, 1);
        StreamBlocks.Block empty = blocks.closeBlock();
        assertThat(empty.index()).isEqualTo(1);
        assertThat(empty.packedGram()).containsOnly(0);
        assertThatThrownBy(blocks::closeBlock).isInstanceOf(HorizonExhaustedException.class);
    }
    /**
     * TIME blocks close only when the caller closes them. Rows of a later block that arrive before
     * the open block is closed wait in one pending block (carried through a resume) and become the
     * open block when the blocks before it close; the blocks in between are empty; a third block is
     * refused until the open one closes; a refused batch changes nothing.
     */
    @Test
    void timeRowsJoinTheBlockOfTheirTimeAndWaitInOnePendingBlock() {
        int d = 2;
        WindowParameters p = WindowParameters.timed(d, 1, 2, 10, AR);
        StreamBlocks blocks = StreamBlocks.start(p);
        blocks.appendRowsAt(0, new double[] {1, 0}, 1);
        assertThat(blocks.accepts(3)).isTrue();
        assertThat(blocks.appendRowsAt(3, new double[] {0, 1, 0, 0.5}, 2).completed()).as("an append closes nothing")
                .isEmpty();
        assertThat(blocks.completedBlocks()).isZero();
        assertThat(blocks.openRows()).isEqualTo(1);
        assertThat(blocks.pending().index()).isEqualTo(3);
        assertThat(blocks.pending().rows()).isEqualTo(2);
        // A third block, or a block between, waits; the open and the pending block still take rows.
        assertThat(blocks.accepts(4)).isFalse();
        assertThat(blocks.accepts(2)).isFalse();
        assertThat(blocks.accepts(0)).isTrue();
        assertThatThrownBy(() -> blocks.appendRowsAt(4, new double[] {1, 1}, 1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> blocks.appendRowsAt(3, new double[] {1, Double.NaN}, 1))
                .isInstanceOf(InvalidStreamInputException.class);
        assertThat(blocks.pending().rows()).as("a refused batch changes nothing").isEqualTo(2);

        StreamBlocks resumed = StreamBlocks.resume(p, blocks.completedBlocks(), blocks.openRows(), blocks.openBlock(),
                blocks.pending());
        StreamBlocks.Block b0 = resumed.closeBlock();
        assertThat(b0.rows()).isEqualTo(1);
        assertThat(b0.packedGram()).containsExactly(1, 0, 0); // packed upper triangle of (1, 0)(1, 0)ᵀ
        StreamBlocks.Block b1 = resumed.closeBlock();
        StreamBlocks.Block b2 = resumed.closeBlock();
        assertThat(b1.rows() + b2.rows()).as("the blocks in between are empty").isZero();
        assertThat(resumed.completedBlocks()).isEqualTo(3);
        assertThat(resumed.pending()).isNull();
        assertThat(resumed.openRows()).as("the pending block is now the open one").isEqualTo(2);
        StreamBlocks.Block b3 = resumed.closeBlock();
        assertThat(b3.index()).isEqualTo(3);
        assertThat(b3.packedGram()).containsExactly(0, 0, 1.25);
        assertThat(resumed.accepts(4)).isTrue();
        assertThat(resumed.accepts(10)).as("past the horizon").isFalse();
    }
}
