package io.privmat.mechanism.linalg;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.RowStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FixedPointWeightedSumsTest {

    static final int D = 7;
    static final int L = 3;
    static final double B = 1.7;

    static double[] rows(int m, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[m * D];
        for (int i = 0; i < x.length; i++) {
            x[i] = r.nextGaussian() * (i % 5 == 0 ? 2 : 0.3);
        }
        return x;
    }

    static double[] weights(int m, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] a = new double[m * L];
        for (int i = 0; i < a.length; i++) {
            a[i] = FixedPointWeightedSums.onGrid(r.nextDouble(-1, 1) / Math.sqrt(m));
        }
        return a;
    }

    @Test
    void theSumDoesNotDependOnHowThePairsAreSplitAndEqualsTheExactSum() {
        int m = 1001;
        double[] x = rows(m, 1);
        double[] a = weights(m, 2);
        FixedPointWeightedSums whole = new FixedPointWeightedSums(D, L, B);
        whole.addRows(a, 0, x, 0, m);
        // Three uneven parts, merged in another order.
        int[] cuts = {0, 17, 640, m};
        FixedPointWeightedSums.State merged = null;
        for (int p = cuts.length - 2; p >= 0; p--) {
            FixedPointWeightedSums part = new FixedPointWeightedSums(D, L, B);
            part.addRows(a, cuts[p] * L, x, cuts[p] * D, cuts[p + 1] - cuts[p]);
            merged = merged == null ? part.state() : FixedPointWeightedSums.merge(merged, part.state());
        }
        assertThat(merged).isEqualTo(whole.state());
        assertThat(FixedPointWeightedSums.of(merged).result()).containsExactly(whole.result());
        assertThat(merged.rows()).isEqualTo(m);

        // Against the exact sum of the quantised pairs (BigDecimal): one rounding of the integer, one scaling.
        double h = Math.scalb(B, -FixedPointGram.FRACTION_BITS);
        BigDecimal[] exact = new BigDecimal[L * D];
        java.util.Arrays.fill(exact, BigDecimal.ZERO);
        long[] c = new long[D];
        for (int i = 0; i < m; i++) {
            FixedPointGram.quantize(x, i * D, D, B, c);
            for (int t = 0; t < L; t++) {
                for (int j = 0; j < D; j++) {
                    exact[t * D + j] = exact[t * D + j].add(new BigDecimal(a[i * L + t]).multiply(BigDecimal.valueOf(c[j])).multiply(new BigDecimal(h)));
                }
            }
        }
        double[] got = whole.result();
        for (int p = 0; p < got.length; p++) {
            double e = exact[p].round(MathContext.DECIMAL128).doubleValue();
            assertThat(got[p]).isCloseTo(e, org.assertj.core.data.Offset.offset(4 * Math.ulp(e)));
        }
    }

    @Test
    void productsAtTheGridsBoundsStayExact() {
        // Every row has all of its norm on one entry (c = 2²²) and every weight is ±1 (a = ±2³⁸, high
        // half ±2¹⁹): a full block's sums reach 2¹¹·2⁴¹ = 2⁵², the most the blocks allow; two full
        // blocks and a partial one. A larger block would round, a missing carry would wrap.
        int m = 4099;
        double bound = 2; // a power of two: the row (2, 0, …) is exactly 2²² grid steps
        double[] x = new double[m * D];
        double[] a = new double[m * L];
        for (int i = 0; i < m; i++) {
            x[i * D] = bound;
            a[i * L] = 1;
            a[i * L + 1] = -1;
            a[i * L + 2] = i % 2 == 0 ? 1 : -1;
        }
        FixedPointWeightedSums s = new FixedPointWeightedSums(D, L, bound);
        s.addRows(a, 0, x, 0, m);
        double[] out = s.result();
        assertThat(out[0]).isEqualTo(m * bound);
        assertThat(out[D]).isEqualTo(-m * bound);
        assertThat(out[2 * D]).isEqualTo(bound); // 2050 − 2049
        assertThat(out[1]).isZero();
    }

    @Test
    void weightsAreRoundedToTheGridAndClampedToPlusMinusOne() {
        assertThat(FixedPointWeightedSums.onGrid(0.3)).isEqualTo(Math.rint(0.3 * 0x1p38) / 0x1p38);
        assertThat(FixedPointWeightedSums.onGrid(1.0000001)).isEqualTo(1.0);
        assertThat(FixedPointWeightedSums.onGrid(-7)).isEqualTo(-1.0);
        assertThat(FixedPointWeightedSums.onGrid(Double.NaN)).isZero();
        double w = FixedPointWeightedSums.onGrid(0.123456789);
        assertThat(FixedPointWeightedSums.onGrid(w)).isEqualTo(w);
    }

    @Test
    void aRowStreamsProjectionAndWeightedSumsDoNotDependOnTheBlocks() {
        int m = 523;
        double[] x = rows(m, 3);
        double[] w = new double[D * L];
        SplittableRandom r = new SplittableRandom(4);
        for (int i = 0; i < w.length; i++) {
            w[i] = r.nextGaussian();
        }
        double[] a = weights(m, 5);
        double[] y1 = new double[m * L];
        double[] y2 = new double[m * L];
        stream(x, m, 1).project(w, L, y1);
        stream(x, m, 100).project(w, L, y2);
        assertThat(y2).containsExactly(y1);
        // Row by row in a fixed order: not what a blocked BLAS product gives in general, but close to it.
        double[] blas = new double[m * L];
        LinearAlgebraOps.multiply(x, m, D, w, L, blas);
        for (int i = 0; i < blas.length; i++) {
            assertThat(y1[i]).isCloseTo(blas[i], org.assertj.core.data.Offset.offset(1e-12));
        }
        assertThat(stream(x, m, 7).weightedSums(a, L, D, B)).containsExactly(stream(x, m, 512).weightedSums(a, L, D, B));
    }

    static RowStream stream(double[] x, int m, int block) {
        return visitor -> {
            for (int first = 0; first < m; first += block) {
                int count = Math.min(block, m - first);
                visitor.block(java.util.Arrays.copyOfRange(x, first * D, (first + count) * D), count, first);
            }
        };
    }
}
