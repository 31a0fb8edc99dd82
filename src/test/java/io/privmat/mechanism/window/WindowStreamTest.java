package io.privmat.mechanism.window;

import static io.privmat.mechanism.window.WindowTestSupport.key;
import static io.privmat.mechanism.window.WindowTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.BlockRule;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.sketch.Interval;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Appends: validation before anything is added, clipping, block boundaries, the horizon, TIME
 * blocks, edge streams, and the coverage of the directional-variance and cut intervals.
 */
class WindowStreamTest {

    static final NeighbouringRelation AR = NeighbouringRelation.ADD_REMOVE;

    private static WindowStream stream(WindowParameters p, WindowMechanismKind kind) {
        return WindowStream.start(WindowMechanism.forRho(kind, p, 1, WindowMechanism.Options.DEFAULT), key(1));
    }

    @Test
    void badRowsAreRefusedWholeAndLeaveTheStateAsItWas() {
        WindowParameters p = WindowParameters.rows(2, 1, 2, 3, 10, AR);
        WindowStream s = stream(p, WindowMechanismKind.BLOCKS);
        s.appendRows(new double[] {0.1, 0.2}, 1);
        WindowState before = s.state();
        assertThatThrownBy(() -> s.appendRows(new double[] {0.1, 0.2, 0.3}, 2))
                .isInstanceOf(InvalidStreamInputException.class).hasMessageContaining("width 2");
        assertThatThrownBy(() -> s.appendRows(new double[] {0.1, 0.2, 0.3, Double.NaN}, 2))
                .isInstanceOfSatisfying(InvalidStreamInputException.class, e -> assertThat(e.index()).isEqualTo(1));
        assertThatThrownBy(() -> s.appendRows(new double[] {Double.POSITIVE_INFINITY, 0}, 1))
                .isInstanceOf(InvalidStreamInputException.class);
        assertThatThrownBy(() -> s.appendEdges(new int[] {0}, new int[] {1}, new double[] {1}))
                .isInstanceOf(InvalidStreamInputException.class);
        assertThat(s.state()).isSameAs(before);
        assertThatThrownBy(s::closeBlock).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void rowsAreClippedToTheBoundAndBlocksCloseAtTheirRowCount() {
        WindowParameters p = WindowParameters.rows(2, 1, 3, 2, 10, AR);
        WindowStream s = stream(p, WindowMechanismKind.BLOCKS);
        WindowStream.Appended a = s.appendRows(new double[] {3, 4, 0.5, 0}, 2);
        assertThat(a.clippedRows()).isEqualTo(1);
        assertThat(a.releases()).isEmpty();
        // Open block: (0.6, 0.8)(0.6, 0.8)ᵀ + (0.5, 0)(0.5, 0)ᵀ, packed (0,0), (0,1), (1,1).
        assertThat(s.state().openBlock()).containsExactly(new double[] {0.36 + 0.25, 0.48, 0.64}, within(1e-12));
        assertThat(s.state().openRows()).isEqualTo(2);
        List<WindowRelease> r = s.appendRows(new double[] {0, 1, 1, 0, 0, 0, 0, 0}, 4).releases();
        assertThat(r).hasSize(2);
        assertThat(r.get(0).block()).isZero();
        assertThat(r.get(1).rows()).isEqualTo(6);
        assertThat(s.state().openRows()).isZero();
    }

    @Test
    void batchedAndRowByRowAppendsGiveTheSameBlock() {
        int d = 20;
        WindowParameters p = WindowParameters.rows(d, 1, 1000, 2, 10, AR);
        double[] x = rows(100, d, 3);
        WindowStream batched = stream(p, WindowMechanismKind.BLOCKS);
        batched.appendRows(x, 100);
        WindowStream single = stream(p, WindowMechanismKind.BLOCKS);
        for (int r = 0; r < 100; r++) {
            single.appendRows(java.util.Arrays.copyOfRange(x, r * d, (r + 1) * d), 1);
        }
        assertThat(batched.state().openBlock()).containsExactly(single.state().openBlock(), within(1e-12));
    }

    @Test
    void theHorizonBoundsAppendsAndReleases() {
        WindowParameters p = WindowParameters.rows(2, 1, 2, 2, 3, AR);
        WindowStream s = stream(p, WindowMechanismKind.DYADIC_TREE);
        assertThatThrownBy(() -> s.appendRows(new double[14], 7)).isInstanceOf(InvalidStreamInputException.class)
                .hasMessageContaining("only 6 more rows");
        assertThat(s.state().completedBlocks()).isZero();
        assertThat(s.appendRows(new double[12], 6).releases()).hasSize(3);
        assertThatThrownBy(() -> s.appendRows(new double[2], 1)).isInstanceOf(HorizonExhaustedException.class);
        WindowMechanism m = s.mechanism();
        assertThatThrownBy(() -> m.release(s.state(), key(1))).isInstanceOf(HorizonExhaustedException.class);
    }

    @Test
    void timeBlocksCloseOnRequestAndKeepTheirRowCountPrivate() {
        WindowParameters p = WindowParameters.timed(2, 1, 3, 100, AR);
        WindowStream s = stream(p, WindowMechanismKind.FACTORIZATION);
        assertThat(s.appendRows(rows(50, 2, 1), 50).releases()).isEmpty();
        WindowRelease r = s.closeBlock();
        assertThat(r.rows()).isEqualTo(-1);
        assertThat(r.block()).isZero();
        WindowRelease empty = s.closeBlock();
        assertThat(empty.block()).isEqualTo(1);
        assertThat(s.state().openRows()).isZero();
    }

    @Test
    void edgesBuildTheLaplacianAndBadEdgesAreRefused() {
        WindowParameters p = WindowParameters.graph(3, BlockRule.ROW_COUNT, 10, 2, 10, AR);
        WindowStream s = stream(p, WindowMechanismKind.BLOCKS);
        s.appendEdges(new int[] {0, 2}, new int[] {1, 1}, new double[] {1, 0.5});
        // L = [[1, −1, 0], [−1, 1.5, −0.5], [0, −0.5, 0.5]], packed row by row.
        assertThat(s.state().openBlock()).containsExactly(1, -1, 0, 1.5, -0.5, 0.5);
        WindowState before = s.state();
        assertThatThrownBy(() -> s.appendEdges(new int[] {0, 1}, new int[] {1, 1}, new double[] {1, 1}))
                .isInstanceOfSatisfying(InvalidStreamInputException.class, e -> assertThat(e.index()).isEqualTo(1));
        assertThatThrownBy(() -> s.appendEdges(new int[] {0}, new int[] {1}, new double[] {1.5}))
                .isInstanceOf(InvalidStreamInputException.class);
        assertThatThrownBy(() -> s.appendEdges(new int[] {0}, new int[] {1}, new double[] {Double.NaN}))
                .isInstanceOf(InvalidStreamInputException.class);
        assertThatThrownBy(() -> s.appendEdges(new int[] {0}, new int[] {3}, new double[] {1}))
                .isInstanceOf(InvalidStreamInputException.class);
        assertThatThrownBy(() -> s.appendRows(new double[3], 1)).isInstanceOf(InvalidStreamInputException.class);
        assertThat(s.state()).isSameAs(before);
        assertThat(p.blockSensitivity()).isEqualTo(2.0);
    }

    /**
     * Whether estimate ± half contains the exact value, half read off the interval's upper end
     * (the lower end is clamped at 0, which would only add coverage; the two-sided interval is what
     * the level is stated for).
     */
    private static boolean covers(Interval i, double exact) {
        double half = i.upper() - i.estimate();
        return i.upper() > 0 && Math.abs(i.estimate() - exact) <= half;
    }

    /**
     * Over 400 seeded keys, the ν = 0.1 intervals for a fixed direction and a fixed cut contain the
     * exact window value in 90% ± 4.5% of runs (3 binomial standard deviations).
     */
    @Test
    void directionalVarianceAndCutIntervalsHaveTheirStatedCoverage() {
        int d = 4;
        int b = 3;
        int w = 4;
        int blocks = 9;
        double[] x = rows(b * blocks, d, 21);
        double[] dir = {0.5, 0.5, -0.5, 0.5};
        WindowParameters mp = WindowParameters.rows(d, 1, b, w, blocks, AR);
        double exactDir = WindowAnswers.quadratic(WindowTestSupport.exactWindow(x, d, b, w, blocks - 1), d, dir);

        int n = 6;
        SplittableRandom r = new SplittableRandom(5);
        int edges = b * blocks;
        int[] u = new int[edges];
        int[] v = new int[edges];
        double[] wt = new double[edges];
        for (int e = 0; e < edges; e++) {
            u[e] = r.nextInt(n);
            v[e] = (u[e] + 1 + r.nextInt(n - 1)) % n;
            wt[e] = r.nextDouble();
        }
        boolean[] side = {true, false, true, false, false, false};
        double exactCut = 0;
        for (int e = (blocks - w) * b; e < edges; e++) {
            exactCut += side[u[e]] != side[v[e]] ? wt[e] : 0;
        }
        WindowParameters gp = WindowParameters.graph(n, BlockRule.ROW_COUNT, b, w, blocks, AR);

        for (WindowMechanismKind kind : WindowMechanismKind.values()) {
            WindowMechanism mm = WindowMechanism.forRho(kind, mp, 0.5, WindowMechanism.Options.DEFAULT);
            WindowMechanism gm = WindowMechanism.forRho(kind, gp, 0.5, WindowMechanism.Options.DEFAULT);
            int runs = 400;
            int dirIn = 0;
            int cutIn = 0;
            for (int run = 0; run < runs; run++) {
                WindowRelease last = WindowStream.start(mm, key(5000 + run)).appendRows(x, b * blocks).releases()
                        .get(blocks - 1);
                dirIn += covers(WindowAnswers.directionalVariance(last, dir, 0.1), exactDir) ? 1 : 0;
                WindowRelease g = WindowStream.start(gm, key(9000 + run)).appendEdges(u, v, wt).releases()
                        .get(blocks - 1);
                cutIn += covers(WindowAnswers.cut(gp, g, side, 0.1), exactCut) ? 1 : 0;
            }
            assertThat(dirIn / (double) runs).as("%s direction", kind).isCloseTo(0.9, within(0.045));
            assertThat(cutIn / (double) runs).as("%s cut", kind).isCloseTo(0.9, within(0.045));
        }
    }
}
