package io.privmat.mechanism.window;

import static io.privmat.mechanism.window.WindowTestSupport.key;
import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.covariance.AnalyzeGaussMechanism;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.NoiseSources;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The continual-release pitfall: no two releases may differ by a function of a single row without
 * fresh noise. If a sketch's noise is drawn once and rows are then added to it, the difference of
 * two of its releases is the new rows, exactly.
 *
 * <p>Method. A stream D of 16 rows (d = 2, blocks of 2, w = 3) and its neighbour D′ with row 9 (in
 * block 4, norm B = 1) removed (ADD_REMOVE) are run with the same 1 500 seeded stream keys. Every
 * run yields the vector of everything released: each block's window estimate and each public slot
 * the state gains (noisy blocks, node estimates, decoded blocks). For Gaussian noise the privacy
 * loss of the whole vector is exactly μ = ‖Σ^(−1/2)(E[R(D)] − E[R(D′)])‖ (a Gaussian shift). Runs
 * with the same key share their noise, so the mean shift is measured without noise; Σ is the
 * sample covariance over runs of D (with a ridge of 10⁻⁹ of its mean variance, which exact linear
 * dependences such as "a window is the sum of its slots" need). The claim is the mechanism's
 * {@link WindowMechanism#privacyLoss()} μ.
 *
 * <ul>
 *   <li>Honest mechanisms: the measured μ is within [0.85, 1.1] of the claim — at most the claim
 *       (up to the estimate's error: 1 500 samples in ≤ 60 dimensions inflate μ̂² by ≈ 4%), and close
 *       to it, since the changed row has the largest norm the claim covers.</li>
 *   <li>Mutants that reuse noise across releases — the stream's counter rewound (so every block
 *       draws the noise of index 0), and the literal checkpoint sketch (noise drawn when a checkpoint
 *       opens, rows added, the sketch released at every block) — show a measured μ more than 10
 *       times their claim: consecutive releases differ by the exact block.</li>
 * </ul>
 * The same is shown on the single statistic uᵀ(W₄ − W₃)u (u the changed row's direction, W the
 * window releases): its mean shift over its standard deviation stays below the claim for the honest
 * mechanisms and is unbounded for the mutants.
 */
class WindowPitfallTest {

    static final int D = 2;
    static final int B = 2;
    static final int W = 3;
    static final int BLOCKS = 8;
    static final int CHANGED_ROW = 9;
    static final int RUNS = 1_500;
    static final double RHO = 0.5;

    /** One run: the flattened releases and the statistic uᵀ(W₄ − W₃)u. */
    record Sample(double[] vector, double statistic) {}

    static double[] streamD() {
        double[] x = WindowTestSupport.rows(B * BLOCKS, D, 31);
        double norm = Math.hypot(x[CHANGED_ROW * D], x[CHANGED_ROW * D + 1]);
        x[CHANGED_ROW * D] /= norm;
        x[CHANGED_ROW * D + 1] /= norm;
        return x;
    }

    static double[] neighbour(double[] x) {
        double[] y = x.clone();
        y[CHANGED_ROW * D] = 0;
        y[CHANGED_ROW * D + 1] = 0;
        return y;
    }

    static double[] direction(double[] x) {
        return new double[] {x[CHANGED_ROW * D], x[CHANGED_ROW * D + 1]};
    }

    static WindowParameters parameters() {
        return WindowParameters.rows(D, 1, B, W, BLOCKS, NeighbouringRelation.ADD_REMOVE);
    }

    /** Runs a mechanism over the stream, block by block, collecting windows and new public slots. */
    static Sample honest(WindowMechanism m, double[] x, double[] u, byte[] key) {
        List<Double> out = new ArrayList<>();
        WindowState state = m.initialState();
        WindowRelease[] windows = new WindowRelease[BLOCKS];
        for (int t = 0; t < BLOCKS; t++) {
            WindowState full = state.withOpenBlock(B, blockGram(x, t));
            WindowMechanism.Step step = m.release(full, key);
            windows[t] = step.release();
            for (double v : Packed.pack(step.release().window(), D)) {
                out.add(v);
            }
            for (long k : step.next().changes(state).publishedAdded()) {
                for (double v : step.next().published().get(k)) {
                    out.add(v);
                }
            }
            state = step.next();
        }
        return new Sample(out.stream().mapToDouble(Double::doubleValue).toArray(), statistic(windows, u));
    }

    /** Mutant: the integrator restores a stale counter, so every block is released with index 0. */
    static Sample rewound(WindowMechanism m, double[] x, double[] u, byte[] key) {
        List<Double> out = new ArrayList<>();
        WindowState state = m.initialState();
        WindowRelease[] windows = new WindowRelease[BLOCKS];
        for (int t = 0; t < BLOCKS; t++) {
            WindowState stale = new WindowState(state.mechanism(), D, 0, B, blockGram(x, t), state.secret(),
                    state.published());
            WindowMechanism.Step step = m.release(stale, key);
            windows[t] = step.release();
            for (double v : Packed.pack(step.release().window(), D)) {
                out.add(v);
            }
            state = step.next();
        }
        return new Sample(out.stream().mapToDouble(Double::doubleValue).toArray(), statistic(windows, u));
    }

    /**
     * Mutant: the literal checkpoint sketch — at the start of every w-th block a checkpoint opens
     * with noise drawn once (an Analyze Gauss release of the zero matrix at the blocks' σ); its
     * running sum of exact blocks plus that noise is released at every block.
     */
    static Sample checkpoint(AnalyzeGaussMechanism ag, double[] x, double[] u, byte[] key) {
        List<Double> out = new ArrayList<>();
        double[] noise = null;
        double[] running = null;
        WindowRelease[] windows = new WindowRelease[BLOCKS];
        for (int t = 0; t < BLOCKS; t++) {
            if (t % W == 0) {
                NoiseSource source = NoiseSources.keyed(key, t);
                noise = ag.release(new double[D * D], source);
                running = new double[D * D];
            }
            double[] g = Packed.unpack(blockGram(x, t), D);
            for (int i = 0; i < D * D; i++) {
                running[i] += g[i];
            }
            double[] released = new double[D * D];
            for (int i = 0; i < D * D; i++) {
                released[i] = running[i] + noise[i];
            }
            windows[t] = new WindowRelease(WindowMechanismKind.BLOCKS, t, t, -1, D, released, 0, 0);
            for (double v : Packed.pack(released, D)) {
                out.add(v);
            }
        }
        return new Sample(out.stream().mapToDouble(Double::doubleValue).toArray(), statistic(windows, u));
    }

    static double[] blockGram(double[] x, int t) {
        return Packed.pack(WindowTestSupport.gram(x, D, t * B, (t + 1) * B), D);
    }

    static double statistic(WindowRelease[] windows, double[] u) {
        int s = CHANGED_ROW / B;
        double[] diff = new double[D * D];
        for (int i = 0; i < D * D; i++) {
            diff[i] = windows[s].window()[i] - windows[s - 1].window()[i];
        }
        return WindowAnswers.quadratic(diff, D, u);
    }

    /** μ̂ of the whole vector and of the statistic, from paired runs. */
    record Measured(double vector, double statistic) {}

    static Measured measure(Function<byte[], Sample> onD, Function<byte[], Sample> onNeighbour) {
        List<double[]> samples = new ArrayList<>();
        double[] shift = null;
        double[] stats = new double[RUNS];
        double statShift = 0;
        for (int run = 0; run < RUNS; run++) {
            byte[] k = key(700_000 + run);
            Sample a = onD.apply(k);
            Sample b = onNeighbour.apply(k);
            if (shift == null) {
                shift = new double[a.vector().length];
            }
            for (int i = 0; i < shift.length; i++) {
                shift[i] += (a.vector()[i] - b.vector()[i]) / RUNS;
            }
            samples.add(a.vector());
            stats[run] = a.statistic();
            statShift += (a.statistic() - b.statistic()) / RUNS;
        }
        int p = shift.length;
        double[] mean = new double[p];
        for (double[] s : samples) {
            for (int i = 0; i < p; i++) {
                mean[i] += s[i] / RUNS;
            }
        }
        DMatrixRMaj cov = new DMatrixRMaj(p, p);
        for (double[] s : samples) {
            for (int i = 0; i < p; i++) {
                for (int j = 0; j < p; j++) {
                    cov.add(i, j, (s[i] - mean[i]) * (s[j] - mean[j]) / (RUNS - 1));
                }
            }
        }
        double trace = 0;
        for (int i = 0; i < p; i++) {
            trace += cov.get(i, i);
        }
        double ridge = Math.max(1e-300, 1e-9 * trace / p);
        for (int i = 0; i < p; i++) {
            cov.add(i, i, ridge);
        }
        DMatrixRMaj delta = new DMatrixRMaj(p, 1, true, shift);
        DMatrixRMaj z = new DMatrixRMaj(p, 1);
        assertThat(CommonOps_DDRM.solve(cov, delta, z)).isTrue();
        double mu2 = 0;
        for (int i = 0; i < p; i++) {
            mu2 += shift[i] * z.get(i, 0);
        }
        double sd = Math.sqrt(WindowMechanismTest.variance(stats));
        return new Measured(Math.sqrt(mu2), Math.abs(statShift) / Math.max(sd, 1e-300));
    }

    @ParameterizedTest
    @EnumSource(WindowMechanismKind.class)
    void honestMechanismsShiftTheReleasesByAtMostTheClaim(WindowMechanismKind kind) {
        WindowMechanism m = WindowMechanism.forRho(kind, parameters(), RHO, WindowMechanism.Options.DEFAULT);
        double[] x = streamD();
        double[] y = neighbour(x);
        double[] u = direction(x);
        Measured got = measure(k -> honest(m, x, u, k), k -> honest(m, y, u, k));
        double claim = m.privacyLoss().mu();
        System.out.printf(Locale.ROOT, "%s: claimed mu %.3f, measured mu of all releases %.3f, of u'(W4 - W3)u %.3f%n",
                kind, claim, got.vector(), got.statistic());
        assertThat(got.vector()).isBetween(0.85 * claim, 1.1 * claim);
        assertThat(got.statistic()).isLessThanOrEqualTo(1.1 * claim);
    }

    @Test
    void reusingNoiseAcrossReleasesIsCaught() {
        double[] x = streamD();
        double[] y = neighbour(x);
        double[] u = direction(x);

        WindowMechanism blocks = WindowMechanism.forRho(WindowMechanismKind.BLOCKS, parameters(), RHO,
                WindowMechanism.Options.DEFAULT);
        Measured rewound = measure(k -> rewound(blocks, x, u, k), k -> rewound(blocks, y, u, k));
        double claim = blocks.privacyLoss().mu();
        System.out.printf(Locale.ROOT, "counter rewound: claimed mu %.3f, measured %.3g, statistic %.3g%n", claim,
                rewound.vector(), rewound.statistic());
        assertThat(rewound.vector()).isGreaterThan(10 * claim);
        assertThat(rewound.statistic()).isGreaterThan(10 * claim);

        AnalyzeGaussMechanism ag = AnalyzeGaussMechanism.forRho(D, 1, NeighbouringRelation.ADD_REMOVE, RHO);
        Measured sketch = measure(k -> checkpoint(ag, x, u, k), k -> checkpoint(ag, y, u, k));
        double sketchClaim = ag.privacyLoss().mu();
        System.out.printf(Locale.ROOT, "checkpoint sketch: claimed mu %.3f, measured %.3g, statistic %.3g%n",
                sketchClaim, sketch.vector(), sketch.statistic());
        assertThat(sketch.vector()).isGreaterThan(10 * sketchClaim);
        assertThat(sketch.statistic()).isGreaterThan(10 * sketchClaim);
    }
}
