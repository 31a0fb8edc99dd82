package io.privmat.mechanism.covariance;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.noise.ContinuousSamplers;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.TestNoiseSources;
import org.junit.jupiter.api.Test;

/** The data-independent acceptance bound that sizes the Bingham sampler's proposal cap. */
class BinghamAcceptanceTest {

    @Test
    void theBoundIsBelowTheMeasuredAcceptanceOnFlatAndConcentratedInputs() {
        NoiseSource random = TestNoiseSources.seeded(5);
        for (int q : new int[] {2, 3, 6, 10}) {
            double bound = BinghamAcceptance.lowerBound(q);
            assertThat(bound).isPositive();
            for (double scale : new double[] {0, 1, 30, 1000}) {
                double[] a = new double[q];
                for (int j = 1; j < q; j++) {
                    a[j] = scale * j;
                }
                // 20 000 proposals; the measured rate is ≥ 0.1 here, the bound far lower (β ~ 1e-9).
                assertThat(acceptance(a, 20_000, random)).as("q=%d scale=%s", q, scale).isGreaterThan(bound);
            }
        }
    }

    @Test
    void capsMakeFailureAtMost2ToTheMinus50WithinTheWorkLimit() {
        int max = BinghamAcceptance.maxDimension();
        assertThat(max).isGreaterThanOrEqualTo(6);
        for (int q = 2; q <= max; q++) {
            long n = BinghamAcceptance.proposals(q);
            assertThat(n).isPositive();
            assertThat(-n * BinghamAcceptance.lowerBound(q)).isLessThanOrEqualTo(Math.log(0x1p-50));
        }
        assertThat(BinghamAcceptance.proposals(max + 1)).isEqualTo(-1);
    }

    /** The measured acceptance rate of the sampler's own proposal and test. */
    private static double acceptance(double[] a, int proposals, NoiseSource random) {
        BinghamSampler.Envelope env = BinghamSampler.Envelope.of(a);
        int q = a.length;
        double b = env.b();
        double logM = -(q - b) / 2 + (q / 2.0) * Math.log(q / b);
        int accepted = 0;
        double[] x = new double[q];
        for (int p = 0; p < proposals; p++) {
            double norm2 = 0;
            for (int j = 0; j < q; j++) {
                x[j] = ContinuousSamplers.standardNormal(random) * env.scale()[j];
                norm2 += x[j] * x[j];
            }
            double s = 0;
            double t = 0;
            for (int j = 0; j < q; j++) {
                double x2 = x[j] * x[j] / norm2;
                s += env.shifted()[j] * x2;
                t += env.omega()[j] * x2;
            }
            double u = random.nextDouble();
            if (u > 0 && Math.log(u) < -s + (q / 2.0) * Math.log(t) - logM) {
                accepted++;
            }
        }
        return (double) accepted / proposals;
    }
}
