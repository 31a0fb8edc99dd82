package io.privmat.mechanism.lowrank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.mechanism.linalg.NumericalFailureException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The in-place thin Q is {@link Dense#thinQ}'s, bit for bit, on every shape and kind of value the
 * range finder can give it (Hardt–Roth's seeded releases depend on it): Gaussian, integers with
 * ties and exact zeros, signed zeros, negative diagonals, entries near overflow and underflow, a
 * square matrix, a single column; and a rank-deficient column fails as it does there.
 */
class InPlaceQrTest {

    @Test
    void theInPlaceQIsTheLibrarysBitForBit() {
        SplittableRandom r = new SplittableRandom(34);
        int[][] shapes = {{1, 1}, {2, 1}, {2, 2}, {5, 5}, {7, 3}, {40, 20}, {301, 20}, {1000, 1}, {64, 63}, {2048, 30}};
        int compared = 0;
        for (int[] shape : shapes) {
            int m = shape[0];
            int n = shape[1];
            for (int kind = 0; kind < 5; kind++) {
                double[] a = new double[m * n];
                for (int i = 0; i < a.length; i++) {
                    a[i] = switch (kind) {
                        case 0 -> r.nextGaussian();
                        case 1 -> r.nextInt(-3, 4); // ties, exact zeros, negative diagonals
                        case 2 -> r.nextGaussian() * 1e300;
                        case 3 -> r.nextGaussian() * 1e-300;
                        default -> r.nextBoolean() ? -0.0 : r.nextGaussian() * Math.scalb(1.0, r.nextInt(-40, 40));
                    };
                }
                for (int j = 0; j < n; j++) {
                    a[j * n + j] = a[j * n + j] == 0 ? 1 : a[j * n + j]; // full rank (integers: almost surely)
                }
                double[] expected;
                try {
                    expected = Dense.thinQ(a.clone(), m, n);
                } catch (NumericalFailureException e) {
                    assertThatThrownBy(() -> InPlaceQr.thinQ(a.clone(), m, n)).isInstanceOf(NumericalFailureException.class);
                    continue;
                }
                double[] copy = a.clone();
                double[] got = InPlaceQr.thinQ(copy, m, n);
                assertThat(got).as("%d × %d, kind %d", m, n, kind).isSameAs(copy);
                for (int i = 0; i < got.length; i++) {
                    // Bits, not values: signed zeros and NaN included.
                    assertThat(Double.doubleToRawLongBits(got[i])).as("%d × %d, kind %d, entry %d", m, n, kind, i)
                            .isEqualTo(Double.doubleToRawLongBits(expected[i]));
                }
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(40);
    }

    @Test
    void aRankDeficientColumnFailsAsTheLibrarysDoes() {
        double[] a = {1, 0, 2, 0, 3, 0}; // 3 × 2, second column zero
        assertThatThrownBy(() -> Dense.thinQ(a.clone(), 3, 2)).isInstanceOf(NumericalFailureException.class);
        assertThatThrownBy(() -> InPlaceQr.thinQ(a.clone(), 3, 2)).isInstanceOf(NumericalFailureException.class);
    }
}
