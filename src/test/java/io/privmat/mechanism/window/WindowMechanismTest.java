package io.privmat.mechanism.window;

import static io.privmat.mechanism.window.WindowTestSupport.exactWindow;
import static io.privmat.mechanism.window.WindowTestSupport.key;
import static io.privmat.mechanism.window.WindowTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.privacy.PrivacyArgumentException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The three window mechanisms: calibration from public parameters, unbiased window estimates with
 * the declared noise variance (seeded runs, stated tolerances), determinism and restart, state
 * bounds, and the factorisation's advantage computed from public parameters.
 */
class WindowMechanismTest {

    static final NeighbouringRelation AR = NeighbouringRelation.ADD_REMOVE;

    @ParameterizedTest
    @EnumSource(WindowMechanismKind.class)
    void chargesAtMostRhoForTheWholeStream(WindowMechanismKind kind) {
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            WindowParameters p = WindowParameters.rows(20, 1.5, 50, 37, Long.MAX_VALUE, rel);
            WindowMechanism m = WindowMechanism.forRho(kind, p, 0.3, WindowMechanism.Options.DEFAULT);
            BigDecimal rho = m.privacyLoss().rho();
            assertThat(rho).isLessThanOrEqualTo(new BigDecimal("0.3"));
            assertThat(rho.doubleValue()).isGreaterThan(0.3 * 0.998);
            double base = Sensitivities.gramFrobenius(1.5, rel) / Math.sqrt(2 * 0.3);
            double factor = switch (kind) {
                case BLOCKS -> 1;
                case DYADIC_TREE -> Math.sqrt(((DyadicTreeWindowMechanism) m).levels());
                case FACTORIZATION -> Math.sqrt(sumOfSquares(((FactorizationWindowMechanism) m).coefficients()));
            };
            assertThat(m.sigma() / (base * factor)).isCloseTo(1.0, within(1e-3));
        }
    }

    @ParameterizedTest
    @EnumSource(WindowMechanismKind.class)
    void approximateDpCalibrationHoldsForTheWholeStream(WindowMechanismKind kind) {
        WindowParameters p = WindowParameters.rows(10, 1, 10, 16, 1000, NeighbouringRelation.REPLACE_ONE);
        WindowMechanism m = WindowMechanism.forApproxDp(kind, p, 1.0, 1e-6, WindowMechanism.Options.DEFAULT);
        assertThat(m.privacyLoss().delta(1.0)).isLessThanOrEqualTo(1e-6);
        assertThat(m.privacyLoss().delta(1.0)).isGreaterThan(0.5e-6);
    }

    /**
     * Each window value of the catalogue wraps one mechanism and carries its name: the stored
     * subscriptions name their mechanism by it (read back with {@code valueOf}) and the served
     * contract lists the catalogue's window values as a subscription's mechanisms.
     */
    @Test
    void theCatalogueHasOneWindowValuePerMechanismNamedAfterIt() {
        List<WindowDefinition> windows = MechanismCatalog.standard().all().stream()
                .filter(WindowDefinition.class::isInstance).map(WindowDefinition.class::cast).toList();
        assertThat(windows).extracting(WindowDefinition::windowKind)
                .containsExactlyInAnyOrder(WindowMechanismKind.values());
        for (WindowDefinition w : windows) {
            assertThat(w.name()).isEqualTo(w.windowKind().name());
        }
    }

    /** Below the exact grid's range (σ/g ≥ 2³¹) planning refuses with the 400 privacy-argument error. */
    @Test
    void tooSmallRhoIsRefusedAtPlanning() {
        WindowParameters p = WindowParameters.rows(784, 1, 100, 100, 1000, AR);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WindowMechanism.forRho(
                WindowMechanismKind.FACTORIZATION, p, 1e-4, WindowMechanism.Options.DEFAULT))
                .isInstanceOf(PrivacyArgumentException.class);
        assertThat(WindowMechanism.forRho(WindowMechanismKind.FACTORIZATION, p, 1e-3, WindowMechanism.Options.DEFAULT)
                .privacyLoss().rho()).isLessThanOrEqualTo(new BigDecimal("0.001"));
        assertThat(WindowMechanism.forRho(WindowMechanismKind.BLOCKS, p, 1e-5, WindowMechanism.Options.DEFAULT)
                .sigma()).isPositive();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WindowMechanism.forRho(
                WindowMechanismKind.DYADIC_TREE, p, 1, new WindowMechanism.Options(8, 0)))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WindowMechanism.forRho(
                WindowMechanismKind.FACTORIZATION, p, 1, new WindowMechanism.Options(0, 401)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * On a TIME stream under REPLACE_ONE a replaced row may move to another block, which the charged
     * Δ_F·‖c‖ covers only for p ≤ w (BandedToeplitzTest): more bands are refused there, before any
     * charge, naming why; other streams keep 4w.
     */
    @Test
    void moreBandsThanTheWindowAreRefusedWhereAReplacedRowMayMoveBlocks() {
        WindowParameters movable = WindowParameters.timed(4, 1, 10, 1000, NeighbouringRelation.REPLACE_ONE);
        assertThat(FactorizationWindowMechanism.maxBands(movable)).isEqualTo(10);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WindowMechanism.forRho(
                WindowMechanismKind.FACTORIZATION, movable, 1, new WindowMechanism.Options(0, 11)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("bands must be in [1, 10]")
                .hasMessageContaining("another event time");
        var capped = (FactorizationWindowMechanism) WindowMechanism.forRho(WindowMechanismKind.FACTORIZATION, movable, 1,
                new WindowMechanism.Options(0, 10));
        assertThat(capped.bands()).isEqualTo(10);
        for (WindowParameters other : List.of(WindowParameters.timed(4, 1, 10, 1000, AR),
                WindowParameters.rows(4, 1, 5, 10, 1000, NeighbouringRelation.REPLACE_ONE))) {
            assertThat(FactorizationWindowMechanism.maxBands(other)).isEqualTo(40);
            assertThat(((FactorizationWindowMechanism) WindowMechanism.forRho(WindowMechanismKind.FACTORIZATION, other,
                    1, new WindowMechanism.Options(0, 40))).bands()).isEqualTo(40);
        }
    }

    @Test
    void defaultStructureFollowsTheWindow() {
        WindowParameters p = WindowParameters.rows(4, 1, 10, 100, 10_000, AR);
        var tree = (DyadicTreeWindowMechanism) WindowMechanism.forRho(WindowMechanismKind.DYADIC_TREE, p, 1,
                WindowMechanism.Options.DEFAULT);
        assertThat(tree.levels()).isEqualTo(7); // node sizes 1..64 blocks fit in w = 100
        var mf = (FactorizationWindowMechanism) WindowMechanism.forRho(WindowMechanismKind.FACTORIZATION, p, 1,
                WindowMechanism.Options.DEFAULT);
        assertThat(mf.bands()).isEqualTo(100);
        assertThat(mf.releasesPerRow()).isEqualTo(100);
    }

    /**
     * At the same ρ, steady-state variance of xᵀEx: the factorisation's is far below the tree's and
     * the blocks' (a function of public parameters; docs/accuracy/windows.md has the measured errors).
     */
    @Test
    void factorizationHasSeveralTimesLessVarianceThanTheTree() {
        for (int w : new int[] {10, 100}) {
            WindowParameters p = WindowParameters.rows(8, 1, 1, w, Long.MAX_VALUE, AR);
            double blocks = steadyVariance(WindowMechanismKind.BLOCKS, p);
            double tree = steadyVariance(WindowMechanismKind.DYADIC_TREE, p);
            double mf = steadyVariance(WindowMechanismKind.FACTORIZATION, p);
            System.out.printf("w = %d: variance / σ_blocks² — blocks %.2f, tree %.2f, factorization %.2f%n", w,
                    blocks, tree, mf);
            assertThat(tree / mf).isGreaterThan(2.3);
            assertThat(blocks / mf).isGreaterThan(w == 10 ? 2.3 : 10);
        }
    }

    /**
     * The dyadic tree's τ² depends on where the window falls on the tree: in units of σ_A² (one
     * release's σ² at the whole ρ; the tree's σ² is H·σ_A²), its mean over the window positions of a
     * period and its worst position, as docs/mechanisms/windows.md states them (the released
     * intervals use each block's own τ²).
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"10, 9.75, 15.6", "100, 28.6, 41.1", "1000, 57.8, 88.5"})
    void treeVarianceHasTheDocumentedMeanAndWorstOverWindowPositions(int w, double mean, double worst) {
        WindowParameters p = WindowParameters.rows(4, 1, 1, w, Long.MAX_VALUE, AR);
        var tree = (DyadicTreeWindowMechanism) WindowMechanism.forRho(WindowMechanismKind.DYADIC_TREE, p, 0.5,
                WindowMechanism.Options.DEFAULT);
        long period = 1L << tree.levels(); // a multiple of the largest node's size
        double sum = 0;
        double max = 0;
        for (long t = 4L * w; t < 4L * w + period; t++) {
            double units = tree.levels() * tree.noiseVariance(t) / (tree.sigma() * tree.sigma());
            sum += units;
            max = Math.max(max, units);
        }
        assertThat(sum / period).as("mean").isCloseTo(mean, within(0.05));
        assertThat(max).as("worst position").isCloseTo(worst, within(0.05));
    }

    /**
     * A failure is an output (docs/adr/0011-a-failure-is-an-output.md): under TIME blocks the rows per
     * block are unbounded and private, so a block may hold, say, 2⁶² rows at the norm bound. Every
     * mechanism releases such blocks — and the windows and decodings that carry them on, with the
     * factorisation's negative coefficients at 4w bands — without throwing and with finite values
     * (grid rounding saturates at 2⁵⁰ steps), so a subscription cannot stop on its data.
     */
    @ParameterizedTest
    @EnumSource(WindowMechanismKind.class)
    void hugeTimeBlocksAreReleasedWithoutFailing(WindowMechanismKind kind) {
        int d = 3;
        int w = 4;
        WindowParameters p = WindowParameters.timed(d, 1, w, 1000, AR);
        WindowMechanism m = WindowMechanism.forRho(kind, p, 0.5, new WindowMechanism.Options(0,
                kind == WindowMechanismKind.FACTORIZATION ? 4 * w : 0));
        double rows = 0x1p62;
        double[] axis = new double[d * d];
        axis[0] = rows; // 2⁶² rows (1, 0, 0)
        double[] alternating = new double[d * d];
        double[][] signs = {{1, -1, 0}, {-1, 1, 0}, {0, 0, 0}};
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                alternating[i * d + j] = rows / 2 * signs[i][j]; // 2⁶² rows (1, −1, 0)/√2
            }
        }
        WindowState state = m.initialState();
        byte[] key = key(7);
        for (int block = 0; block < 3 * w + 2; block++) {
            double[] gram = block == 0 ? axis : block == 1 ? alternating : new double[d * d];
            WindowState withBlock = state.withOpenBlock((long) rows, Packed.pack(gram, d));
            WindowMechanism.Step step = m.release(withBlock, key);
            assertThat(java.util.Arrays.stream(step.release().window()).allMatch(Double::isFinite)).as("block %d", block)
                    .isTrue();
            state = step.next();
            if (block == 0) {
                double saturated = 0x1p50 * m.granularity();
                assertThat(step.release().window()[0]).as("the saturated entry plus noise").isGreaterThan(saturated / 2);
            }
        }
    }

    private static double steadyVariance(WindowMechanismKind kind, WindowParameters p) {
        WindowMechanism m = WindowMechanism.forRho(kind, p, 0.5, WindowMechanism.Options.DEFAULT);
        WindowMechanism blocks = WindowMechanism.forRho(WindowMechanismKind.BLOCKS, p, 0.5,
                WindowMechanism.Options.DEFAULT);
        double sum = 0;
        int count = 0;
        for (long t = 4L * p.windowBlocks(); t < 4L * p.windowBlocks() + 256; t++) {
            sum += m.noiseVariance(t);
            count++;
        }
        return sum / count / (blocks.sigma() * blocks.sigma());
    }

    /**
     * Over 300 seeded keys: the window estimate minus the exact window sum has mean 0 and the
     * declared variance — xᵀEx has variance τ² for unit x, diagonal entries τ², off-diagonal τ²/2.
     * Tolerances: means within 5 standard errors; variances within 25% (the sample variance of 300
     * normals has relative standard deviation 8%).
     */
    @ParameterizedTest
    @EnumSource(WindowMechanismKind.class)
    void windowEstimatesAreUnbiasedWithTheDeclaredVariance(WindowMechanismKind kind) {
        int d = 3;
        int b = 2;
        int w = 5;
        int blocks = 14;
        double[] x = rows(b * blocks, d, 11);
        WindowParameters p = WindowParameters.rows(d, 1, b, w, blocks, AR);
        WindowMechanism m = WindowMechanism.forRho(kind, p, 0.5, WindowMechanism.Options.DEFAULT);
        // A variance ratio over n runs has sd √(2/(n − 1)): with 600 runs ±0.25 is 4.3 sd for each of
        // the 36 checks (3 kinds × 4 blocks × 3), a false-alarm rate near 1e-3 in all. At 300 runs it
        // was 3 sd, and a correct sampler's stream failed one check (0.72 at 3.4 sd; 1 500 runs pass).
        int runs = 600;
        long[] checked = {0, 3, 7, 13};
        double[] unit = {1 / Math.sqrt(3), -1 / Math.sqrt(3), 1 / Math.sqrt(3)};
        double[][] quad = new double[checked.length][runs];
        double[][] diag = new double[checked.length][runs];
        double[][] off = new double[checked.length][runs];
        for (int run = 0; run < runs; run++) {
            WindowStream s = WindowStream.start(m, key(1000 + run));
            List<WindowRelease> rel = s.appendRows(x, b * blocks).releases();
            assertThat(rel).hasSize(blocks);
            for (int c = 0; c < checked.length; c++) {
                WindowRelease r = rel.get((int) checked[c]);
                double[] exact = exactWindow(x, d, b, w, checked[c]);
                double[] e = new double[d * d];
                for (int i = 0; i < d * d; i++) {
                    e[i] = r.window()[i] - exact[i];
                }
                quad[c][run] = WindowAnswers.quadratic(e, d, unit);
                diag[c][run] = e[0];
                off[c][run] = e[1];
            }
        }
        for (int c = 0; c < checked.length; c++) {
            double tau2 = m.noiseVariance(checked[c]);
            for (double[] sample : new double[][] {quad[c], diag[c], off[c]}) {
                assertThat(Math.abs(mean(sample))).as("mean at block %d", checked[c])
                        .isLessThan(5 * Math.sqrt(tau2 / runs));
            }
            assertThat(variance(quad[c]) / tau2).as("xᵀEx at block %d", checked[c]).isCloseTo(1, within(0.25));
            assertThat(variance(diag[c]) / tau2).as("E₀₀ at block %d", checked[c]).isCloseTo(1, within(0.25));
            assertThat(variance(off[c]) / (tau2 / 2)).as("E₀₁ at block %d", checked[c]).isCloseTo(1, within(0.25));
        }
    }

    @ParameterizedTest
    @EnumSource(WindowMechanismKind.class)
    void releasesAreDeterministicAndAResumedStreamContinuesIdentically(WindowMechanismKind kind) {
        int d = 4;
        int b = 3;
        WindowParameters p = WindowParameters.rows(d, 1, b, 6, 40, AR);
        WindowMechanism m = WindowMechanism.forRho(kind, p, 1, WindowMechanism.Options.DEFAULT);
        double[] x = rows(b * 30 + 2, d, 5);
        byte[] k = key(77);

        WindowStream whole = WindowStream.start(m, k);
        List<WindowRelease> all = whole.appendRows(x, b * 30 + 2).releases();

        // The same stream interrupted after 13 blocks and 1 row, persisted (deep copy) and resumed.
        WindowStream first = WindowStream.start(m, k);
        List<WindowRelease> got = new ArrayList<>(first.appendRows(java.util.Arrays.copyOf(x, (b * 13 + 1) * d),
                b * 13 + 1).releases());
        WindowState persisted = WindowTestSupport.copy(first.state());
        WindowStream resumed = WindowStream.resume(m, k, persisted);
        got.addAll(resumed.appendRows(java.util.Arrays.copyOfRange(x, (b * 13 + 1) * d, x.length),
                b * 30 + 2 - (b * 13 + 1)).releases());
        assertThat(got).hasSameSizeAs(all);
        for (int t = 0; t < all.size(); t++) {
            assertThat(got.get(t).window()).as("block %d", t).containsExactly(all.get(t).window());
        }
        assertThat(resumed.state().openBlock()).containsExactly(whole.state().openBlock());

        // Releasing from the same state twice is idempotent; another key gives other noise.
        WindowState before = WindowTestSupport.copy(first.state().withOpenBlock(b, new double[p.packedSize()]));
        WindowMechanism.Step once = m.release(before, k);
        WindowMechanism.Step twice = m.release(WindowTestSupport.copy(before), k);
        assertThat(twice.release().window()).containsExactly(once.release().window());
        assertThat(twice.next().published().keySet()).isEqualTo(once.next().published().keySet());
        assertThat(m.release(before, key(78)).release().window()).isNotEqualTo(once.release().window());
    }

    @ParameterizedTest
    @EnumSource(WindowMechanismKind.class)
    void stateStaysWithinItsDeclaredBound(WindowMechanismKind kind) {
        for (int w : new int[] {1, 2, 13, 16}) {
            List<WindowMechanism.Options> options = switch (kind) {
                case BLOCKS -> List.of(WindowMechanism.Options.DEFAULT);
                case DYADIC_TREE -> java.util.stream.IntStream.rangeClosed(1, DyadicTreeWindowMechanism.defaultLevels(w))
                        .mapToObj(h -> new WindowMechanism.Options(h, 0)).toList();
                case FACTORIZATION -> java.util.stream.IntStream.of(1, Math.max(1, w / 2), w, 4 * w).distinct()
                        .mapToObj(q -> new WindowMechanism.Options(0, q)).toList();
            };
            for (WindowMechanism.Options o : options) {
                WindowParameters p = WindowParameters.rows(2, 1, 1, w, 200, AR);
                WindowMechanism m = WindowMechanism.forRho(kind, p, 1, o);
                WindowStream s = WindowStream.start(m, key(w));
                int most = 0;
                for (int t = 0; t < 200; t++) {
                    s.appendRows(new double[] {0.5, 0.5}, 1);
                    most = Math.max(most, s.state().matrices());
                    assertThat(s.state().completedBlocks()).isEqualTo(t + 1);
                }
                assertThat(most).as("%s w=%d %s", kind, w, o).isLessThanOrEqualTo(m.maxStateMatrices());
                assertThat(s.state().doubles()).isLessThanOrEqualTo(m.maxStateBytes() / 8);
            }
        }
    }

    @Test
    void pcaAnswerIsPsdAndClampedToTheWindowRows() {
        int d = 5;
        WindowParameters p = WindowParameters.rows(d, 1, 4, 3, 10, AR);
        WindowMechanism m = WindowMechanism.forRho(WindowMechanismKind.FACTORIZATION, p, 0.01,
                WindowMechanism.Options.DEFAULT);
        WindowStream s = WindowStream.start(m, key(3));
        WindowRelease r = s.appendRows(rows(40, d, 9), 40).releases().get(9);
        assertThat(r.rows()).isEqualTo(12);
        CovarianceRelease c = WindowAnswers.covariance(p, r, 2, true);
        double[] values = LinearAlgebra.eigen(c.covariance(), d).values();
        for (double v : values) {
            assertThat(v).isBetween(-1e-9, 12.0 + 1e-9);
        }
        assertThat(c.components()).hasSize(d * 2);
    }

    static double sumOfSquares(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return s;
    }

    static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    static double variance(double[] v) {
        double m = mean(v);
        double s = 0;
        for (double x : v) {
            s += (x - m) * (x - m);
        }
        return s / (v.length - 1);
    }
}
