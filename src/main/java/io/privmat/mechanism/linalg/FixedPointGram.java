package io.privmat.mechanism.linalg;

import java.util.Arrays;

/**
 * The exact Gram matrix XᵀX and column sums Σᵢ xᵢ of rows clipped to a public L2 bound B and
 * quantised to the fixed-point grid h = B·2⁻²², accumulated in integers: the result does not depend
 * on the order of the rows, on how they are split into blocks or partitions, on the BLAS, or on
 * re-runs. Two accumulators over the same rows, split anyhow and {@link #merge merged}, hold the same
 * integers bit for bit.
 *
 * <p><b>Quantisation.</b> A row x is clipped to ‖x‖ ≤ B (scaled by B/‖x‖ when longer; a row with a
 * non-finite entry becomes the zero row, so that no row can fail a job), then each entry becomes the
 * integer q_j = trunc(x_j·2²²/B), and while Σ q_j² &gt; 2⁴⁴ (exactly, in {@code long}: the floating
 * clip may leave the norm a few ulps above B) the largest |q_j| moves one step towards zero. (For a
 * B — or a clipped row's ‖x‖ — below 2⁻⁹⁰⁰ the entries and the divisor are first scaled by 2²⁰⁰,
 * exactly: 2²²/B itself would overflow below 2⁻¹⁰⁰² and make every q_j ±2⁶³ − 1, far beyond the
 * grid; bounds that small are accepted where analysts choose them, e.g. a completion's clip.) The
 * statistic is that of the rows x̃ = h·q, with ‖x̃‖ ≤ B exactly, so every sensitivity of
 * docs/mechanisms/neighbouring-and-sensitivities.md holds for it without a rounding term. ‖x‖ is
 * computed one way (scaled by the largest |x_j|, summed in order); a faster estimate with a margin far
 * above both computations' rounding only spares that sum for rows certainly within B, whose factor is
 * 2²²/B either way, so the integers are the same (docs/scale-out.md, "Where a pass's time goes"). That
 * estimate makes a row near or beyond the bound cost more time than one well within it, as the
 * fix-up loop and the zero row of a non-finite entry already did: the pass's time depends on the rows.
 *
 * <p><b>Exactness.</b> Per row Σ_j q_j² ≤ 2⁴⁴, and |q_j·q_k| ≤ ‖q‖² for every entry (j, k) (the
 * diagonal's q_j² at most, an off-diagonal product at most half), so for any subset of a block of
 * {@value #BLOCK_ROWS} rows |Σ_r q_rj·q_rk| ≤ Σ_r ‖q_r‖² ≤ 2⁹·2⁴⁴ = 2⁵³: every product and every
 * partial sum of a block's Gram is an integer of magnitude at most 2⁵³, which a double holds exactly,
 * whatever the order or fused multiply-adds the BLAS uses. 512 rows is the most this grid allows (a
 * grid of 2⁻ᶠ would allow 2^(53−2f) rows); larger blocks measured no faster (docs/scale-out.md).
 * Each block's Gram (dsyrk) is added into two {@code long}s per entry (value = hi·2³² + lo), exact
 * for fewer than 2⁵¹ rows; column sums (|q_j| ≤ 2²²)
 * the same way (a single {@code long} would wrap after 2⁴¹ rows at the bound — under ADD_REMOVE the row
 * count is not bounded by anything public, and a wrapped sum flips sign: docs/adr/0011). The only
 * rounding is the final conversion to double:
 * relative 3·2⁻⁵³ per entry, so ‖computed − exact‖_F ≤ 3·2⁻⁵³·n·B² (under 2⁻²⁰·B² for n ≤ 2³⁰).
 *
 * <p>Not thread-safe. Memory: d(d+1) longs for the packed upper triangle plus one block buffer.
 */
public final class FixedPointGram {

