package io.privmat.mechanism.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigInteger;
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
        "233447841, 1", // the release grid for p = 1 (σ = 15 279 steps; binned proposal)
        "16777216, 1", "25000000, 1", // σ = 4096, 5000: the smallest binned ones
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

    /** Bernoulli(e^−1) frequency: |z| &lt; 5 on 400 000 draws. */
    @Test
    void expMinusOneComparisonHasItsProbability() {
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.seeded(5), 1, 1);
        int n = 400_000;
        int e = 0;
        for (int i = 0; i < n; i++) {
            e += sampler.lessThanExpMinusOne() ? 1 : 0;
        }
        double q = Math.exp(-1);
        assertThat(Math.abs((e - n * q) / Math.sqrt(n * q * (1 - q)))).as("e^-1 hits %d", e).isLessThan(5);
    }

    /**
     * Scripted bits: 32 random bits equal to the first 32 digits of e^−1, then the decision falls
     * on the next differing bit (U below the constant exactly when the constant has the 1 there).
     */
    @Test
    void expMinusOneComparisonContinuesExactlyAfterThirtyTwoEqualDigits() {
        int top = (int) (DiscreteGaussianSampler.EXP_MINUS_ONE_WORD >>> 32);
        boolean digit32 = DiscreteGaussianSampler.expMinusOneDigit(32);
        int differing = digit32 ? 0x00000000 : 0x80000000;
        assertThat(scripted(top, differing).lessThanExpMinusOne()).isEqualTo(digit32);
        // First difference at digit 6 (e^−1 has a 1 there: 0x5E = 0101 1110): U below.
        assertThat(scripted(top ^ 0x02000000, 0).lessThanExpMinusOne()).isEqualTo(((top >>> 25) & 1) == 1);
    }

    /** A sampler over a source that yields the given 32-bit words, then zeros. */
    private static DiscreteGaussianSampler scripted(int... words) {
        return new DiscreteGaussianSampler(TestNoiseSources.scripted(words), 1, 1);
    }
}
