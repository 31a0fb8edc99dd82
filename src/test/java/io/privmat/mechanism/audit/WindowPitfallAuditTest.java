package io.privmat.mechanism.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.window.WindowMechanism;
import io.privmat.mechanism.window.WindowMechanismKind;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.window.WindowRelease;
import io.privmat.mechanism.window.WindowState;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The empirical auditor (docs/privacy-audit.md) on the window mechanisms' consecutive releases:
 * for a stream and its neighbour without one row (block 2, norm B), the statistic
 * uᵀ(W₂ − W₁)u — the change of the window release across the changed row's block, in that row's
 * direction — must not show more than the whole stream's claimed (ε = 1, δ(ε)) (ρ = 0.5, μ ≈ 1);
 * the mutant whose integrator restores a stale block counter (so every block reuses the noise of
 * index 0) must be caught. Seeded stream keys (test only); β = 10⁻³.
 */
class WindowPitfallAuditTest {

    private static final int D = 2;
    private static final int B = 2;
    private static final int BLOCKS = 3;
    private static final int SAMPLES = 4_000;

    /** Block grams of the stream (packed 2×2: (0,0), (0,1), (1,1)); row 4 (block 2) is (0.6, 0.8). */
    private static double[][] blocks(boolean withRow) {
        double[][] rows = {{0.5, 0.1}, {-0.2, 0.7}, {0.3, 0.3}, {0.9, -0.1}, {0.6, 0.8}, {-0.4, 0.2}};
        if (!withRow) {
            rows[4] = new double[] {0, 0};
        }
        double[][] grams = new double[BLOCKS][3];
        for (int r = 0; r < rows.length; r++) {
            double[] g = grams[r / B];
            g[0] += rows[r][0] * rows[r][0];
            g[1] += rows[r][0] * rows[r][1];
            g[2] += rows[r][1] * rows[r][1];
        }
        return grams;
    }

    private static double statistic(WindowRelease later, WindowRelease earlier) {
        double[] u = {0.6, 0.8};
        double s = 0;
        for (int i = 0; i < D; i++) {
            for (int j = 0; j < D; j++) {
                s += u[i] * u[j] * (later.window()[i * D + j] - earlier.window()[i * D + j]);
            }
        }
        return s;
    }

    private static double[][] run(WindowMechanism m, double[][] grams, boolean rewind, long seed) {
        SplittableRandom keys = new SplittableRandom(seed);
        double[][] out = new double[SAMPLES][];
        for (int n = 0; n < SAMPLES; n++) {
            byte[] key = new byte[32];
            keys.nextBytes(key);
            WindowState state = m.initialState();
            WindowRelease[] released = new WindowRelease[BLOCKS];
            for (int t = 0; t < BLOCKS; t++) {
                long counter = rewind ? 0 : state.completedBlocks();
                WindowState full = new WindowState(state.mechanism(), D, counter, B, grams[t].clone(), state.secret(),
                        state.published());
                WindowMechanism.Step step = m.release(full, key);
                released[t] = step.release();
                state = step.next();
            }
            out[n] = new double[] {statistic(released[2], released[1])};
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(WindowMechanismKind.class)
    void consecutiveWindowReleasesStayWithinTheClaim(WindowMechanismKind kind) {
        WindowParameters p = WindowParameters.rows(D, 1, B, 2, BLOCKS, NeighbouringRelation.ADD_REMOVE);
        WindowMechanism m = WindowMechanism.forRho(kind, p, 0.5, WindowMechanism.Options.DEFAULT);
        double delta = m.privacyLoss().delta(1.0);
        DpAuditor.Result honest = DpAuditor.epsilonLowerBound(run(m, blocks(true), false, 11),
                run(m, blocks(false), false, 12), delta, PrivacyAuditTest.BETA);
        System.out.printf(Locale.ROOT, "| %s windows | ADD_REMOVE | 1 | %.3g | %.3f | %d |%n", kind, delta,
                honest.epsilonLowerBound(), honest.samplesPerSide());
        assertThat(honest.epsilonLowerBound()).isLessThanOrEqualTo(1.0);
        if (kind == WindowMechanismKind.BLOCKS || kind == WindowMechanismKind.FACTORIZATION) {
            DpAuditor.Result mutant = DpAuditor.epsilonLowerBound(run(m, blocks(true), true, 11),
                    run(m, blocks(false), true, 12), delta, PrivacyAuditTest.BETA);
            System.out.printf(Locale.ROOT, "| %s, stale counter (noise reused) | %.3f | caught: %s |%n", kind,
                    mutant.epsilonLowerBound(), mutant.epsilonLowerBound() > 1);
            assertThat(mutant.epsilonLowerBound()).isGreaterThan(1.0);
        }
    }
}