    /** Fraction bits of the grid: h = B·2^-FRACTION_BITS. */
    public static final int FRACTION_BITS = 22;
    /** Rows per exact floating block: BLOCK_ROWS·2^(2·FRACTION_BITS) = 2⁵³, the most a double holds exactly. */
    public static final int BLOCK_ROWS = 512;
    private static final long MAX_SQUARED_NORM = 1L << (2 * FRACTION_BITS);
    private static final double SCALE = 0x1p22;
    /** Blocks between carries from lo to hi: each adds at most 2⁵³ in magnitude, |lo| stays below 2⁶². */
    private static final int CARRY_EVERY = 256;

    private final int d;
    private final double bound;
    private final boolean withGram;
    /** Packed upper triangle, row-major: entry (j, k), j ≤ k, at j·d − j(j−1)/2 + (k − j). */
    private final long[] hi;
    private final long[] lo;
    private final long[] sums;
    private final long[] sumsHi;
    private long rows;
    // Block state (not merged: flushed first).
    private final double[] block;
    /** Allocated at the first flush (accumulators that only merge never need it). */
    private double[] blockGram;
    private int buffered;
    private int blocksSinceCarry;
    private final long[] q;

    /**
     * @param d the number of columns
     * @param bound B, the public row bound (positive, finite)
     * @param withGram false for column sums only (no d² memory)
     */
    public FixedPointGram(int d, double bound, boolean withGram) {
        if (d < 1) {
            throw new IllegalArgumentException("d must be ≥ 1");
        }
        if (!(bound > 0) || !Double.isFinite(bound) || !Double.isFinite(bound * SCALE)) {
            throw new IllegalArgumentException("the bound must be positive and finite");
        }
        this.d = d;
        this.bound = bound;
        this.withGram = withGram;
        int packed = withGram ? Math.toIntExact((long) d * (d + 1) / 2) : 0;
        this.hi = new long[packed];
        this.lo = new long[packed];
        this.sums = new long[d];
        this.sumsHi = new long[d];
        this.block = new double[withGram ? BLOCK_ROWS * d : 0];
        this.blockGram = new double[0];
        this.q = new long[d];
    }

    public int cols() {
        return d;
    }

    public double bound() {
        return bound;
    }

    /** Rows added (including rows that became the zero row). */
    public long rows() {
        return rows;
    }

    /** Adds one row ({@code d} values from {@code offset}); null-free, any values (see the class comment). */
    public void add(double[] row, int offset) {
        quantize(row, offset, d, bound, q);
        if (withGram) {
            int base = buffered * d;
            for (int j = 0; j < d; j++) {
                long v = q[j];
                sums[j] += v;
                block[base + j] = v;
            }
        } else {
            for (int j = 0; j < d; j++) {
                sums[j] += q[j];
            }
        }
        if ((++rows & SUM_CARRY_MASK) == 0) {
            carrySums();
        }
        if (withGram && ++buffered == BLOCK_ROWS) {
            flush();
        }
    }

    /** Adds {@code count} rows of a dense row-major block. */
    public void addRows(double[] rowsBlock, int offset, int count) {
        for (int r = 0; r < count; r++) {
            add(rowsBlock, offset + r * d);
        }
    }

