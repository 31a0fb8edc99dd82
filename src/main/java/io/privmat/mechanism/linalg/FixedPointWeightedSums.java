package io.privmat.mechanism.linalg;

import java.util.Arrays;

/**
 * Σᵢ aᵢ x̃ᵢᵀ (ℓ × d) for weights aᵢ ∈ ℝ^ℓ and rows x̃ᵢ ∈ ℝ^d, in integers: the result does not depend on
 * the order of the rows, on how they are split into blocks or partitions, or on re-runs. Two
 * accumulators over the same (weight, row) pairs, split anyhow and {@link #merge merged}, hold the
 * same integers bit for bit. Hardt–Roth's projection B = Q̃ᵀX̃ is this sum
 * (docs/scale-out.md, "Where the statistic is computed").
 *
 * <p><b>Grids.</b> Each row is clipped and quantised by {@link FixedPointGram#quantize} (integers c
 * with Σc² ≤ 2⁴⁴, so |c_j| ≤ 2²², the row h·c with h = B·2⁻²²), each weight rounded to the grid 2⁻³⁸
 * and clamped to [−1, 1] (integers a with |a| ≤ 2³⁸; a caller whose weights are already on that grid
 * and within [−1, 1], like Hardt–Roth's, loses nothing).
 *
 * <p><b>Exact blocks.</b> A weight is split a = a₁·2¹⁹ + a₀ with 0 ≤ a₀ &lt; 2¹⁹ and |a₁| ≤ 2¹⁹, so
 * every product a₁·c or a₀·c is an integer of magnitude at most 2⁴¹, and for a block of at most
 * {@value #BLOCK_ROWS} rows every partial sum of A₁ᵀC or A₀ᵀC is an integer of magnitude at most
 * 2¹¹·2⁴¹ = 2⁵², which a double holds exactly whatever the order or fused multiply-adds the BLAS
 * uses (as {@link FixedPointGram}'s blocks). Each block's two products are added exactly into two
 * {@code long}s per entry (value = hi·2³² + lo, carried after every block). The only rounding is
 * the final conversion of each integer to a double.
 *
 * <p>Not thread-safe. Memory: 2·ℓ·d longs, and a block of {@value #BLOCK_ROWS} rows and weights.
 */
public final class FixedPointWeightedSums {

    /** Fraction bits of the weights' grid: a = round(w·2³⁸). */
    public static final int WEIGHT_BITS = 38;
    private static final double WEIGHT_SCALE = 0x1p38;
    /** Rows of an exact block: 2¹¹ products of at most 2⁴¹ sum to at most 2⁵² in magnitude. */
    public static final int BLOCK_ROWS = 2048;
    private static final int SPLIT_BITS = 19;

    private final int d;
    private final int l;
    private final double bound;
    private final long[] hi;
    private final long[] lo;
    private final long[] c;
    /** The block: quantised rows (count × d), the weights' high and low parts (count × ℓ). */
    private final double[] block;
    private final double[] high;
    private final double[] low;
    private double[] productHigh = new double[0];
    private double[] productLow = new double[0];
    private int buffered;
    private long rows;

    public FixedPointWeightedSums(int d, int l, double bound) {
        if (d < 1 || l < 1) {
            throw new IllegalArgumentException("d and ℓ must be ≥ 1");
        }
        // Throws for a bound FixedPointGram refuses too.
        new FixedPointGram(1, bound, false);
        this.d = d;
        this.l = l;
        this.bound = bound;
        int size = Math.multiplyExact(d, l);
        this.hi = new long[size];
        this.lo = new long[size];
        this.c = new long[d];
        this.block = new double[Math.multiplyExact(BLOCK_ROWS, d)];
        this.high = new double[BLOCK_ROWS * l];
        this.low = new double[BLOCK_ROWS * l];
    }

    /** A weight on the grid 2⁻³⁸, clamped to [−1, 1] (a non-finite weight is 0): what the sum uses. */
    public static double onGrid(double w) {
        return weight(w) / WEIGHT_SCALE;
    }

    private static long weight(double w) {
        if (!Double.isFinite(w)) {
            return 0;
        }
        return (long) Math.rint(Math.max(-1.0, Math.min(1.0, w)) * WEIGHT_SCALE);
    }

