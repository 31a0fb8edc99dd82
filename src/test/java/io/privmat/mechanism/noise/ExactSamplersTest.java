package io.privmat.mechanism.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Statistical tests with fixed seeds: the samplers against their exact pmfs (chi-square at a 1e-6
 * critical value, quantile bins), moments and tails, plus negative controls showing that the same
 * checks reject a 10 % wrong scale.
 */
class ExactSamplersTest {

    @ParameterizedTest
    @CsvSource({"0, 1", "1, 10", "1, 2", "1, 1", "5, 2", "7, 3", "13, 1"})
    void bernoulliExpMinusMatchesExpOfMinusGamma(long num, long den) {
        NoiseSource random = TestNoiseSources.seeded(num * 31 + den);
        int n = 200_000;
        int hits = 0;
        for (int i = 0; i < n; i++) {
            if (ExactSamplers.bernoulliExpMinus(random, num, den)) {
                hits++;
            }
        }
        double p = Math.exp(-(double) num / den);
        double tolerance = 5 * Math.sqrt(p * (1 - p) / n) + 1e-9;
        assertThat((double) hits / n).isCloseTo(p, org.assertj.core.api.Assertions.within(tolerance));
    }

    @Test
    void bigIntegerBernoulliAgreesWithTheLongPath() {
        NoiseSource random = TestNoiseSources.seeded(5);
        BigInteger den = BigInteger.ONE.shiftLeft(90);
        BigInteger num = den.multiply(BigInteger.valueOf(3)).divide(BigInteger.valueOf(4)); // γ = 0.75
        int n = 100_000;
        int hits = 0;
        for (int i = 0; i < n; i++) {
            if (ExactSamplers.bernoulliExpMinus(random, num, den)) {
                hits++;
            }
        }
        double p = Math.exp(-0.75);
        assertThat((double) hits / n).isCloseTo(p, org.assertj.core.api.Assertions.within(5 * Math.sqrt(p * (1 - p) / n)));
    }

