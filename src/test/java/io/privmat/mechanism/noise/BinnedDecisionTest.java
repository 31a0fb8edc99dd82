package io.privmat.mechanism.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The binned proposal's every step with scripted bits ({@link DiscreteGaussianSampler} over
 * {@link GaussianBins}): the bits that choose an entry, the offset, the sign, then a uniform U whose
 * first k bits equal the exact probability p's first k digits and whose bit k differs. The sampler
 * must accept exactly when p has the 1 at digit k (U &lt; p) and, when it rejects, must have consumed
 * exactly the bits up to there: the stream then holds a proposal of 0 with a plus sign, which
 * returns 0 at once. p is computed here from the rule in docs/mechanisms/noise.md alone (certified
 * digits of exp(−x²/(2s²))·2^16/H_j for a bin, of exp(−x²/(2s²))·T·2^(v+17)/w for the tail), so a
 * wrong weight, acceptance, tail factor, fallback or zero rule in the sampler changes a decision:
 * with k up to 100 these decisions see relative errors in p down to 2^−100, far below what any
 * sample-count test resolves, and they cover the fast comparison (k below the certified digits) and
 * the exact continuation (k past them).
 */
class BinnedDecisionTest {

    private static final int[] DIGIT = {0, 1, 5, 20, 33, 45, 58, 61, 62, 75, 100};

