package io.privmat.mechanism.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The factorisation's coefficients and error series, checked against dense matrices built
 * independently (EJML): C·C agrees with the window workload inside the band, and the streaming
 * error sums equal the row norms of A·C⁻¹.
 */
class BandedToeplitzTest {

    @ParameterizedTest
    @CsvSource({"7, 7", "7, 3", "7, 20", "1, 1", "10, 40", "100, 100"})
    void squareRootSquaresToTheWindowInsideTheBand(int w, int p) {
        double[] c = BandedToeplitz.windowSquareRoot(w, p);
        assertThat(c[0]).isEqualTo(1.0);
        for (int k = 0; k < p; k++) {
            double conv = 0;
            for (int j = 0; j <= k; j++) {
                conv += c[j] * c[k - j];
            }
            assertThat(conv).as("(c*c)_%d", k).isCloseTo(k < w ? 1.0 : 0.0, within(1e-12));
        }
    }

    @Test
    void withinTheWindowTheCoefficientsArePositiveAndDecreasing() {
        double[] c = BandedToeplitz.windowSquareRoot(50, 50);
        for (int k = 1; k < c.length; k++) {
            assertThat(c[k]).isPositive().isLessThan(c[k - 1]);
        }
    }

    @ParameterizedTest
    @CsvSource({"5, 5, 80", "5, 2, 80", "5, 12, 80", "12, 12, 150", "1, 1, 10"})
    void errorSumsAreTheRowNormsOfTheDenseDecoder(int w, int p, int n) {
        BandedToeplitz t = new BandedToeplitz(w, p);
        DMatrixRMaj a = new DMatrixRMaj(n, n);
        DMatrixRMaj c = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                if (i - j < w) {
                    a.set(i, j, 1);
                }
                if (i - j < p) {
                    c.set(i, j, t.c[i - j]);
                }
            }
        }
        DMatrixRMaj cInv = new DMatrixRMaj(n, n);
        assertThat(CommonOps_DDRM.invert(c, cInv)).isTrue();
        DMatrixRMaj b = new DMatrixRMaj(n, n);
        CommonOps_DDRM.mult(a, cInv, b);
        double maxColumn = 0;
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += c.get(i, j) * c.get(i, j);
            }
            maxColumn = Math.max(maxColumn, s);
        }
        assertThat(t.normSquared).isCloseTo(maxColumn, within(1e-12));
        for (int row = 0; row < n; row++) {
            double sq = 0;
            double abs = 0;
            for (int j = 0; j < n; j++) {
                sq += b.get(row, j) * b.get(row, j);
                abs += Math.abs(b.get(row, j));
            }
            assertThat(t.errorSquares(row)).as("row %d", row).isCloseTo(sq, within(1e-9 * Math.max(1, sq)));
            assertThat(t.errorAbs(row)).isCloseTo(abs, within(1e-9 * Math.max(1, abs)));
        }
    }

    @Test
    void errorSumsConvergeSoLateBlocksUseTheLimit() {
        BandedToeplitz t = new BandedToeplitz(100, 100);
        double late = t.errorSquares(1_000_000_000L);
        assertThat(late).isCloseTo(t.errorSquares(20_000), within(1e-9 * late));
        assertThat(late).isGreaterThan(1);
    }

    /**
     * A replacement that moves a row a from block s to block s + l (a TIME stream under REPLACE_ONE
     * whose neighbour changes the row's event time) moves release t by (c_{t−s} − c_{t−s−l})·aaᵀ.
     * Summed here release by release for a unit Gram, over every lag, and divided by the charged
     * √2·‖c‖ (the REPLACE_ONE sensitivity at B = 1): the worst ratios of the review's table, and
     * {@link BandedToeplitz#movedRowFactor()} computes the same from the autocorrelation.
     */
    @ParameterizedTest
    @CsvSource({"10, 20, 1.086", "10, 40, 1.076", "100, 200, 1.118", "100, 400, 1.103", "10, 10, 1", "100, 100, 1"})
    void movingARowBetweenBlocksCostsMoreThanTheChargeOnlyWithMoreBandsThanTheWindow(int w, int p, double expected) {
        double[] c = BandedToeplitz.windowSquareRoot(w, p);
        double norm = Math.sqrt(new BandedToeplitz(w, p).normSquared);
        double worst = 0;
        for (int lag = 1; lag <= p + 1; lag++) {
            double squares = 0;
            for (int t = 0; t < p + lag; t++) { // release t after block s = 0
                double removed = t < p ? c[t] : 0;
                double added = t >= lag && t - lag < p ? c[t - lag] : 0;
                squares += (added - removed) * (added - removed);
            }
            worst = Math.max(worst, Math.sqrt(squares) / (Math.sqrt(2) * norm));
        }
        assertThat(worst).isCloseTo(expected, within(5e-4));
        assertThat(new BandedToeplitz(w, p).movedRowFactor()).isCloseTo(worst, within(1e-12));
    }

    /** For w ≥ 2 a moved row stays within the charge exactly when p ≤ w (so that is the cap). */
    @Test
    void theMovedRowFactorIsOneExactlyUpToTheWindow() {
        for (int w = 2; w <= 40; w++) {
            for (int p = 1; p <= 4 * w; p++) {
                double factor = new BandedToeplitz(w, p).movedRowFactor();
                if (p <= w) {
                    assertThat(factor).as("w = %d, p = %d", w, p).isEqualTo(1.0);
                } else {
                    assertThat(factor).as("w = %d, p = %d", w, p).isGreaterThan(1.0 + 1e-3);
                }
            }
        }
    }

    @Test
    void oneBandIsDisjointBlocks() {
        BandedToeplitz t = new BandedToeplitz(10, 1);
        assertThat(t.normSquared).isEqualTo(1.0);
        for (long block = 0; block < 40; block++) {
            assertThat(t.errorSquares(block)).isCloseTo(Math.min(block + 1, 10), within(1e-12));
        }
    }
}