    @ParameterizedTest(name = "discrete Laplace s={0} t={1}")
    @CsvSource({"1, 1", "1, 5", "3, 10", "1, 1000", "2, 1"})
    void discreteLaplaceMatchesItsPmf(long s, long t) {
        NoiseSource random = TestNoiseSources.seeded(s * 1000 + t);
        long[] samples = new long[200_000];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = ExactSamplers.discreteLaplace(random, s, t);
        }
        double rate = (double) s / t;
        long span = (long) Math.ceil(40 / rate);
        ChiSquare.Result result = ChiSquare.test(samples, -span, span, z -> Math.exp(-Math.abs(z) * rate), 40);
        assertThat(result.passes()).as("chi2 %s", result).isTrue();
        // Variance of the discrete Laplace: 2e^{-r}/(1 - e^{-r})².
        double q = Math.exp(-rate);
        double variance = 2 * q / ((1 - q) * (1 - q));
        assertThat(sampleVariance(samples)).isCloseTo(variance, org.assertj.core.api.Assertions.withinPercentage(3));
    }

    @ParameterizedTest(name = "discrete Gaussian sigma^2={0}/{1}")
    @CsvSource({"1, 4", "1, 1", "9, 1", "100, 1", "10000, 1", "100000000, 1", "1099511627776, 1", "1099511627777, 4"})
    void discreteGaussianMatchesItsPmf(long num, long den) {
        double sigma2 = (double) num / den;
        double sigma = Math.sqrt(sigma2);
        NoiseSource random = TestNoiseSources.seeded(num + den);
        // σ = 2^20 exercises the 128-bit path; σ² = (2^40+1)/4 the BigInteger fallback (slower).
        int n = sigma > 1e5 ? 40_000 : 200_000;
        long[] samples = new long[n];
        for (int i = 0; i < n; i++) {
            samples[i] = ExactSamplers.discreteGaussian(random, num, den);
        }
        assertMatchesDiscreteGaussian(samples, sigma2);
    }

    /**
     * Chi-square against the exact pmf of N_ℤ(0, σ²) (1e-6 critical value, 40 quantile bins), the
     * variance and mean within 5 standard errors of the exact ones, and P[|Z| &gt; 3σ] within 5
     * standard errors.
     */
    static void assertMatchesDiscreteGaussian(long[] samples, double sigma2) {
        double sigma = Math.sqrt(sigma2);
        int n = samples.length;
        long span = (long) Math.ceil(7 * sigma) + 2;
        int bins = sigma < 1 ? 5 : 40;
        ChiSquare.Result result = ChiSquare.test(samples, -span, span, z -> Math.exp(-(double) z * z / (2 * sigma2)), bins);
        assertThat(result.passes()).as("chi2 %s", result).isTrue();
        double variance = exactDiscreteGaussianVariance(sigma2, span);
        double fourth = 3 * variance * variance;
        double se = Math.sqrt((fourth - variance * variance) / n);
        assertThat(sampleVariance(samples)).isCloseTo(variance, org.assertj.core.api.Assertions.within(5 * se));
        assertThat(mean(samples)).isCloseTo(0.0, org.assertj.core.api.Assertions.within(5 * Math.sqrt(variance / n)));
        // Tail: P[|Z| > 3σ] within 5 standard errors of the exact value.
        double tail = 0;
        double total = 0;
        for (long z = -span; z <= span; z++) {
            double w = Math.exp(-(double) z * z / (2 * sigma2));
            total += w;
            if (Math.abs(z) > 3 * sigma) {
                tail += w;
            }
        }
        double pTail = tail / total;
        long observed = java.util.Arrays.stream(samples).filter(z -> Math.abs(z) > 3 * sigma).count();
        assertThat((double) observed / n).isCloseTo(pTail,
                org.assertj.core.api.Assertions.within(5 * Math.sqrt(pTail * (1 - pTail) / n) + 1e-9));
    }

    /** Negative control: the same test rejects a sampler whose variance is 10 % off. */
    @Test
    void chiSquareRejectsAWrongScale() {
        NoiseSource random = TestNoiseSources.seeded(99);
        long[] samples = new long[200_000];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = ExactSamplers.discreteGaussian(random, 110, 1);
        }
        ChiSquare.Result result = ChiSquare.test(samples, -80, 80, z -> Math.exp(-(double) z * z / 200), 40);
        assertThat(result.passes()).as("chi2 %s", result).isFalse();
        long[] laplace = new long[200_000];
        for (int i = 0; i < laplace.length; i++) {
            laplace[i] = ExactSamplers.discreteLaplace(random, 10, 11);
        }
        assertThat(ChiSquare.test(laplace, -60, 60, z -> Math.exp(-Math.abs(z)), 40).passes()).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"7", "10", "1099511627779"})
    void boundedUniformIsUniform(long bound) {
        NoiseSource random = TestNoiseSources.seeded(bound);
        int bins = (int) Math.min(bound, 64);
        long[] counts = new long[bins];
        int n = 300_000;
        for (int i = 0; i < n; i++) {
            long v = random.nextLong(bound);
            assertThat(v).isBetween(0L, bound - 1);
            counts[(int) (v * bins / bound)]++;
        }
        double stat = 0;
        for (int b = 0; b < bins; b++) {
            long lo = (b * bound + bins - 1) / bins;
            long hi = ((b + 1) * bound + bins - 1) / bins;
            double expected = (double) (hi - lo) / bound * n;
            stat += (counts[b] - expected) * (counts[b] - expected) / expected;
        }
        assertThat(stat).isLessThan(ChiSquare.critical(bins - 1));
    }

    @Test
    void seededSourcesAreReproducibleAndSecureSourcesDiffer() {
        assertThat(TestNoiseSources.seeded(1).nextLong()).isEqualTo(TestNoiseSources.seeded(1).nextLong());
        assertThat(TestNoiseSources.seeded(1).nextLong()).isNotEqualTo(TestNoiseSources.seeded(2).nextLong());
        assertThat(new ChaCha20NoiseSource().nextLong()).isNotEqualTo(new ChaCha20NoiseSource().nextLong());
        NoiseSource secure = NoiseSources.secure();
        assertThat(secure).isSameAs(NoiseSources.secure());
        long ones = 0;
        for (int i = 0; i < 100_000; i++) {
            ones += Long.bitCount(secure.nextLong());
        }
        assertThat(ones / 100_000.0).isCloseTo(32.0, org.assertj.core.api.Assertions.within(0.1));
    }

    @Test
    void rekeyingKeepsTheStreamGoing() {
        int[] keys = {0};
        NoiseSource source = new ChaCha20NoiseSource(() -> {
            keys[0]++;
            return new byte[44];
        });
        for (int i = 0; i < (1 << 27) / 8 + 10; i++) {
            source.nextLong();
        }
        assertThat(keys[0]).isEqualTo(1); // 128 MiB < 1 GiB: no rekey yet
    }

    private static double mean(long[] xs) {
        double s = 0;
        for (long x : xs) {
            s += x;
        }
        return s / xs.length;
    }

    private static double sampleVariance(long[] xs) {
        double m = mean(xs);
        double s = 0;
        for (long x : xs) {
            s += (x - m) * (x - m);
        }
        return s / (xs.length - 1);
    }

    private static double exactDiscreteGaussianVariance(double sigma2, long span) {
        double total = 0;
        double second = 0;
        for (long z = -span; z <= span; z++) {
            double w = Math.exp(-(double) z * z / (2 * sigma2));
            total += w;
            second += w * z * z;
        }
        return second / total;
    }

    @Test
    void replayableStreamsRepeatExactlyAndDerivedStreamsNeverReuseAKey() {
        NoiseSource parent = new ChaCha20NoiseSource();
        NoiseSource.Replayable replay = parent.replayable();
        NoiseSource a = replay.open();
        NoiseSource b = replay.open();
        for (int i = 0; i < 10_000; i++) {
            assertThat(a.nextLong()).isEqualTo(b.nextLong());
        }
        assertThat(parent.split().nextLong()).isNotEqualTo(parent.split().nextLong());
        ChaCha20NoiseSource.KeySupplier keys = ChaCha20NoiseSource.derivedKeys(new byte[44]);
        assertThat(keys.next()).isNotEqualTo(keys.next());
    }

    /** The bit-by-bit Bernoulli(num/den) against its probability: |z| < 5 on 400 000 draws. */
    @ParameterizedTest
    @CsvSource({"1, 3", "5, 8", "2, 7", "1, 1000", "4611686018427387903, 9223372036854775807",
            "6148914691236517205, 9223372036854775807"})
    void bitwiseBernoulliHasItsProbability(long num, long den) {
        NoiseSource random = TestNoiseSources.seeded(num ^ den);
        int n = 400_000;
        int hits = 0;
        for (int i = 0; i < n; i++) {
            hits += ExactSamplers.bernoulli(random, num, den) ? 1 : 0;
        }
        double p = (double) num / den;
        double z = (hits - n * p) / Math.sqrt(n * p * (1 - p));
        assertThat(Math.abs(z)).as("hits %d of %d for p = %s", hits, n, p).isLessThan(5);
        assertThat(ExactSamplers.bernoulli(random, 0, 5)).isFalse();
        assertThat(ExactSamplers.bernoulli(random, 5, 5)).isTrue();
    }

    /** The 128-bit Bernoulli: p = num/den with den ≥ 2^64, including a 2r that needs 129 bits. */
    @Test
    void wideBitwiseBernoulliHasItsProbability() {
        UInt128[][] cases = {
            {new UInt128(1, 0), new UInt128(3, 0)},                      // 1/3
            {new UInt128(0x7000000000000000L, 5), new UInt128(-1L, -1L)}, // ≈ 0.4375, 2r ≥ 2^128
            {UInt128.multiply(123456789L, 987654321L), UInt128.multiply(987654321L, 1L << 40)}};
        double[] p = {1.0 / 3, 0x7000000000000000L / 0x1p64 + 0x1p-128 * 5,
            (123456789.0 * 987654321.0) / (987654321.0 * 0x1p40)};
        NoiseSource random = TestNoiseSources.seeded(128);
        int n = 400_000;
        for (int c = 0; c < cases.length; c++) {
            int hits = 0;
            for (int i = 0; i < n; i++) {
                hits += ExactSamplers.bernoulli(random, cases[c][0], cases[c][1]) ? 1 : 0;
            }
            double z = (hits - n * p[c]) / Math.sqrt(n * p[c] * (1 - p[c]));
            assertThat(Math.abs(z)).as("case %d: hits %d of %d for p = %s", c, hits, n, p[c]).isLessThan(5);
        }
    }

    /** Bulk fills are parallel over split streams, yet a seeded source reproduces them. */
    @Test
    void bulkFillIsReproducibleAndHasTheRightVariance() {
        long[] a = new long[300_000];
        long[] b = new long[300_000];
        ExactSamplers.fillDiscreteGaussian(TestNoiseSources.seeded(3), 10_000, 1, a);
        ExactSamplers.fillDiscreteGaussian(TestNoiseSources.seeded(3), 10_000, 1, b);
        assertThat(a).isEqualTo(b);
        double sumSquares = 0;
        for (long z : a) {
            sumSquares += (double) z * z;
        }
        // Var of N_Z(0, 100^2) is within 1e-10 of 10 000; the estimate's sd is 10 000·√(2/n) ≈ 26.
        assertThat(sumSquares / a.length).isCloseTo(10_000, org.assertj.core.data.Offset.offset(130.0));
    }
}
