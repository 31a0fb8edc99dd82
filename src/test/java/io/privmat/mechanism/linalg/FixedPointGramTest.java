package io.privmat.mechanism.linalg;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The fixed-point Gram: exact (equal to a BigInteger computation), the same bit for bit however the
 * rows are split and merged, rows of norm at most B exactly, the declared sensitivities on
 * neighbouring inputs, and within its stated distance of the floating Gram of the clipped rows.
 */
class FixedPointGramTest {

    private static double[][] rows(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            double scale = r.nextDouble() < 0.3 ? 5 : 0.4; // a third of the rows longer than B = 1
            for (int j = 0; j < d; j++) {
                x[i][j] = r.nextGaussian() * scale / Math.sqrt(d);
            }
        }
        return x;
    }

    private static FixedPointGram accumulate(double[][] x, int from, int to, double bound) {
        FixedPointGram g = new FixedPointGram(x[0].length, bound, true);
        for (int i = from; i < to; i++) {
            g.add(x[i], 0);
        }
        return g;
    }

    /**
     * Column sums carry like the Gram: 2⁴⁵ rows at the bound (built by doubling merges) sum to exactly
     * 2⁴⁵·B, where a single long would have wrapped to a negative sum after 2⁴¹ rows — a sign flip
     * between neighbours under ADD_REMOVE (docs/adr/0011-a-failure-is-an-output.md).
     */
    @Test
    void columnSumsDoNotWrapPastTwoToTheFortyOneRows() {
        FixedPointGram one = new FixedPointGram(2, 1.0, true);
        one.add(new double[] {-1.0, 0.0}, 0);
        FixedPointGram.State state = one.state();
        for (int doubling = 0; doubling < 45; doubling++) {
            state = FixedPointGram.merge(state, state);
        }
        FixedPointGram all = FixedPointGram.of(state);
        assertThat(all.rows()).isEqualTo(1L << 45);
        assertThat(all.columnSums()).containsExactly(-0x1p45, 0.0);
        // One more row at the bound still adds up (no wrap, no exception).
        all.add(new double[] {-1.0, 0.0}, 0);
        assertThat(all.columnSums()).containsExactly(-0x1p45 - 1, 0.0);
    }

    /**
     * The quantisation as first written (every norm summed in order, then compared with B), kept here
     * as the reference: the faster one (a certified estimate decides most rows) gives the same integers.
     */
    private static long[] quantizedAsFirstWritten(double[] row, int d, double bound) {
        long[] out = new long[d];
        double max = 0;
        for (int j = 0; j < d; j++) {
            if (!Double.isFinite(row[j])) {
                return out;
            }
            max = Math.max(max, Math.abs(row[j]));
        }
        if (max == 0) {
            return out;
        }
        double scaledSq = 0;
        for (int j = 0; j < d; j++) {
            double v = row[j] / max;
            scaledSq += v * v;
        }
        double norm = max * Math.sqrt(scaledSq);
        double divisor = norm > bound ? norm : bound;
        // Below 2⁻⁹⁰⁰ row and divisor scaled by 2²⁰⁰ first (2²²/divisor overflows below 2⁻¹⁰⁰²).
        double pre = divisor < 0x1p-900 ? 0x1p200 : 1;
        double factor = 0x1p22 / (divisor * pre);
        long squared = 0;
        for (int j = 0; j < d; j++) {
            out[j] = (long) (row[j] * pre * factor);
            squared += out[j] * out[j];
        }
        while (squared > 1L << 44) {
            int largest = 0;
            for (int j = 1; j < d; j++) {
                if (Math.abs(out[j]) > Math.abs(out[largest])) {
                    largest = j;
                }
            }
            long v = out[largest];
            long w = v - Long.signum(v);
            squared += w * w - v * v;
            out[largest] = w;
        }
        return out;
    }

    /**
     * Rows at every distance from the bound (norms B·(1 ± 2⁻ᵏ), and rows scaled to B exactly), of huge,
     * tiny and subnormal magnitude, with infinities and NaN, for several d and bounds: the quantisation
     * gives exactly the reference's integers.
     */
    @Test
    void quantisationIsTheReferenceOneBitForBit() {
        SplittableRandom r = new SplittableRandom(11);
        double[] bounds = {1, 2.5, 0.7, 1e-300, 3e300, 0x1p-1000, Double.MIN_NORMAL};
        int[] ds = {1, 2, 3, 4, 5, 7, 17, 784};
        int rowsChecked = 0;
        for (double bound : bounds) {
            for (int d : ds) {
                for (int i = 0; i < 400; i++) {
                    double[] x = new double[d];
                    for (int j = 0; j < d; j++) {
                        x[j] = r.nextGaussian();
                    }
                    double norm = 0;
                    for (double v : x) {
                        norm += v * v;
                    }
                    norm = Math.sqrt(norm);
                    int kind = i % 8;
                    double target = switch (kind) {
                        case 0 -> bound; // on the bound, up to the rounding of the scaling
                        case 1 -> bound * (1 + Math.scalb(1.0, -r.nextInt(1, 60)));
                        case 2 -> bound * (1 - Math.scalb(1.0, -r.nextInt(1, 60)));
                        case 3 -> bound * r.nextDouble(0, 1);
                        case 4 -> bound * r.nextDouble(1, 1e6);
                        case 5 -> Math.scalb(1.0, r.nextInt(-1074, 1020));
                        default -> bound * Math.scalb(1.0, r.nextInt(-40, 40));
                    };
                    for (int j = 0; j < d; j++) {
                        x[j] = x[j] / norm * target;
                    }
                    if (i % 50 == 49) {
                        x[r.nextInt(d)] = i % 100 == 49 ? Double.NaN : Double.NEGATIVE_INFINITY;
                    }
                    long[] q = new long[d];
                    FixedPointGram.quantize(x, 0, d, bound, q);
                    assertThat(q).as("bound %s, d %d, row %d", bound, d, i).containsExactly(
                            quantizedAsFirstWritten(x, d, bound));
                    rowsChecked++;
                }
            }
        }
        assertThat(rowsChecked).isEqualTo(bounds.length * ds.length * 400);
    }

    /**
     * add() quantises straight into its block as doubles and keeps the block's column sums in double:
     * over rows at every distance from the bound, huge, tiny, subnormal and non-finite, more than two
     * blocks of them, the accumulator holds exactly the Gram and column sums of {@link
     * FixedPointGram#quantize}'s integers (computed here in {@code long}s and BigIntegers), and its
     * column sums read before the last block is flushed are the same.
     */
    @Test
    void addedRowsHoldTheIntegersOfQuantize() {
        SplittableRandom r = new SplittableRandom(12);
        for (double bound : new double[] {1, 0.7, 3e300, Double.MIN_NORMAL}) {
            for (int d : new int[] {1, 3, 17, 64}) {
                int n = 2 * FixedPointGram.BLOCK_ROWS + 77;
                FixedPointGram g = new FixedPointGram(d, bound, true);
                BigInteger[] gram = new BigInteger[d * d];
                java.util.Arrays.fill(gram, BigInteger.ZERO);
                long[] sums = new long[d];
                long[] q = new long[d];
                for (int i = 0; i < n; i++) {
                    double[] x = new double[d];
                    double norm = 0;
                    for (int j = 0; j < d; j++) {
                        x[j] = r.nextGaussian();
                        norm += x[j] * x[j];
                    }
                    norm = Math.sqrt(norm);
                    double target = switch (i % 6) {
                        case 0 -> bound;
                        case 1 -> bound * (1 + Math.scalb(1.0, -r.nextInt(1, 60)));
                        case 2 -> bound * (1 - Math.scalb(1.0, -r.nextInt(1, 60)));
                        case 3 -> bound * r.nextDouble(1, 1e6);
                        case 4 -> Math.scalb(1.0, r.nextInt(-1074, 1020));
                        default -> bound * r.nextDouble(0, 1);
                    };
                    for (int j = 0; j < d; j++) {
                        x[j] = x[j] / norm * target;
                    }
                    if (i % 97 == 96) {
                        x[r.nextInt(d)] = i % 2 == 0 ? Double.NaN : Double.POSITIVE_INFINITY;
                    }
                    g.add(x, 0);
                    FixedPointGram.quantize(x, 0, d, bound, q);
                    for (int j = 0; j < d; j++) {
                        sums[j] += q[j];
                        for (int k = 0; k < d; k++) {
                            gram[j * d + k] = gram[j * d + k].add(BigInteger.valueOf(q[j] * q[k]));
                        }
                    }
                }
                double h = Math.scalb(bound, -FixedPointGram.FRACTION_BITS);
                double[] expectedSums = new double[d];
                for (int j = 0; j < d; j++) {
                    expectedSums[j] = sums[j] * h;
                }
                assertThat(g.columnSums()).as("bound %s, d %d", bound, d).containsExactly(expectedSums);
                FixedPointGram.State state = g.state();
                int p = 0;
                for (int j = 0; j < d; j++) {
                    assertThat(BigInteger.valueOf(state.sumsHi()[j]).shiftLeft(32).add(BigInteger.valueOf(state.sums()[j])))
                            .isEqualTo(BigInteger.valueOf(sums[j]));
                    for (int k = j; k < d; k++, p++) {
                        assertThat(BigInteger.valueOf(state.hi()[p]).shiftLeft(32).add(BigInteger.valueOf(state.lo()[p])))
                                .as("bound %s, d %d, (%d, %d)", bound, d, j, k).isEqualTo(gram[j * d + k]);
                    }
                }
                assertThat(g.rows()).isEqualTo(n);
            }
        }
    }

    /**
     * Bounds (and clipped norms) so small that 2²²/B overflows a double — a completion's clip may be
     * any positive number an analyst sends: the integers still lie on the grid (|q_j| ≤ 2²², Σq² ≤ 2⁴⁴)
     * and h·q is the clipped row to within one step per entry, computed here exactly in BigDecimal.
     * (Before the exact 2²⁰⁰ prescaling every nonzero q_j of such a row was ±(2⁶³ − 1).)
     */
    @Test
    void boundsBelowTwoToTheMinus1002StayOnTheGrid() {
        SplittableRandom r = new SplittableRandom(13);
        double[] bounds = {0x1p-1010, Double.MIN_NORMAL, 0x1p-1050, Double.MIN_VALUE * 1024, 0x1p-901, 0x1p-899};
        for (double bound : bounds) {
            for (int i = 0; i < 200; i++) {
                int d = 1 + r.nextInt(9);
                double[] x = new double[d];
                // Within the bound, at it, beyond it (clipped), and far beyond it (a normal-sized row).
                double target = switch (i % 4) {
                    case 0 -> bound * r.nextDouble(0.01, 1);
                    case 1 -> bound;
                    case 2 -> bound * r.nextDouble(1, 1000);
                    default -> r.nextDouble(0.1, 10);
                };
                double norm = 0;
                for (int j = 0; j < d; j++) {
                    x[j] = r.nextGaussian();
                    norm += x[j] * x[j];
                }
                norm = Math.sqrt(norm);
                for (int j = 0; j < d; j++) {
                    x[j] = x[j] / norm * target;
                }
                long[] q = new long[d];
                FixedPointGram.quantize(x, 0, d, bound, q);
                long squared = 0;
                for (int j = 0; j < d; j++) {
                    assertThat(Math.abs(q[j])).as("bound %s, row %d", bound, i).isLessThanOrEqualTo(1L << 22);
                    squared += q[j] * q[j];
                }
                assertThat(squared).isLessThanOrEqualTo(1L << 44);
                // h·q against x·min(1, B/‖x‖) in units of h = B·2⁻²²: q_j ≈ x_j·2²²/max(B, ‖x‖), ‖x‖ exact
                // in BigDecimal, within 2 steps plus the divisor's own precision: a norm computed in
                // subnormal doubles holds only a few bits (relative ulp/divisor up to 2⁻¹⁰ at 2¹⁰·MIN_VALUE),
                // where the grid bound (|q_j| ≤ 2²², Σq² ≤ 2⁴⁴, above) is what still holds exactly.
                java.math.BigDecimal exactSq = java.math.BigDecimal.ZERO;
                for (double v : x) {
                    exactSq = exactSq.add(new java.math.BigDecimal(v).pow(2));
                }
                java.math.BigDecimal exactNorm = exactSq.sqrt(java.math.MathContext.DECIMAL128);
                java.math.BigDecimal divisor = exactNorm.max(new java.math.BigDecimal(bound));
                for (int j = 0; j < d; j++) {
                    double expected = new java.math.BigDecimal(x[j]).multiply(java.math.BigDecimal.valueOf(1L << 22))
                            .divide(divisor, java.math.MathContext.DECIMAL64).doubleValue();
                    assertThat(Math.abs(q[j] - expected)).as("bound %s, row %d, entry %d", bound, i, j)
                            .isLessThanOrEqualTo(2.0 + Math.abs(expected)
                                    * Math.max(1e-6, 4 * Math.ulp(divisor.doubleValue()) / divisor.doubleValue()));
                }
            }
        }
    }

    @Test
    void splitAndMergedInAnyOrderGivesTheSameBits() {
        double[][] x = rows(1500, 17, 1);
        x[7][3] = Double.NaN; // becomes the zero row
        x[9][0] = Double.POSITIVE_INFINITY;
        x[11][2] = 1e300; // finite but huge: clipped, not the zero row
        FixedPointGram whole = accumulate(x, 0, x.length, 1.0);
        FixedPointGram a = accumulate(x, 0, 333, 1.0);
        FixedPointGram b = accumulate(x, 333, 1001, 1.0);
        FixedPointGram c = accumulate(x, 1001, x.length, 1.0);
        // Another order, and a round trip through the transported state.
        c.merge(FixedPointGram.of(a.state()));
        c.merge(b);
        assertThat(c.rows()).isEqualTo(whole.rows()).isEqualTo(1500);
        assertThat(c.gram()).containsExactly(whole.gram());
        assertThat(c.columnSums()).containsExactly(whole.columnSums());
        assertThat(c.state().hi()).containsExactly(whole.state().hi());
        assertThat(c.state().lo()).containsExactly(whole.state().lo());
        // The huge row was clipped to norm B along e₂: its square sits on the diagonal.
        FixedPointGram only = accumulate(x, 11, 12, 1.0);
        assertThat(only.gram()[2 * 17 + 2]).isGreaterThan(0.999_999);
        assertThat(accumulate(x, 7, 8, 1.0).gram()).containsOnly(0.0);
    }

    /**
     * The worst case for a block's exactness: every row of full blocks of {@value FixedPointGram#BLOCK_ROWS}
     * rows at the bound on one coordinate, q = 2²², so a diagonal entry of a block's Gram is
     * BLOCK_ROWS·2⁴⁴ = 2⁵³ — still an integer a double holds — and the Gram is n·B² exactly.
     */
    @Test
    void fullBlocksAtTheBoundOnOneCoordinateStayExact() {
        int n = 3 * FixedPointGram.BLOCK_ROWS + 5;
        FixedPointGram g = new FixedPointGram(2, 1.0, true);
        FixedPointGram negative = new FixedPointGram(2, 1.0, true);
        for (int i = 0; i < n; i++) {
            g.add(new double[] {1.0, 0.0}, 0);
            negative.add(new double[] {0.0, -1.0}, 0);
        }
        assertThat(g.gram()).containsExactly(n, 0, 0, 0);
        assertThat(negative.gram()).containsExactly(0, 0, 0, n);
        g.merge(negative);
        assertThat(g.gram()).containsExactly(n, 0, 0, n);
        assertThat(g.columnSums()).containsExactly(n, -n);
    }

    @Test
    void equalsTheExactIntegerGramAcrossCarries() {
        // More rows than CARRY_EVERY·BLOCK_ROWS, all near the bound, so the carries run.
        int n = 140_000;
        int d = 3;
        SplittableRandom r = new SplittableRandom(2);
        FixedPointGram g = new FixedPointGram(d, 2.5, true);
        BigInteger[][] exact = new BigInteger[d][d];
        BigInteger[] sums = new BigInteger[d];
        for (int j = 0; j < d; j++) {
            sums[j] = BigInteger.ZERO;
            for (int k = 0; k < d; k++) {
                exact[j][k] = BigInteger.ZERO;
            }
        }
        double[] row = new double[d];
        long[] q = new long[d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                row[j] = r.nextDouble() < 0.5 ? 2.5 : -1.4433756729740643; // norm ≈ B
            }
            g.add(row, 0);
            FixedPointGram.quantize(row, 0, d, 2.5, q);
            for (int j = 0; j < d; j++) {
                sums[j] = sums[j].add(BigInteger.valueOf(q[j]));
                for (int k = 0; k < d; k++) {
                    exact[j][k] = exact[j][k].add(BigInteger.valueOf(q[j] * q[k]));
                }
            }
        }
        double h = g.step();
        double[] gram = g.gram();
        double[] colSums = g.columnSums();
        for (int j = 0; j < d; j++) {
            assertThat(colSums[j]).isEqualTo(sums[j].longValueExact() * h);
            for (int k = 0; k < d; k++) {
                double expected = exact[j][k].doubleValue() * h * h;
                assertThat(gram[j * d + k]).as("(%d, %d)", j, k).isCloseTo(expected,
                        org.assertj.core.api.Assertions.within(Math.abs(expected) * 0x1p-51));
            }
        }
        // The state's integers are the exact sums: hi·2³² + lo.
        FixedPointGram.State s = g.state();
        assertThat(BigInteger.valueOf(s.hi()[1]).shiftLeft(32).add(BigInteger.valueOf(s.lo()[1])))
                .isEqualTo(exact[0][1]);
    }

    @Test
    void quantisedRowsHaveNormAtMostTheBoundExactly() {
        SplittableRandom r = new SplittableRandom(3);
        long[] q = new long[50];
        for (int t = 0; t < 20_000; t++) {
            double[] x = new double[50];
            double scale = Math.pow(10, r.nextInt(-300, 300));
            for (int j = 0; j < 50; j++) {
                x[j] = r.nextGaussian() * scale;
            }
            if (t % 3 == 0) {
                // Exactly at the bound in floating point (the clip's own rounding is what is tested).
                double norm = 0;
                for (double v : x) {
                    norm += v * v;
                }
                norm = Math.sqrt(norm);
                for (int j = 0; j < 50; j++) {
                    x[j] = x[j] / norm * 0.7;
                }
            }
            FixedPointGram.quantize(x, 0, 50, 0.7, q);
            long sq = 0;
            for (long v : q) {
                sq += v * v;
            }
            assertThat(sq).isLessThanOrEqualTo(1L << 44);
        }
    }

    @Test
    void neighbouringInputsMoveByAtMostTheDeclaredSensitivity() {
        double b = 1.3;
        double[][] x = rows(400, 9, 4);
        double[][] y = x.clone();
        y[123] = x[123].clone();
        for (int j = 0; j < 9; j++) {
            y[123][j] = -x[123][j] * 100; // long row, opposite direction: clipped to norm B
        }
        FixedPointGram gx = accumulate(x, 0, x.length, b);
        FixedPointGram gy = accumulate(y, 0, y.length, b);
        double frob = 0;
        double[] a = gx.gram();
        double[] c = gy.gram();
        for (int i = 0; i < a.length; i++) {
            frob += (a[i] - c[i]) * (a[i] - c[i]);
        }
        // Replace-one: ‖xxᵀ − yyᵀ‖_F ≤ √2·B²; column sums: ‖x − y‖ ≤ 2B.
        assertThat(Math.sqrt(frob)).isLessThanOrEqualTo(Math.sqrt(2) * b * b);
        double l2 = 0;
        for (int j = 0; j < 9; j++) {
            double diff = gx.columnSums()[j] - gy.columnSums()[j];
            l2 += diff * diff;
        }
        assertThat(Math.sqrt(l2)).isLessThanOrEqualTo(2 * b).isGreaterThan(b); // x[123] long enough to clip
    }

    @Test
    void staysWithinTheStatedDistanceOfTheFloatingGramOfClippedRows() {
        int d = 40;
        double b = 1.0;
        double[][] x = rows(3000, d, 5);
        FixedPointGram fixed = accumulate(x, 0, x.length, b);
        double[] floating = new double[d * d];
        for (double[] row : x) {
            double norm = 0;
            for (double v : row) {
                norm += v * v;
            }
            double f = Math.sqrt(norm) > b ? b / Math.sqrt(norm) : 1;
            for (int j = 0; j < d; j++) {
                for (int k = 0; k < d; k++) {
                    floating[j * d + k] += row[j] * f * row[k] * f;
                }
            }
        }
        // Per row ‖x̃x̃ᵀ − xxᵀ‖_F ≤ ‖x̃ − x‖·2B ≤ 2·h·√d·B (truncation moves each entry by < h).
        double h = fixed.step();
        double bound = x.length * (2 * h * Math.sqrt(d) * b + 1e-12);
        double frob = 0;
        double[] g = fixed.gram();
        for (int i = 0; i < g.length; i++) {
            frob += (g[i] - floating[i]) * (g[i] - floating[i]);
        }
        assertThat(Math.sqrt(frob)).isLessThanOrEqualTo(bound).isGreaterThan(0);
    }
}
