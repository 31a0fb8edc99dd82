package io.privmat.mechanism.covariance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.noise.ContinuousSamplers;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * The exact Bingham sampler against the target density (numerical integration / importance
 * sampling), and a negative control: the "divided ratio" variant of diffprivlib and OpenDP fails
 * the same test (docs/mechanisms/covariance.md, "Eigenvector sampling").
 */
class BinghamSamplerTest {

    private static final int N = 100_000;

    /** E[xᵀAx] under the sampler, A = diag(a). */
    private static double mean(double[] a, BiFunction<double[], NoiseSource, double[]> sampler, long seed) {
        NoiseSource random = TestNoiseSources.seeded(seed);
        double sum = 0;
        for (int i = 0; i < N; i++) {
            double[] x = sampler.apply(a, random);
            double norm = 0;
            double quad = 0;
            for (int j = 0; j < a.length; j++) {
                norm += x[j] * x[j];
                quad += a[j] * x[j] * x[j];
            }
            assertThat(norm).isCloseTo(1.0, within(1e-12));
            sum += quad;
        }
        return sum / N;
    }

    /** E[xᵀAx] under f ∝ exp(−xᵀAx) by self-normalised importance sampling from the uniform sphere. */
    private static double exactByImportanceSampling(double[] a) {
        SplittableRandom random = new SplittableRandom(7);
        double num = 0;
        double den = 0;
        java.util.Random gauss = new java.util.Random(11);
        for (int i = 0; i < 2_000_000; i++) {
            double norm = 0;
            double[] x = new double[a.length];
            for (int j = 0; j < a.length; j++) {
                x[j] = gauss.nextGaussian();
                norm += x[j] * x[j];
            }
            double quad = 0;
            for (int j = 0; j < a.length; j++) {
                quad += a[j] * x[j] * x[j] / norm;
            }
            double w = Math.exp(-quad);
            num += w * quad;
            den += w;
        }
        assertThat(random).isNotNull();
        return num / den;
    }

    /** E[x₁²] for d = 2, A = diag(a1, 0), by quadrature over the angle. */
    private static double exactCircle(double a1) {
        int steps = 200_000;
        double num = 0;
        double den = 0;
        for (int i = 0; i < steps; i++) {
            double theta = 2 * Math.PI * (i + 0.5) / steps;
            double c2 = Math.cos(theta) * Math.cos(theta);
            double w = Math.exp(-a1 * c2);
            num += w * c2;
            den += w;
        }
        return num / den;
    }

    @Test
    void matchesTheTargetOnTheCircle() {
        for (double a1 : new double[] {3, 20}) {
            double exact = exactCircle(a1);
            NoiseSource random = TestNoiseSources.seeded((long) a1);
            double sum = 0;
            for (int i = 0; i < N; i++) {
                double[] x = BinghamSampler.sample(new double[] {a1, 0}, random);
                sum += x[0] * x[0];
            }
            assertThat(sum / N).as("a1=%s", a1).isCloseTo(exact, within(0.006));
        }
        assertThat(exactCircle(3)).isCloseTo(0.2019, within(0.0005));
    }

    @Test
    void matchesTheTargetInFiveDimensionsAndTheDividedVariantDoesNot() {
        double[] a = {8, 4, 2, 1, 0};
        double exact = exactByImportanceSampling(a);
        assertThat(exact).isCloseTo(1.604, within(0.01));
        assertThat(mean(a, BinghamSampler::sample, 1)).isCloseTo(exact, within(0.03));
        double divided = mean(a, BinghamSamplerTest::dividedVariant, 2);
        assertThat(Math.abs(divided - exact)).as("divided variant E[xᵀAx] = %s", divided).isGreaterThan(0.5);
    }

    @Test
    void uniformWhenAIsFlatAndDeterministicInOneDimension() {
        assertThat(BinghamSampler.sample(new double[] {5}, TestNoiseSources.seeded(1))).containsExactly(1.0);
        // A = c·I is uniform on the sphere: E[x₁²] = 1/q.
        NoiseSource random = TestNoiseSources.seeded(3);
        double sum = 0;
        for (int i = 0; i < N; i++) {
            double[] x = BinghamSampler.sample(new double[] {2, 2, 2, 2}, random);
            sum += x[0] * x[0];
        }
        assertThat(sum / N).isCloseTo(0.25, within(0.005));
        assertThat(BinghamSampler.solveB(new double[] {0, 0, 0})).isCloseTo(3, within(1e-9));
        double b = BinghamSampler.solveB(new double[] {8, 4, 2, 1, 0});
        double sumInv = 0;
        for (double v : new double[] {8, 4, 2, 1, 0}) {
            sumInv += 1 / (b + 2 * v);
        }
        assertThat(sumInv).isCloseTo(1, within(1e-9));
    }

    /** The diffprivlib/OpenDP acceptance ratio, which divides by (xᵀΩx)^{q/2}: a wrong sampler. */
    static double[] dividedVariant(double[] a, NoiseSource random) {
        int q = a.length;
        double b = BinghamSampler.solveB(a);
        double logM = -(q - b) / 2 + (q / 2.0) * Math.log(q / b);
        while (true) {
            double[] x = new double[q];
            double norm = 0;
            for (int j = 0; j < q; j++) {
                x[j] = ContinuousSamplers.standardNormal(random) / Math.sqrt(1 + 2 * a[j] / b);
                norm += x[j] * x[j];
            }
            double s = 0;
            double t = 0;
            for (int j = 0; j < q; j++) {
                x[j] /= Math.sqrt(norm);
                s += a[j] * x[j] * x[j];
                t += (1 + 2 * a[j] / b) * x[j] * x[j];
            }
            if (Math.log(random.nextDouble()) < -s - (q / 2.0) * Math.log(t) - logM) {
                return x;
            }
        }
    }
}
