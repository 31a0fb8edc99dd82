package io.privmat.mechanism.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The binned proposal's tables and its tail ({@link GaussianBins}, {@link DiscreteGaussianSampler}):
 * the alias table gives every entry exactly its weight in units of 2^−22, the envelope covers f on
 * every bin (certified digits), the geometry the tail's acceptance bound rests on, and the tail
 * path run through with scripted bits. The samples' law at these σ is checked by
 * {@link ExactAcceptanceTest#largeSigmaMatchesTheExactPmf} and {@link DiscreteGaussianSamplerTest}.
 */
class GaussianBinsTest {

    @ParameterizedTest(name = "s = {0}")
    @CsvSource({"4096", "15279", "20971520", "141825918", "268435455"})
    void aliasTableGivesEveryEntryExactlyItsWeight(long s) {
        GaussianBins bins = new GaussianBins(s);
        long total = 0;
        for (int j = 0; j < GaussianBins.BINS; j++) {
            assertThat(bins.units(j)).as("bin %d", j).isEqualTo(bins.weight[j]);
            total += bins.weight[j];
        }
        assertThat(bins.units(GaussianBins.TAIL)).isEqualTo(1);
        assertThat(bins.units(GaussianBins.REJECT)).isEqualTo((1L << 22) - total - 1);
        for (int e = GaussianBins.REJECT + 1; e < 512; e++) {
            assertThat(bins.units(e)).isZero();
        }
        // The rejection entry wastes little: under 3 % of proposals.
        assertThat((double) bins.units(GaussianBins.REJECT) / (1 << 22)).isLessThan(0.03);
    }

    /** H_j/2^16 ≥ f(j·w) = exp(−(j·w)²/(2s²)) > (H_j − 1)/2^16, on 200 certified digits; geometry of the tail. */
    @ParameterizedTest(name = "s = {0}")
    @CsvSource({"4096", "15279", "141825918", "268435455"})
    void envelopeCoversEachBinAndTheTailBoundHolds(long s) {
        GaussianBins bins = new GaussianBins(s);
        BigInteger twoSigmaSquared = BigInteger.valueOf(s).pow(2).shiftLeft(1);
        for (int j = 0; j < GaussianBins.BINS; j++) {
            BigInteger left = BigInteger.valueOf(j * bins.w);
            BigInteger f = ExpMinusExpansion.bits(left.multiply(left), twoSigmaSquared, 200);
            BigInteger h = BigInteger.valueOf(bins.weight[j]).shiftLeft(200 - 16);
            assertThat(h.compareTo(f)).as("bin %d covers f", j).isGreaterThanOrEqualTo(0);
            assertThat(h.subtract(BigInteger.ONE.shiftLeft(200 - 16)).compareTo(f)).as("bin %d tight", j).isLessThanOrEqualTo(0);
        }
        // X₀ ≥ 8s, T ≥ s, T/w = 50: the tail's acceptance ≤ e^−32·2^17·50 < 1.
        assertThat(BigInteger.valueOf(bins.x0).pow(2)).isGreaterThanOrEqualTo(BigInteger.valueOf(8 * s).pow(2));
        assertThat(bins.tailScale).isGreaterThanOrEqualTo(s).isEqualTo(50 * bins.w);
        assertThat(Math.exp(-32) * (1 << 17) * 50).isLessThan(1e-6);
    }

    /**
     * 4 000 000 samples at s = 4096 (w = 82) against the exact pmf in 400 equal-probability bins
     * over ±7s (1e-6 critical value): fine enough to see a wrong weight or acceptance in a few of
     * the envelope's bins.
     */
    @Test
    void manySamplesMatchTheExactPmfFinely() {
        long s = 4096;
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.seeded(4096), s * s, 1);
        long[] samples = new long[4_000_000];
        sampler.fill(samples, 0, samples.length);
        ChiSquare.Result result = ChiSquare.test(samples, -7 * s, 7 * s, z -> Math.exp(-(double) z * z / (2.0 * s * s)), 400);
        assertThat(result.passes()).as("chi2 %s", result).isTrue();
    }

    @Test
    void binsAreUsedForPerfectSquaresFromTwoToTheTwelveBelowTwoToTheTwentyEight() {
        assertThat(GaussianBins.forSigma(4095)).isNull();
        assertThat(GaussianBins.forSigma(4096)).isNotNull();
        assertThat(GaussianBins.forSigma((1L << 28) - 1)).isNotNull();
        assertThat(GaussianBins.forSigma(1L << 28)).isNull();
        assertThat(GaussianBins.forSigma(141_825_918)).isSameAs(GaussianBins.forSigma(141_825_918));
    }

    /**
     * Scripted bits choosing the tail entry, u from the next 32 bits, v = 0, a minus sign, then
     * U = 0 (the source's zeros): U &lt; p for any p &gt; 0, so the tail proposal x = X₀ + u is
     * accepted, through the exact expansion; with U's first bit 1 instead, p &lt; 10^−7 rejects it
     * and the next proposal follows.
     */
    @Test
    void theTailPathReturnsItsProposalWhenAccepted() {
        long s = 141_825_918;
        GaussianBins bins = GaussianBins.forSigma(s);
        int slot = -1;
        int units = 0;
        for (int i = 0; i < bins.alias.length && slot < 0; i++) {
            if (bins.primary[i] == GaussianBins.TAIL && bins.threshold[i] > 0) {
                slot = i;
                units = 0;
            } else if (bins.alias[i] == GaussianBins.TAIL && bins.threshold[i] < (1 << 13)) {
                slot = i;
                units = (1 << 13) - 1;
            }
        }
        assertThat(slot).isNotNegative();
        // u below T from 32 buffered bits x: ⌊x·T/2^32⌋ unless (x·T mod 2^32) < 2^32 mod T (then
        // 32 more): a word that is not rejected.
        long t = bins.tailScale;
        int uWord = 0x12345678;
        while (((uWord & 0xFFFFFFFFL) * t & 0xFFFFFFFFL) < (1L << 32) % t) {
            uWord++;
        }
        long u = ((uWord & 0xFFFFFFFFL) * t) >>> 32;
        // The stream: 22 bits for the entry, 32 for u, v = 0 (bit 0), sign 1, U's bits 0.
        int first = (((slot << 13) | units) << 10) | (uWord >>> 22);
        int second = (uWord << 10) | (1 << 8);
        DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(TestNoiseSources.scripted(first, second), s * s, 1);
        long sample = sampler.next();
        assertThat(sample).isEqualTo(-(bins.x0 + u));
        assertThat(sampler.exactFallbacks()).isEqualTo(1);
    }
}