    @ParameterizedTest(name = "s = {0}")
    @CsvSource({"4096", "4101", "15279", "141825918", "268435455"})
    void bodyDecisionsAreUBelowTheExactProbability(long s) {
        GaussianBins bins = GaussianBins.forSigma(s);
        long w = bins.w;
        long[] xs = {1, 2, w - 1, w, w + 1, 37 * w + 5, 100 * w + w / 2, 251 * w + 3, 399 * w, bins.x0 - 1};
        int decisions = 0;
        int accepted = 0;
        long fallbacks = 0;
        for (long x : xs) {
            for (int k : DIGIT) {
                for (boolean negative : new boolean[] {false, true}) {
                    // p's digits 0..k: ⌊2^(k+1)·p⌋, p = exp(−x²/(2s²))·2^16/H_j.
                    BigInteger digits = bodyDigits(bins, x, k + 1);
                    boolean accept = digits.testBit(0);
                    Bits stream = new Bits();
                    proposeInBody(stream, bins, x, negative);
                    stream.add(digits.flipBit(0), k + 1);
                    proposeZero(stream, bins);
                    DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.scripted(stream.words()), s * s, 1);
                    long sample = sampler.next();
                    assertThat(sample).as("s %d, x %d, k %d, negative %s", s, x, k, negative)
                            .isEqualTo(accept ? (negative ? -x : x) : 0);
                    decisions++;
                    accepted += accept ? 1 : 0;
                    fallbacks += sampler.exactFallbacks();
                }
            }
        }
        // Both outcomes occur, and past the 62 certified digits the exact expansion decided.
        assertThat(accepted).isBetween(1, decisions - 1);
        assertThat(fallbacks).isGreaterThanOrEqualTo(2L * xs.length * 2);
    }

    /**
     * 0 is proposed with either sign: a plus sign returns 0 without a uniform, a minus sign restarts
     * (0 is counted once); proposals follow each other in the stream with no bit skipped.
     */
    @Test
    void zeroIsReturnedOnceAndAMinusZeroRestarts() {
        long s = 15279;
        GaussianBins bins = GaussianBins.forSigma(s);
        long x = 3 * bins.w + 1;
        Bits stream = new Bits();
        proposeInBody(stream, bins, 0, true); // −0: restart
        proposeInBody(stream, bins, x, true);
        uniform(stream, bins, x, true);
        proposeInBody(stream, bins, 0, false);
        proposeInBody(stream, bins, 0, true);
        proposeInBody(stream, bins, 0, true);
        proposeInBody(stream, bins, 7, false);
        uniform(stream, bins, 7, false); // rejected
        proposeInBody(stream, bins, 0, true);
        proposeInBody(stream, bins, 9, true);
        uniform(stream, bins, 9, true);
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.scripted(stream.words()), s * s, 1);
        assertThat(sampler.next()).isEqualTo(-x);
        assertThat(sampler.next()).isZero();
        assertThat(sampler.next()).isEqualTo(-9);
    }

    /**
     * U's bits up to p's first digit that is 1 (accept) or 0 (reject), that digit flipped: U &lt; p
     * or U &gt; p, decided there.
     */
    private static void uniform(Bits stream, GaussianBins bins, long x, boolean accept) {
        BigInteger digits = bodyDigits(bins, x, 200);
        int k = 0;
        while (digits.testBit(199 - k) != accept) {
            k++;
        }
        stream.add(digits.shiftRight(199 - k).flipBit(0), k + 1);
    }

    /** ⌊2^n·p⌋, p = exp(−x²/(2s²))·2^16/H_j for x in bin j. */
    private static BigInteger bodyDigits(GaussianBins bins, long x, int n) {
        return ExpMinusExpansion.bits(BigInteger.valueOf(x).pow(2), BigInteger.valueOf(bins.s).pow(2).shiftLeft(1),
                BigInteger.ONE.shiftLeft(16), BigInteger.valueOf(bins.weight[(int) (x / bins.w)]), n);
    }

    /**
     * The tail entry: x = X₀ + u + T·v with u from the next 32 bits, v ones and a zero, a sign,
     * then U equal to p's first k digits and different at digit k, p = exp(−x²/(2s²))·T·2^(v+17)/w.
     */
    @ParameterizedTest(name = "s = {0}")
    @CsvSource({"4096", "20971520", "268435455"})
    void tailDecisionsAreUBelowTheExactProbability(long s) {
        GaussianBins bins = GaussianBins.forSigma(s);
        long t = bins.tailScale;
        int decisions = 0;
        int accepted = 0;
        for (int v : new int[] {0, 1, 3}) {
            for (int uWord : new int[] {0x00000010, 0x12345678, 0xFFFFFF00}) {
                // u below T from 32 bits x: ⌊x·T/2^32⌋ unless (x·T mod 2^32) < 2^32 mod T (rejected).
                long word = uWord & 0xFFFFFFFFL;
                while ((word * t & 0xFFFFFFFFL) < (1L << 32) % t) {
                    word++;
                }
                long u = (word * t) >>> 32;
                BigInteger x = BigInteger.valueOf(bins.x0 + u + t * v);
                for (int k : new int[] {3, 25, 30, 40, 61, 100}) {
                    for (boolean negative : new boolean[] {false, true}) {
                        BigInteger digits = ExpMinusExpansion.bits(x.pow(2), BigInteger.valueOf(s).pow(2).shiftLeft(1),
                                BigInteger.valueOf(t).shiftLeft(v + 17), BigInteger.valueOf(bins.w), k + 1);
                        boolean accept = digits.testBit(0);
                        Bits stream = new Bits();
                        stream.add(BigInteger.valueOf(entryBits(bins, GaussianBins.TAIL)), 22);
                        stream.add(BigInteger.valueOf(word), 32);
                        stream.add(BigInteger.ONE.shiftLeft(v).subtract(BigInteger.ONE).shiftLeft(1), v + 1);
                        stream.add(negative ? BigInteger.ONE : BigInteger.ZERO, 1);
                        stream.add(digits.flipBit(0), k + 1);
                        proposeZero(stream, bins);
                        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.scripted(stream.words()), s * s, 1);
                        long expected = accept ? (negative ? -x.longValueExact() : x.longValueExact()) : 0;
                        assertThat(sampler.next()).as("s %d, u %d, v %d, k %d", s, u, v, k).isEqualTo(expected);
                        decisions++;
                        accepted += accept ? 1 : 0;
                    }
                }
            }
        }
        assertThat(accepted).isBetween(1, decisions - 1);
    }

    /** The 22 bits (slot, then units) by which the alias table picks entry e. */
    private static long entryBits(GaussianBins bins, int e) {
        int capacity = 1 << (GaussianBins.ENTRY_BITS - GaussianBins.SLOT_BITS);
        for (int i = 0; i < bins.threshold.length; i++) {
            if (bins.primary[i] == e && bins.threshold[i] > 0) {
                return ((long) i << 13) | (bins.threshold[i] - 1);
            }
            if (bins.alias[i] == e && bins.threshold[i] < capacity) {
                return ((long) i << 13) | (capacity - 1);
            }
        }
        throw new AssertionError("entry " + e + " has no units");
    }

    /** Bits proposing x ≥ 0 from its bin: the entry, the offset's bits for Lemire's method, the sign. */
    private static void proposeInBody(Bits stream, GaussianBins bins, long x, boolean negative) {
        int j = (int) (x / bins.w);
        long offset = x % bins.w;
        int length = bins.offsetBits;
        // r with ⌊r·w/2^L⌋ = offset and (r·w mod 2^L) ≥ 2^L mod w (not rejected).
        long r = ((offset << length) + bins.w - 1) / bins.w;
        while ((r * bins.w & ((1L << length) - 1)) < bins.offsetThreshold) {
            r++;
        }
        assertThat((r * bins.w) >>> length).isEqualTo(offset);
        stream.add(BigInteger.valueOf(entryBits(bins, j)), 22);
        stream.add(BigInteger.valueOf(r), length);
        stream.add(negative ? BigInteger.ONE : BigInteger.ZERO, 1);
    }

    /** Bits proposing 0 with a plus sign: the sampler returns 0 without reading a uniform. */
    private static void proposeZero(Bits stream, GaussianBins bins) {
        proposeInBody(stream, bins, 0, false);
    }

    /**
     * Every random bit comes through the sampler's buffer (32-bit reads, in order), so its samples
     * are a function of the stream alone, whenever the buffer is topped up: on the binned proposal
     * and on the Laplace one with t up to 2^31 (σ = 300 000 001 ≥ 2^28, σ = 2^31 − 1).
     */
    @ParameterizedTest(name = "sigma = {0}")
    @CsvSource({"3", "4096", "141825918", "300000001", "2147483647"})
    void theSamplerReadsTheSourceOnlyThirtyTwoBitsAtATime(long sigma) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(sigma);
        int[] words = new int[200_000];
        for (int i = 0; i < words.length; i++) {
            words[i] = random.nextInt();
        }
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.scripted(words), sigma * sigma, 1);
        long[] out = new long[20_000];
        sampler.fill(out, 0, out.length);
        assertThat(java.util.Arrays.stream(out).filter(z -> z != 0).count()).isPositive();
    }

    /** A bit string, most significant first, as 32-bit words padded with zeros. */
    private static final class Bits {
        private final List<Boolean> bits = new ArrayList<>();

        /** The low {@code length} bits of {@code value}, most significant first. */
        void add(BigInteger value, int length) {
            for (int i = length - 1; i >= 0; i--) {
                bits.add(value.testBit(i));
            }
        }

        int[] words() {
            int[] words = new int[(bits.size() + 31) / 32 + 1];
            for (int i = 0; i < bits.size(); i++) {
                if (bits.get(i)) {
                    words[i / 32] |= 1 << (31 - i % 32);
                }
            }
            return words;
        }
    }
}
