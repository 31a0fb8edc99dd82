package io.privmat.mechanism.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Laplace proposal's merged acceptance Bernoulli(exp(−u/t − a/d))
 * ({@link DiscreteGaussianSampler#acceptFast}) on scripted uniforms that agree with p's exact
 * digits up to digit k and differ there, k from 0 to 100, many decisions in a row on one stream:
 * each must be U &lt; p (p has the 1 at digit k) and must consume exactly k + 1 bits, or the next
 * decision reads the wrong bits. Random uniforms differ from p within a few digits, so they cannot
 * see p's approximation off by a relative 2^−30 or a digit claimed beyond the certified ones; these
 * decisions do, in the fast comparison (small k) and in the exact continuation (k past 62).
 */
class MergedAcceptanceDigitsTest {

    private static final int[] DIGIT = {0, 1, 2, 7, 20, 31, 32, 33, 40, 50, 55, 60, 61, 62, 63, 80, 100};

    @ParameterizedTest(name = "sigma = {0}")
    @CsvSource({"3", "15279", "141825918", "300000001", "2147483647"})
    void decisionsAtEveryDigitAreUBelowTheExactProbability(long sigma) {
        SplittableRandom random = new SplittableRandom(sigma);
        BigInteger t = BigInteger.valueOf(sigma);
        BigInteger d = BigInteger.valueOf(2 * sigma * sigma);
        int decisions = 600;
        long[] us = new long[decisions];
        long[] as = new long[decisions];
        boolean[] expected = new boolean[decisions];
        BigInteger stream = BigInteger.ZERO;
        int length = 0;
        for (int i = 0; i < decisions; i++) {
            long u = random.nextLong(sigma);
            long offset = Math.min(3_000_000_000L, switch (i % 4) {
                case 0 -> random.nextLong(sigma / 8 + 1);
                case 1 -> random.nextLong(4 * sigma + 1);
                case 2 -> random.nextLong(12 * sigma + 1); // γ past 64 at times: p < 2^−92
                default -> i % 8 == 3 ? 0 : random.nextLong(2 * sigma + 1);
            });
            long a = offset * offset;
            if (u == 0 && a == 0) {
                a = 1;
            }
            int k = DIGIT[i % DIGIT.length];
            BigInteger num = BigInteger.valueOf(u).multiply(d).add(BigInteger.valueOf(a).multiply(t));
            BigInteger digits = ExpMinusExpansion.bits(num, t.multiply(d), k + 1);
            us[i] = u;
            as[i] = a;
            expected[i] = digits.testBit(0);
            stream = stream.shiftLeft(k + 1).or(digits.flipBit(0));
            length += k + 1;
        }
        int[] words = new int[length / 32 + 2];
        stream = stream.shiftLeft(32 * words.length - length);
        for (int i = 0; i < words.length; i++) {
            words[i] = stream.shiftRight(32 * (words.length - 1 - i)).intValue();
        }
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.scripted(words), sigma * sigma, 1);
        int accepted = 0;
        for (int i = 0; i < decisions; i++) {
            assertThat(sampler.acceptFast(us[i], as[i])).as("decision %d: u %d, a %d, digit %d", i, us[i], as[i],
                    DIGIT[i % DIGIT.length]).isEqualTo(expected[i]);
            accepted += expected[i] ? 1 : 0;
        }
        assertThat(accepted).isBetween(1, decisions - 1);
        assertThat(sampler.exactFallbacks()).isGreaterThanOrEqualTo(2L * decisions / DIGIT.length);
    }
}
