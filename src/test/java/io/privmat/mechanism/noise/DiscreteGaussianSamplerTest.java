package io.privmat.mechanism.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The per-stripe sampler against the exact pmf of N_ℤ(0, σ²) (fixed seeds; the checks of
 * {@link ExactSamplersTest#assertMatchesDiscreteGaussian}), each of its branches (Laplace scale σ
 * for perfect squares and ⌊σ⌋ + 1 otherwise, the delegation for wide parameters), and its exact
 * comparisons with e^−1 and with num/den, including the continuations after 32 equal digits, with
 * scripted random bits.
 */
class DiscreteGaussianSamplerTest {

    @ParameterizedTest(name = "sigma^2 = {0}/{1}")
    @CsvSource({
        "1, 1", "4, 1", "9, 1", "100, 1", // perfect squares: t = σ
        "1, 4", "2, 1", "7, 3", "10001, 1", // t = ⌊σ⌋ + 1, 64-bit acceptance
        "233447841, 1", // the release grid for p = 1 (σ = 15 279 steps)
        "1099511627777, 4"}) // 2·num·den·t² past 63 bits: drawn by ExactSamplers.discreteGaussian
    void matchesTheDiscreteGaussianPmf(long num, long den) {
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.seeded(num * 7 + den), num, den);
        long[] samples = new long[num > 1_000_000_000L ? 40_000 : 200_000];
        sampler.fill(samples, 0, samples.length);
        ExactSamplersTest.assertMatchesDiscreteGaussian(samples, (double) num / den);
    }

    /** The release grid for p = 784² (σ = 20 971 520 steps, before on the 128-bit path): moments and tail. */
    @Test
    void largeGridSigmaHasItsMomentsAndTail() {
        long s = 20_971_520;
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.seeded(784), s * s, 1);
        assertThat(sampler.laplaceScale()).isEqualTo(s);
        int n = 200_000;
        double sum = 0;
        double squares = 0;
        int tail = 0;
        for (int i = 0; i < n; i++) {
            long z = sampler.next();
            sum += z;
            squares += (double) z * z;
            tail += Math.abs(z) > 3 * s ? 1 : 0;
        }
        double sigma2 = (double) s * s;
        // At this σ the discrete Gaussian's moments equal the continuous ones to far below 1e-12.
        assertThat(sum / n).isCloseTo(0, within(5 * s / Math.sqrt(n)));
        assertThat(squares / n).isCloseTo(sigma2, within(5 * sigma2 * Math.sqrt(2.0 / n)));
        double pTail = 0.0026997960632601866; // P[|N(0,1)| > 3]
        assertThat((double) tail / n).isCloseTo(pTail, within(5 * Math.sqrt(pTail * (1 - pTail) / n)));
    }

    @Test
    void laplaceScaleIsSigmaForPerfectSquaresElseFloorPlusOne() {
        assertThat(new DiscreteGaussianSampler(TestNoiseSources.seeded(1), 233447841, 1).laplaceScale()).isEqualTo(15279);
        assertThat(new DiscreteGaussianSampler(TestNoiseSources.seeded(1), 233447842, 1).laplaceScale()).isEqualTo(15280);
        assertThat(new DiscreteGaussianSampler(TestNoiseSources.seeded(1), 9, 4).laplaceScale()).isEqualTo(2);
        assertThat(DiscreteGaussianSampler.exactSquareRoot(1)).isEqualTo(1);
        assertThat(DiscreteGaussianSampler.exactSquareRoot((long) Integer.MAX_VALUE * Integer.MAX_VALUE))
                .isEqualTo(Integer.MAX_VALUE);
        assertThat(DiscreteGaussianSampler.exactSquareRoot(3037000499L * 3037000499L)).isEqualTo(3037000499L);
        assertThat(DiscreteGaussianSampler.exactSquareRoot(3037000499L * 3037000499L - 1)).isEqualTo(-1);
        assertThat(DiscreteGaussianSampler.exactSquareRoot(Long.MAX_VALUE)).isEqualTo(-1);
    }

    @Test
    void samplesAreReproducibleFromASeed() {
        long[] a = new long[10_000];
        long[] b = new long[10_000];
        new DiscreteGaussianSampler(TestNoiseSources.seeded(11), 233447841, 1).fill(a, 0, a.length);
        new DiscreteGaussianSampler(TestNoiseSources.seeded(11), 233447841, 1).fill(b, 0, b.length);
        assertThat(a).isEqualTo(b);
    }

    /**
     * The quotient without an integer division equals x / b: where the double estimate is off by one
     * either way (x one below and at a multiple of b, at every size of b up to 2^62) and on random
     * arguments, including those that fall back to dividing (b ≥ 2^62, x/b ≥ 2^50, x &lt; 0).
     */
    @Test
    void quotientEqualsTheIntegerDivision() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(21);
        for (int bits = 1; bits <= 63; bits++) {
            for (int i = 0; i < 2_000; i++) {
                long b = bits == 63 ? random.nextLong(1, Long.MAX_VALUE) : random.nextLong(1L << (bits - 1), 1L << bits)
                        | (bits == 1 ? 1 : 0);
                long x = random.nextLong(0, Long.MAX_VALUE);
                assertQuotient(x, b);
                long q = random.nextLong(0, Long.MAX_VALUE / b) + 1;
                long multiple = q * b;
                assertQuotient(multiple, b);
                assertQuotient(multiple - 1, b);
                assertQuotient(Math.max(0, multiple - b + 1), b);
            }
        }
        long[] edges = {0, 1, 2, (1L << 32) - 1, 1L << 50, (1L << 50) - 1, (1L << 62) - 1, 1L << 62, Long.MAX_VALUE};
        for (long x : edges) {
            for (long b : edges) {
                if (b > 0) {
                    assertQuotient(x, b);
                }
            }
        }
        assertThat(DiscreteGaussianSampler.quotient(-7, 2)).isEqualTo(-7 / 2);
    }

    private static void assertQuotient(long x, long b) {
        assertThat(DiscreteGaussianSampler.quotient(x, b)).as("%d / %d", x, b).isEqualTo(x / b);
    }

    @Test
    void expansionOfExpMinusOneIsCertified() {
        // 1/e = 0x0.5E2D58D8B3BCDF1ABADEC7829054F90D…
        assertThat(DiscreteGaussianSampler.EXP_MINUS_ONE_WORD).isEqualTo(0x5E2D58D8B3BCDF1AL);
        assertThat(DiscreteGaussianSampler.expMinusOneBits(128)).isEqualTo(new BigInteger("5E2D58D8B3BCDF1ABADEC7829054F90D", 16));
        // Digits past the precomputed 1024 are computed on demand and agree with a direct computation.
        BigInteger direct = DiscreteGaussianSampler.expMinusOneBits(2100);
        for (int i = 1000; i < 2090; i += 7) {
            assertThat(DiscreteGaussianSampler.expMinusOneDigit(i)).as("digit %d", i).isEqualTo(direct.testBit(2099 - i));
        }
    }

    /** Bernoulli(e^−1) and Bernoulli(num/den) frequencies: |z| &lt; 5 on 400 000 draws. */
    @ParameterizedTest(name = "Bernoulli({0}/{1})")
    @CsvSource({"1, 3", "1, 2", "3, 4", "2, 7", "1, 1000", "2147483647, 2147483648", "2147483648, 6442450943",
        "4611686018427387903, 9223372036854775807", "123456789012345, 987654321098765"})
    void comparisonsHaveTheirProbabilities(long num, long den) {
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.seeded(num ^ den), 1, 1);
        int n = 400_000;
        int hits = 0;
        int e = 0;
        for (int i = 0; i < n; i++) {
            hits += sampler.bernoulli(num, den) ? 1 : 0;
            e += sampler.lessThanExpMinusOne() ? 1 : 0;
        }
        double p = (double) num / den;
        assertThat(Math.abs((hits - n * p) / Math.sqrt(n * p * (1 - p)))).as("hits %d for p = %s", hits, p).isLessThan(5);
        double q = Math.exp(-1);
        assertThat(Math.abs((e - n * q) / Math.sqrt(n * q * (1 - q)))).as("e^-1 hits %d", e).isLessThan(5);
        assertThat(sampler.bernoulli(0, 5)).isFalse();
        assertThat(sampler.bernoulli(5, 5)).isTrue();
    }

    /**
     * Scripted bits: 32 random bits equal to the first 32 digits, then the decision falls on the
     * next differing bit (U below the constant exactly when the constant has the 1 there).
     */
    @Test
    void comparisonsContinueExactlyAfterThirtyTwoEqualDigits() {
        // 1/3 = 0.010101…: digits 33, 34 are 0, 1.
        int third = 0x55555555;
        assertThat(scripted(third, 0x80000000).bernoulli(1, 3)).isFalse(); // U = 0.0101…01|1… > 1/3
        assertThat(scripted(third, 0x00000000).bernoulli(1, 3)).isTrue(); // U = 0.0101…01|00… < 1/3
        assertThat(scripted(third, 0x40000000).bernoulli(1, 3)).isTrue(); // U = 0.0101…01|01|0… < 1/3
        // 5/2^35 = 0.000…0101₂: 32 digits 0, then 1, 0, 1.
        assertThat(scripted(0, 0x00000000).bernoulli(5, 1L << 35)).isTrue();
        assertThat(scripted(0, 0xC0000000).bernoulli(5, 1L << 35)).isFalse();
        // 1/4 = 0.01 exactly: 32 equal digits and a remainder of 0 mean U ≥ 1/4.
        assertThat(scripted(0x40000000, 0x00000000).bernoulli(1, 4)).isFalse();
        // e^−1: the word's top 32 bits, then digit 32 onwards.
        int top = (int) (DiscreteGaussianSampler.EXP_MINUS_ONE_WORD >>> 32);
        boolean digit32 = DiscreteGaussianSampler.expMinusOneDigit(32);
        int differing = digit32 ? 0x00000000 : 0x80000000;
        assertThat(scripted(top, differing).lessThanExpMinusOne()).isEqualTo(digit32);
        // First difference at digit 6 (e^−1 has a 1 there: 0x5E = 0101 1110): U below.
        assertThat(scripted(top ^ 0x02000000, 0).lessThanExpMinusOne()).isEqualTo(((top >>> 25) & 1) == 1);
    }

    /** A sampler over a source that yields the given 32-bit words, then zeros. */
    private static DiscreteGaussianSampler scripted(int... words) {
        Deque<Integer> queue = new ArrayDeque<>();
        for (int w : words) {
            queue.add(w);
        }
        NoiseSource source = new NoiseSource() {
            @Override
            public long nextLong() {
                return ((long) nextInt() << 32) | (nextInt() & 0xFFFFFFFFL);
            }

            @Override
            public int nextInt() {
                return queue.isEmpty() ? 0 : queue.poll();
            }

            @Override
            public NoiseSource split() {
                throw new UnsupportedOperationException();
            }

            @Override
            public Replayable replayable() {
                throw new UnsupportedOperationException();
            }
        };
        return new DiscreteGaussianSampler(source, 1, 1);
    }
}
