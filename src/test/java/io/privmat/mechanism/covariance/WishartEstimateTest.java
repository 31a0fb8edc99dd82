package io.privmat.mechanism.covariance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** Wishart covariance: debias, then project; say when the answer is noise-dominated. */
class WishartEstimateTest {

    private static final int D = 6;
    private static final int N = 400;

    private static double[] gram(double scale) {
        double[] c = new double[D * D];
        c[0] = scale * N; // N rows equal to √scale·e₁
        return c;
    }

    @Test
    void aStrongDirectionSurvivesWhereProjectingFirstGaveExactlyNTimesTheIdentity() {
        WishartMechanism w = WishartMechanism.of(D, 1, new BigDecimal("0.5"), new BigDecimal("1e-6"));
        assertThat(w.degrees()).isGreaterThan(N); // the bias k·B² exceeds the clamp n·B²
        double[] released = w.release(gram(1), TestNoiseSources.seeded(3));
        // What the covariance handler did: clamp the raw release to [0, n·B²] → exactly 400·I.
        double[] old = PostProcessing.psdAndTopK(released, D, D, N, true).covariance();
        assertThat(old[0]).isCloseTo(N, within(1e-9));
        assertThat(old[D + 1]).isCloseTo(N, within(1e-9));

        CovarianceRelease r = w.estimate(released, D, N, true);
        assertThat(r.noiseDominated()).isFalse();
        assertThat(Math.abs(r.components()[0])).isGreaterThan(0.9); // top direction ≈ e₁
        assertThat(r.covariance()[0]).isGreaterThan(N - 4 * w.noiseLevel() / 2);
        assertThat(r.covariance()[D + 1]).isLessThan(N / 2.0);
    }

    @Test
    void pureNoiseIsFlaggedAsNoiseDominated() {
        WishartMechanism w = WishartMechanism.of(D, 1, new BigDecimal("0.5"), new BigDecimal("1e-6"));
        for (long seed = 1; seed <= 5; seed++) {
            CovarianceRelease r = w.estimate(w.release(new double[D * D], TestNoiseSources.seeded(seed)), 2, N, true);
            assertThat(r.noiseDominated()).isTrue();
        }
        // A signal far above the noise level is not flagged at a generous ε.
        WishartMechanism sharp = WishartMechanism.of(D, 1, new BigDecimal("2"), new BigDecimal("1e-6"));
        assertThat(sharp.estimate(sharp.release(gram(1), TestNoiseSources.seeded(9)), 1, N, false).noiseDominated())
                .isFalse();
    }
}
