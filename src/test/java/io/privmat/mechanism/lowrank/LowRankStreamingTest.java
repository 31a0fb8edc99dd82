package io.privmat.mechanism.lowrank;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.GaussianMatrices;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.support.LowRankFixtures;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Randomized response and Hardt–Roth hold only blocks of the rows and O((m + d)·ℓ) arrays
 * (docs/mechanisms/low-rank.md, memory): their releases are bit for bit those of the same
 * computations done on held copies — the noisy m × d matrix for randomized response, separate
 * Y, noisy Y and Q copies for Hardt–Roth — for a seeded source and uneven blocks.
 */
class LowRankStreamingTest {

    private static final int M = 2000;
    private static final int D = 30;
    private static final int K = 3;
    private static final int BLOCK = 333;

    private static double[] rows() {
        SplittableRandom r = new SplittableRandom(21);
        double[] x = new double[M * D];
        for (int i = 0; i < M; i++) {
            double norm = 0;
            for (int c = 0; c < D; c++) {
                x[i * D + c] = (c < 3 ? 1 + c : 0.2) * r.nextGaussian();
                norm += x[i * D + c] * x[i * D + c];
            }
            for (int c = 0; c < D; c++) {
                x[i * D + c] /= Math.max(1, Math.sqrt(norm));
            }
        }
        return x;
    }

    @Test
    void randomizedResponseEqualsTheReleaseFromTheHeldNoisyMatrix() {
        double[] x = rows();
        RandomizedResponseMechanism rr = RandomizedResponseMechanism.forRho(M, D, K, 1, 20);
        Factorization streamed = rr.release(LowRankFixtures.stream(x, M, D, BLOCK), TestNoiseSources.seeded(5));

        // The same mechanism with Ã = X + N held: the noise of each block from its own split of the
        // replayable stream, as the streamed release draws it in both passes.
        NoiseSource.Replayable replay = TestNoiseSources.seeded(5).replayable();
        NoiseSource noise = replay.open();
        double[] noisy = new double[M * D];
        GramAccumulator gram = new GramAccumulator(D);
        for (int start = 0; start < M; start += BLOCK) {
            int count = Math.min(BLOCK, M - start);
            GridNoise.addGaussianParallel(rr.plan(), x, start * D, count * D, noisy, noise.split());
            gram.addRows(noisy, start * D, count);
        }
        SymmetricEigen e = LinearAlgebra.eigen(gram.result(), D);
        double[] v = e.topVectors(K);
        double[] u = new double[M * K];
        // Block by block, as the release multiplies: one dgemm over all rows may sum in another order
        // (OpenBLAS picks kernels and thread splits by size), so only per-block products are bit-exact.
        for (int start = 0; start < M; start += BLOCK) {
            int count = Math.min(BLOCK, M - start);
            LinearAlgebraOps.multiply(Arrays.copyOfRange(noisy, start * D, (start + count) * D), count, D,
                    v, K, u, start * K);
        }
        for (int i = 0; i < M * K; i++) {
            u[i] /= Math.sqrt(e.values()[i % K]);
        }
        assertThat(streamed.v()).containsExactly(v);
        assertThat(streamed.s()[0]).isEqualTo(Math.sqrt(e.values()[0]));
        assertThat(streamed.u()).containsExactly(u);
        // And the noise is there: Ã differs from X.
        assertThat(noisy[0]).isNotEqualTo(x[0]);
    }