    /**
     * Clips one row to ‖x‖ ≤ {@code bound} and quantises it to integers q with Σ q_j² ≤ 2⁴⁴ (the row
     * h·q, h = bound·2⁻²², has norm ≤ bound exactly). A row with a non-finite entry gives q = 0.
     */
    public static void quantize(double[] row, int offset, int d, double bound, long[] out) {
        double divisor = divisor(row, offset, d, bound);
        if (divisor == 0) {
            Arrays.fill(out, 0, d, 0L);
            return;
        }
        double pre = prescale(divisor);
        double factor = factor(divisor);
        long squared = 0;
        for (int j = 0; j < d; j++) {
            long v = (long) (row[offset + j] * pre * factor); // truncation towards zero
            out[j] = v;
            squared += v * v;
        }
        while (squared > MAX_SQUARED_NORM) {
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
    }

    /**
     * What x_j·2²² is divided by before truncation: B, or ‖x‖ when the row is too long; 0 for the
     * zero row and for a row with a non-finite entry (its q is the zero row).
     */
    private static double divisor(double[] row, int offset, int d, double bound) {
        // The largest |x_j|, branch-free: NaN propagates through Math.max, an infinity is the maximum.
        double max = 0;
        for (int j = 0; j < d; j++) {
            max = Math.max(max, Math.abs(row[offset + j]));
        }
        if (!(max > 0) || max == Double.POSITIVE_INFINITY) {
            return 0;
        }
        return certainlyWithin(row, offset, d, bound, max) ? bound : clipDivisor(row, offset, d, bound, max);
    }

    /** Divisors below this are scaled up by {@link #TINY_SCALE} first: 2²²/divisor would overflow below 2⁻¹⁰⁰². */
    private static final double TINY = 0x1p-900;
    private static final double TINY_SCALE = 0x1p200;

    /**
     * The scaling applied to every entry before {@link #factor(double)}: 1, or 2²⁰⁰ for a divisor below
     * 2⁻⁹⁰⁰ (exact: every |x_j| ≤ divisor, so x_j·2²⁰⁰ is a normal number or zero, scaled exactly).
     */
    private static double prescale(double divisor) {
        return divisor < TINY ? TINY_SCALE : 1;
    }

    /** 2²²/(divisor·prescale): finite for every positive divisor (≤ 2⁸⁹⁶). */
    private static double factor(double divisor) {
        return SCALE / (divisor * prescale(divisor));
    }

    /** Relative margin of {@link #certainlyWithin}: far above both norms' rounding, 2(d + 5)·2⁻⁵³ &lt; 2⁻¹⁹ for any int d. */
    private static final double WITHIN = 1 - 0x1p-19;

    /**
     * True only when the row's norm as {@link #clipDivisor} computes it is ≤ B, decided by a faster
     * estimate (four partial sums, multiplication by 1/max) with a margin that covers both
     * computations' rounding; false when unsure (then {@link #clipDivisor} decides, exactly as always).
     * Either way the divisor is the one {@link #clipDivisor} gives, so the integers do not change; the
     * estimate is used only where max and 1/max are normal numbers, where the relative bounds hold.
     */
    private static boolean certainlyWithin(double[] row, int offset, int d, double bound, double max) {
        if (!(max >= 0x1p-960 && max <= 0x1p960 && bound >= 0x1p-960)) {
            return false;
        }
        double inv = 1 / max;
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int j = 0;
        for (; j + 4 <= d; j += 4) {
            double a = row[offset + j] * inv;
            double b = row[offset + j + 1] * inv;
            double c = row[offset + j + 2] * inv;
            double e = row[offset + j + 3] * inv;
            s0 += a * a;
            s1 += b * b;
            s2 += c * c;
            s3 += e * e;
        }
        for (; j < d; j++) {
            double a = row[offset + j] * inv;
            s0 += a * a;
        }
        return max * Math.sqrt((s0 + s1) + (s2 + s3)) <= bound * WITHIN;
    }

    /** The divisor: B, or ‖x‖ when ‖x‖ &gt; B (‖x‖ scaled by the largest entry, summed in order). */
    private static double clipDivisor(double[] row, int offset, int d, double bound, double max) {
        double scaledSq = 0;
        for (int j = 0; j < d; j++) {
            double v = row[offset + j] / max;
            scaledSq += v * v;
        }
        double norm = max * Math.sqrt(scaledSq);
        return norm > bound ? norm : bound;
    }

    /** Adds the buffered rows' exact Gram to the integer accumulators. */
    private void flush() {
        if (buffered == 0) {
            return;
        }
        if (blockGram.length == 0) {
            blockGram = new double[Math.multiplyExact(d, d)];
        }
        // The upper triangle as stored row-major, overwritten (no zeroing): row j's entries k ≥ j are
        // contiguous, in the packed order.
        LinearAlgebra.syrkUpperRowMajor(block, buffered, d, blockGram);
        int p = 0;
        for (int j = 0; j < d; j++) {
            int at = j * d;
            for (int k = j; k < d; k++) {
                lo[p++] += (long) blockGram[at + k];
            }
        }
        buffered = 0;
        if (++blocksSinceCarry == CARRY_EVERY) {
            carry();
        }
    }

    /** Rows between carries of the column sums: 2³⁰ rows add at most 2⁵² to a low word. */
    private static final long SUM_CARRY_MASK = (1L << 30) - 1;

    private void carrySums() {
        for (int j = 0; j < d; j++) {
            long c = sums[j] >> 32;
            sumsHi[j] += c;
            sums[j] -= c << 32;
        }
    }

    private void carry() {
        for (int p = 0; p < lo.length; p++) {
            long c = lo[p] >> 32;
            hi[p] += c;
            lo[p] -= c << 32;
        }
        blocksSinceCarry = 0;
    }

    /** Adds another accumulator's rows (same d and bound); the other is flushed first. */
    public void merge(FixedPointGram other) {
        if (other.d != d || other.bound != bound || other.withGram != withGram) {
            throw new IllegalArgumentException("accumulators of different shape or bound");
        }
        flush();
        carry();
        other.flush();
        other.carry();
        for (int p = 0; p < hi.length; p++) {
            hi[p] += other.hi[p];
            lo[p] += other.lo[p];
        }
        carry();
        carrySums();
        other.carrySums();
        for (int j = 0; j < d; j++) {
            sums[j] += other.sums[j];
            sumsHi[j] += other.sumsHi[j];
        }
        carrySums();
        rows += other.rows;
    }

    /** The state as integers, for transport: [hi…, lo…] of the packed triangle after a carry, then the sums. */
    public State state() {
        flush();
        carry();
        carrySums();
        return new State(d, bound, withGram, hi.clone(), lo.clone(), sums.clone(), sumsHi.clone(), rows);
    }

    /** Two transported states merged (same d and bound): the state of all their rows. */
    public static State merge(State a, State b) {
        FixedPointGram g = of(a);
        g.merge(of(b));
        return g.state();
    }

    /** An accumulator holding a transported state. */
    public static FixedPointGram of(State state) {
        FixedPointGram g = new FixedPointGram(state.d(), state.bound(), state.withGram());
        System.arraycopy(state.hi(), 0, g.hi, 0, g.hi.length);
        System.arraycopy(state.lo(), 0, g.lo, 0, g.lo.length);
        System.arraycopy(state.sums(), 0, g.sums, 0, g.d);
        System.arraycopy(state.sumsHi(), 0, g.sumsHi, 0, g.d);
        g.rows = state.rows();
        return g;
    }

    /**
     * The integers of an accumulator: plain arrays, for moving between processes (a partition's
     * result). Two accumulators over the same rows have equal states after {@link #state()}.
     */
    public record State(int d, double bound, boolean withGram, long[] hi, long[] lo, long[] sums, long[] sumsHi,
            long rows)
            implements java.io.Serializable {}

    /** The grid step h = B·2⁻²² (exact). */
    public double step() {
        return Math.scalb(bound, -FRACTION_BITS);
    }

    /** Σᵢ x̃ᵢ (one rounding per entry). */
    public double[] columnSums() {
        double h = step();
        double[] out = new double[d];
        for (int j = 0; j < d; j++) {
            // sumsHi·2³² + sums with one rounding, then the exact scaling by h.
            out[j] = Math.fma((double) sumsHi[j], 0x1p32, (double) sums[j]) * h;
        }
        return out;
    }

    /** X̃ᵀX̃, full symmetric row-major d × d (relative rounding ≤ 3·2⁻⁵³ per entry). */
    public double[] gram() {
        if (!withGram) {
            throw new IllegalStateException("this accumulator holds column sums only");
        }
        flush();
        carry();
        double h = step();
        double[] out = new double[d * d];
        int p = 0;
        for (int j = 0; j < d; j++) {
            for (int k = j; k < d; k++) {
                // hi·2³² + lo with one rounding (hi < 2⁵³ for fewer than 2⁴¹ rows), then two scalings by h.
                double v = Math.fma((double) hi[p], 0x1p32, (double) lo[p]) * h * h;
                out[j * d + k] = v;
                out[k * d + j] = v;
                p++;
            }
        }
        return out;
    }
}
