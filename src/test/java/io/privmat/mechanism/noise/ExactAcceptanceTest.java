package io.privmat.mechanism.noise;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.privacy.StandardNormal;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sampler's merged acceptance, Bernoulli(exp(−u/t − a/d)) decided as U &lt; p from a double
 * approximation and, where that cannot decide, exactly computed digits
 * ({@link DiscreteGaussianSampler#acceptFast}, {@link ExpMinusExpansion}): decisions and bits
 * consumed against a reference computed from the exact expansion alone, the exact fallback forced
 * and checked, the expansion against independent computations, and the samples against the exact
 * pmf at large σ (the release grid's) with a negative control. Fixed seeds throughout.
 */
class ExactAcceptanceTest {

    /** σ of the randomized-response release's grid plan (Fashion-MNIST, k = 10, ε = 1, δ = 1e-6). */
    private static final long PLAN_SIGMA = 141_825_918L;

    /**
     * Many decisions in a row on one random bit stream: each must be U &lt; p for U the stream's
     * bits from where the previous decision stopped, and must consume exactly the bits up to U's
     * first difference from p (else every later decision reads the wrong bits and disagrees).
     */
    @ParameterizedTest(name = "sigma = {0}")
    @CsvSource({"1", "3", "15279", "141825918", "2147483647"})
    void decisionsAndBitsConsumedAreThoseOfTheExactComparison(long sigma) {
        SplittableRandom random = new SplittableRandom(sigma);
        int decisions = 3_000;
        int[] words = new int[decisions * 8];
        for (int i = 0; i < words.length; i++) {
            words[i] = random.nextInt();
        }
        BigInteger stream = toBits(words);
        int streamBits = words.length * 32;
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.scripted(words), sigma * sigma, 1);
        BigInteger t = BigInteger.valueOf(sigma);
        BigInteger d = BigInteger.valueOf(2 * sigma * sigma);
        int position = 0;
        for (int k = 0; k < decisions; k++) {
            long u = sigma == 1 ? 0 : random.nextLong(sigma);
            // a = (x − σ)² for a plausible x, sometimes far in the tail (p tiny), sometimes 0.
            long offset = Math.min(3_000_000_000L, switch (k % 4) {
                case 0 -> 0;
                case 1 -> random.nextLong(4 * sigma + 1);
                case 2 -> random.nextLong(sigma / 8 + 1);
                default -> random.nextLong(12 * sigma + 1);
            }); // a < 2^63
            long a = offset * offset;
            BigInteger num = BigInteger.valueOf(u).multiply(d).add(BigInteger.valueOf(a).multiply(t));
            BigInteger den = t.multiply(d);
            boolean expected;
            if (num.signum() == 0) {
                expected = true; // p = 1: no bits
            } else {
                BigInteger digits = ExpMinusExpansion.bits(num, den, 256);
                int i = 0;
                while (digits.testBit(255 - i) == stream.testBit(streamBits - 1 - (position + i))) {
                    i++;
                }
                expected = digits.testBit(255 - i);
                position += i + 1;
            }
            assertThat(sampler.acceptFast(u, a)).as("decision %d, u %d, a %d", k, u, a).isEqualTo(expected);
        }
        assertThat(position).isLessThan(streamBits - 64);
    }

    /**
     * U's bits equal to p's first 100 digits, then differing: the fast comparison cannot decide
     * (it certifies at most 62 digits), the exact expansion decides, on the same U.
     */
    @Test
    void theExactFallbackDecidesWhenTheCertifiedDigitsAllAgree() {
        long u = 12_345_678;
        long a = 987_654_321_012L;
        BigInteger t = BigInteger.valueOf(PLAN_SIGMA);
        BigInteger d = BigInteger.valueOf(2 * PLAN_SIGMA * PLAN_SIGMA);
        BigInteger num = BigInteger.valueOf(u).multiply(d).add(BigInteger.valueOf(a).multiply(t));
        BigInteger den = t.multiply(d);
        BigInteger digits = ExpMinusExpansion.bits(num, den, 128);
        for (boolean flip : new boolean[] {false, true}) {
            // 128 digits of p with digit 100 flipped, or with digits 100.. all agreeing and digit 101 flipped.
            int at = flip ? 101 : 100;
            BigInteger bits = digits.flipBit(127 - at);
            DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.scripted(words(bits, 128)),
                    PLAN_SIGMA * PLAN_SIGMA, 1);
            boolean decision = sampler.acceptFast(u, a);
            assertThat(decision).isEqualTo(digits.testBit(127 - at));
            assertThat(sampler.exactFallbacks()).isEqualTo(1);
        }
    }

    /**
     * p within 2^−50 of 1/2, where the approximation's interval straddles a digit boundary and no
     * digit is certified: every decision goes to the exact expansion and still has frequency p.
     */
    @Test
    void aProbabilityNextToADyadicGoesToTheExpansionAndKeepsItsFrequency() {
        BigInteger t = BigInteger.valueOf(PLAN_SIGMA);
        BigInteger d = BigInteger.valueOf(2 * PLAN_SIGMA * PLAN_SIGMA);
        // γ = u/t + a/d ≈ ln 2 to within 1/d ≈ 2^−55.
        BigDecimal ln2 = new BigDecimal("0.69314718055994530941723212145817656807550013436025525412068");
        long u = ln2.multiply(new BigDecimal(t)).longValue();
        long a = ln2.subtract(new BigDecimal(u).divide(new BigDecimal(t), MathContext.DECIMAL128))
                .multiply(new BigDecimal(d)).longValue();
        BigInteger num = BigInteger.valueOf(u).multiply(d).add(BigInteger.valueOf(a).multiply(t));
        BigInteger den = t.multiply(d);
        BigInteger half = ExpMinusExpansion.bits(num, den, 50);
        assertThat(half).as("p in [1/2, 1/2 + 2^-50)").isEqualTo(BigInteger.ONE.shiftLeft(49));
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.seeded(2), PLAN_SIGMA * PLAN_SIGMA, 1);
        int n = 20_000;
        int hits = 0;
        for (int i = 0; i < n; i++) {
            hits += sampler.acceptFast(u, a) ? 1 : 0;
        }
        assertThat(sampler.exactFallbacks()).isEqualTo(n);
        assertThat(Math.abs((hits - n * 0.5) / Math.sqrt(n * 0.25))).as("hits %d", hits).isLessThan(5);
    }

    /** Frequencies of the fast decisions at several γ: |z| &lt; 5 on 400 000 draws, no fallback. */
    @ParameterizedTest(name = "u = {0}, a = {1}")
    @CsvSource({"70912959, 0", "1, 40229656044302724", "141825917, 80459312088605448", "0, 160000000000000000",
        "100000000, 400000000000000000"})
    void fastDecisionsHaveTheirProbabilities(long u, long a) {
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.seeded(u ^ a), PLAN_SIGMA * PLAN_SIGMA, 1);
        double p = Math.exp(-((double) u / PLAN_SIGMA + (double) a / (2.0 * PLAN_SIGMA * PLAN_SIGMA)));
        int n = 400_000;
        int hits = 0;
        for (int i = 0; i < n; i++) {
            hits += sampler.acceptFast(u, a) ? 1 : 0;
        }
        assertThat(Math.abs((hits - n * p) / Math.sqrt(n * p * (1 - p)))).as("hits %d for p = %s", hits, p).isLessThan(5);
        assertThat(sampler.exactFallbacks()).isZero();
    }

    /** The expansion against e^−1's own certified digits, e^−1/2 squared, and Math.exp. */
    @Test
    void theExpansionAgreesWithIndependentComputations() {
        for (int n : new int[] {1, 64, 128, 1000}) {
            assertThat(ExpMinusExpansion.bits(BigInteger.ONE, BigInteger.ONE, n)).isEqualTo(DiscreteGaussianSampler.expMinusOneBits(n));
            assertThat(ExpMinusExpansion.bits(BigInteger.TEN, BigInteger.TEN, n)).isEqualTo(DiscreteGaussianSampler.expMinusOneBits(n));
        }
        assertThat(ExpMinusExpansion.bits(BigInteger.ZERO, BigInteger.TWO, 10)).isEqualTo(BigInteger.ONE.shiftLeft(10));
        // (e^−1/2)²: ⌊2^(n+20)·e^−1/2⌋² / 2^(2n+40) is e^−1 from below within 2^−(n+19).
        int n = 300;
        BigInteger root = ExpMinusExpansion.bits(BigInteger.ONE, BigInteger.TWO, n + 20);
        BigInteger square = root.multiply(root).shiftRight(n + 40);
        BigInteger e = DiscreteGaussianSampler.expMinusOneBits(n);
        assertThat(square).isIn(e, e.subtract(BigInteger.ONE));
        // e^−3 = (e^−1)³ the same way, through the whole-part path.
        BigInteger cube = e.pow(3).shiftRight(2 * n);
        BigInteger three = ExpMinusExpansion.bits(BigInteger.valueOf(3), BigInteger.ONE, n);
        assertThat(three.subtract(cube).abs()).isLessThanOrEqualTo(BigInteger.valueOf(8));
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 2_000; i++) {
            long num = random.nextLong(1, 1L << 40);
            long den = random.nextLong(1, 1L << 40);
            double gamma = (double) num / den;
            double expected = Math.exp(-gamma);
            double got = ExpMinusExpansion.bits(BigInteger.valueOf(num), BigInteger.valueOf(den), 200).doubleValue() * 0x1p-200;
            // γ's rounding moves exp(−γ) by about γ·2^−53 relative, Math.exp by 1 ulp.
            assertThat(Math.abs(got - expected)).as("%d/%d", num, den)
                    .isLessThanOrEqualTo(expected * (gamma + 1) * 0x1p-50 + 0x1p-199);
        }
    }

    /**
     * Chi-square of the samples against the exact pmf of N_ℤ(0, σ²) at large σ, 40 equal-probability
     * bins with integer edges; at σ ≥ 10⁴ the bin masses Σ exp(−z²/2σ²) equal Φ's differences at the
     * half-integers to far below the test's resolution. 1e-6 critical value, 400 000 samples.
     */
    @ParameterizedTest(name = "sigma = {0}")
    // Binned proposal below 2^28; 300000001 by the merged Laplace proposal, whose proposals past
    // (x − s)² ≥ 2^63 (x > 11s: e^−11 of them) are decided by the exact expansion too.
    @CsvSource({"4096, 2", "15279, 2", "20971520, 2", "141825918, 2", "300000001, 40"})
    void largeSigmaMatchesTheExactPmf(long sigma, long maxExact) {
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.seeded(sigma), sigma * sigma, 1);
        long[] samples = new long[400_000];
        sampler.fill(samples, 0, samples.length);
        assertThat(chiSquare(samples, sigma).passes()).as("chi2 %s", chiSquare(samples, sigma)).isTrue();
        assertThat(sampler.exactFallbacks()).isLessThanOrEqualTo(maxExact);
    }

    /** Negative control: the same test rejects samples of σ 3 % larger, at the release's σ. */
    @Test
    void largeSigmaTestRejectsAThreePercentWrongScale() {
        long wrong = PLAN_SIGMA * 103 / 100;
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.seeded(3), wrong * wrong, 1);
        long[] samples = new long[400_000];
        sampler.fill(samples, 0, samples.length);
        assertThat(chiSquare(samples, PLAN_SIGMA).passes()).isFalse();
    }

    private static ChiSquare.Result chiSquare(long[] samples, long sigma) {
        int bins = 40;
        long[] edges = new long[bins + 1]; // bin b holds the integers in [edges[b], edges[b+1])
        edges[0] = Long.MIN_VALUE;
        edges[bins] = Long.MAX_VALUE;
        for (int b = 1; b < bins; b++) {
            edges[b] = Math.round(sigma * StandardNormal.upperQuantile(1 - (double) b / bins));
        }
        long[] observed = new long[bins];
        for (long z : samples) {
            int b = 0;
            while (z >= edges[b + 1]) {
                b++;
            }
            observed[b]++;
        }
        double stat = 0;
        for (int b = 0; b < bins; b++) {
            double lo = b == 0 ? 0 : StandardNormal.cdf((edges[b] - 0.5) / sigma);
            double hi = b == bins - 1 ? 1 : StandardNormal.cdf((edges[b + 1] - 0.5) / sigma);
            double expected = (hi - lo) * samples.length;
            stat += (observed[b] - expected) * (observed[b] - expected) / expected;
        }
        return new ChiSquare.Result(stat, bins - 1);
    }

    private static BigInteger toBits(int[] words) {
        BigInteger x = BigInteger.ZERO;
        for (int w : words) {
            x = x.shiftLeft(32).or(BigInteger.valueOf(w & 0xFFFFFFFFL));
        }
        return x;
    }

    /** The top-first 32-bit words of a {@code length}-bit string (length a multiple of 32). */
    private static int[] words(BigInteger bits, int length) {
        int[] words = new int[length / 32];
        for (int i = 0; i < words.length; i++) {
            words[i] = bits.shiftRight(length - 32 * (i + 1)).intValue();
        }
        return words;
    }
}