    @Test
    void hardtRothEqualsTheReleaseFromHeldCopies() {
        double[] x = rows();
        int l = K + 4;
        HardtRothMechanism hr = HardtRothMechanism.of(M, D, K, 4, 1, 2, BigDecimal.ONE, new BigDecimal("1e-6"));
        Factorization streamed = hr.release(LowRankFixtures.stream(x, M, D, BLOCK), TestNoiseSources.seeded(8));
        Factorization held = hr.release(heldCopies(x), TestNoiseSources.seeded(8));
        assertThat(streamed.u()).containsExactly(held.u());
        assertThat(streamed.v()).containsExactly(held.v());
        assertThat(streamed.s()).containsExactly(held.s());
        assertThat(streamed.facts()).isEqualTo(held.facts());

        // The range finder's basis from separate copies (Y, then a noisy Y, then a copy for the QR),
        // as the mechanism computed it before it wrote in place.
        NoiseSource random = TestNoiseSources.seeded(8);
        double[] omega = new double[D * l];
        GaussianMatrices.fillStandardNormal(omega, random);
        double[] y = new double[M * l];
        LinearAlgebraOps.multiply(x, M, D, omega, l, y);
        double[] noisyY = new double[M * l];
        GridNoise.addGaussianParallel(hr.rangeFinderPlan(), y, 0, y.length, noisyY, random.split());
        double[] q = Dense.thinQ(noisyY.clone(), M, l);
        double[] inPlace = noisyY.clone();
        assertThat(Dense.thinQ(inPlace, M, l)).containsExactly(q);
        assertThat(inPlace).as("thinQ leaves its input unchanged").containsExactly(noisyY);
        assertThat(q).isNotEmpty();
    }

    /**
     * Randomized response drawing the noise once and holding the noisy rows (what a job does where
     * the clean rows would be held between the passes) releases exactly what the two-pass release
     * does for the same seeded stream, reading the rows once instead of twice: tall with uneven
     * blocks, with shrinkage, and wide (where both already held the noisy matrix).
     */
    @Test
    void randomizedResponseDrawingOnceReleasesWhatTheTwoPassReleaseDoes() {
        double[] x = rows();
        RandomizedResponseMechanism tall = RandomizedResponseMechanism.forRho(M, D, K, 1, 20);
        for (RandomizedResponseMechanism rr : List.of(tall, tall.withShrinkage())) {
            int[] passes = new int[2];
            Factorization twice = rr.release(counted(LowRankFixtures.stream(x, M, D, BLOCK), passes, 0),
                    TestNoiseSources.seeded(5));
            Factorization once = rr.releaseHoldingNoise(counted(LowRankFixtures.stream(x, M, D, BLOCK), passes, 1),
                    TestNoiseSources.seeded(5));
            assertThat(passes).containsExactly(2, 1);
            assertSameRelease(once, twice);
            // The seed matters: another stream gives another release.
            assertThat(rr.releaseHoldingNoise(LowRankFixtures.stream(x, M, D, BLOCK), TestNoiseSources.seeded(6)).v())
                    .isNotEqualTo(once.v());
        }
        int wideM = 40;
        RandomizedResponseMechanism wide = RandomizedResponseMechanism.forRho(wideM, D * 3, K, 1, 20);
        double[] w = Arrays.copyOf(x, wideM * D * 3);
        assertSameRelease(wide.releaseHoldingNoise(LowRankFixtures.stream(w, wideM, D * 3, 7), TestNoiseSources.seeded(2)),
                wide.release(LowRankFixtures.stream(w, wideM, D * 3, 7), TestNoiseSources.seeded(2)));
    }

    private static void assertSameRelease(Factorization a, Factorization b) {
        assertThat(a.u()).containsExactly(b.u());
        assertThat(a.s()).containsExactly(b.s());
        assertThat(a.v()).containsExactly(b.v());
        assertThat(a.facts()).isEqualTo(b.facts());
    }

    /** {@code rows}, counting its passes in {@code passes[slot]}. */
    private static RowStream counted(RowStream rows, int[] passes, int slot) {
        return visitor -> {
            passes[slot]++;
            rows.forEachBlock(visitor);
        };
    }

    /** One block of all rows (a stream that hands out the whole matrix). */
    private static RowStream heldCopies(double[] x) {
        return visitor -> visitor.block(x.clone(), M, 0);
    }

}