    /** Adds the pair (weights[wOffset … + ℓ), row[offset … + d)). */
    public void add(double[] weights, int wOffset, double[] row, int offset) {
        FixedPointGram.quantize(row, offset, d, bound, c);
        int base = buffered * d;
        for (int j = 0; j < d; j++) {
            block[base + j] = c[j];
        }
        int wb = buffered * l;
        for (int t = 0; t < l; t++) {
            long a = weight(weights[wOffset + t]);
            long a1 = a >> SPLIT_BITS; // floor: a₀ = a − a₁·2¹⁹ in [0, 2¹⁹)
            high[wb + t] = a1;
            low[wb + t] = a - (a1 << SPLIT_BITS);
        }
        rows++;
        if (++buffered == BLOCK_ROWS) {
            flush();
        }
    }

    /** Adds the block's exact A₁ᵀC·2¹⁹ + A₀ᵀC to the integer accumulators. */
    private void flush() {
        if (buffered == 0) {
            return;
        }
        if (productHigh.length == 0) {
            productHigh = new double[hi.length];
            productLow = new double[hi.length];
        } else {
            Arrays.fill(productHigh, 0.0);
            Arrays.fill(productLow, 0.0);
        }
        LinearAlgebraOps.addMultiplyTransA(high, buffered, l, block, d, productHigh);
        LinearAlgebraOps.addMultiplyTransA(low, buffered, l, block, d, productLow);
        for (int p = 0; p < hi.length; p++) {
            long h1 = (long) productHigh[p]; // |h1| ≤ 2⁵², exact
            // h1·2¹⁹ = (h1 >> 13)·2³² + (h1 mod 2¹³)·2¹⁹, without overflow.
            hi[p] += h1 >> (32 - SPLIT_BITS);
            lo[p] += ((h1 & ((1L << (32 - SPLIT_BITS)) - 1)) << SPLIT_BITS) + (long) productLow[p];
        }
        buffered = 0;
        carry();
    }

    /** Adds {@code count} pairs: rows of a dense row-major block with the weights' consecutive rows. */
    public void addRows(double[] weights, int wOffset, double[] rowsBlock, int offset, int count) {
        for (int r = 0; r < count; r++) {
            add(weights, wOffset + r * l, rowsBlock, offset + r * d);
        }
    }

    private void carry() {
        for (int p = 0; p < lo.length; p++) {
            long carried = lo[p] >> 32;
            hi[p] += carried;
            lo[p] -= carried << 32;
        }
    }

    /** Pairs added. */
    public long rows() {
        return rows;
    }

    /** The integers, for moving between processes (a partition's result). */
    public State state() {
        flush();
        carry();
        return new State(d, l, bound, hi.clone(), lo.clone(), rows);
    }

    /** An accumulator holding a transported state. */
    public static FixedPointWeightedSums of(State state) {
        FixedPointWeightedSums s = new FixedPointWeightedSums(state.d(), state.l(), state.bound());
        if (state.hi().length != s.hi.length || state.lo().length != s.lo.length) {
            throw new IllegalArgumentException("a state of the wrong shape");
        }
        System.arraycopy(state.hi(), 0, s.hi, 0, s.hi.length);
        System.arraycopy(state.lo(), 0, s.lo, 0, s.lo.length);
        s.rows = state.rows();
        return s;
    }

    /** Two transported states merged (same d, ℓ and bound): the state of all their pairs. */
    public static State merge(State x, State y) {
        if (x.d() != y.d() || x.l() != y.l() || x.bound() != y.bound()) {
            throw new IllegalArgumentException("accumulators of different shape or bound");
        }
        FixedPointWeightedSums s = of(x);
        FixedPointWeightedSums other = of(y);
        for (int p = 0; p < s.hi.length; p++) {
            s.hi[p] += other.hi[p];
            s.lo[p] += other.lo[p];
        }
        s.rows += other.rows;
        return s.state();
    }

    /** Σᵢ aᵢ x̃ᵢᵀ, row-major ℓ × d (one rounding of each integer, then exact scalings). */
    public double[] result() {
        flush();
        carry();
        double scale = Math.scalb(bound, -FixedPointGram.FRACTION_BITS - WEIGHT_BITS);
        double[] out = new double[hi.length];
        for (int p = 0; p < out.length; p++) {
            out[p] = Math.fma((double) hi[p], 0x1p32, (double) lo[p]) * scale;
        }
        return out;
    }

    /** The integers of an accumulator after a carry. */
    public record State(int d, int l, double bound, long[] hi, long[] lo, long rows) implements java.io.Serializable {

        @Override
        public boolean equals(Object o) {
            return o instanceof State s && d == s.d && l == s.l && Double.compare(bound, s.bound) == 0
                    && Arrays.equals(hi, s.hi) && Arrays.equals(lo, s.lo) && rows == s.rows;
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(hi) + Arrays.hashCode(lo);
        }

        @Override
        public String toString() {
            return "State[d=" + d + ", l=" + l + ", rows=" + rows + "]";
        }
    }
}
