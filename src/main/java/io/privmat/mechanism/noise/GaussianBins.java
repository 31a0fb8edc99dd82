package io.privmat.mechanism.noise;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tables of {@link DiscreteGaussianSampler}'s binned proposal for N_ℤ(0, s²), s an integer in
 * [2^12, 2^28) (every release grid plan at these scales): a piecewise-constant envelope of
 * f(x) = exp(−x²/(2s²)) on x ≥ 0 in {@value #BINS} bins of width w = ⌈s/50⌉ up to X₀ = 400·w ≥ 8s,
 * a tail entry for x ≥ X₀, and a rejection entry, chosen by an alias table with integer weights
 * summing to 2^22, so that 22 random bits choose an entry with exactly its weight's probability.
 * <ul>
 * <li>Bin j (x ∈ [j·w, (j+1)·w)) has weight H_j = ⌊2^16·f(j·w)⌋ + 1 (2^16 for j = 0), so
 * h_j = H_j/2^16 ≥ f on the bin (f decreases for x ≥ 0; f(j·w) is irrational for j &gt; 0, and
 * its digits are certified by {@link ExpMinusExpansion}).</li>
 * <li>The tail entry has weight 1 and the rejection entry the rest of 2^22 (Σ H_j ≤ 2^16·(1 +
 * 1.2534·s/w) + 400 &lt; 2^22 because s/w ≤ 50).</li>
 * </ul>
 * Built once per s (about a millisecond) and shared by all samplers of that s.
 */
final class GaussianBins {

    /** Bins of the body. */
    static final int BINS = 400;
    /** Bins per s (w = ⌈s/50⌉). */
    static final int PER_SIGMA = 50;
    /** The envelope's scale: h_j = H_j/2^16. */
    static final int SCALE_BITS = 16;
    /** Random bits that choose an entry: the weights sum to 2^22. */
    static final int ENTRY_BITS = 22;
    /** Slots of the alias table (a power of two, at least the number of entries). */
    static final int SLOT_BITS = 9;
    static final int TAIL = BINS;
    static final int REJECT = BINS + 1;

    final long s;
    /** Bin width w, body end X₀ = 400·w, tail Laplace scale T = 50·w ≥ s. */
    final long w;
    final long x0;
    final long tailScale;
    /** H_j and 2^16/H_j (the latter for the fast acceptance). */
    final long[] weight = new long[BINS];
    final double[] scale = new double[BINS];
    /** 1/(2s²) in double (s² &lt; 2^56 rounds once, its reciprocal once). */
    final double inverseTwoSigmaSquared;
    /** The alias table: slot i holds entry primary[i] for r &lt; threshold[i] of its 2^13 units, else alias[i]. */
    final int[] threshold = new int[1 << SLOT_BITS];
    final int[] primary = new int[1 << SLOT_BITS];
    final int[] alias = new int[1 << SLOT_BITS];
    /** Random bits of a uniform offset in [0, w) (Lemire) and its rejection threshold 2^bits mod w. */
    final int offsetBits;
    final long offsetThreshold;
    /** Lemire's rejection threshold 2^32 mod T for the tail's uniform below T &lt; 2^29 from 32 bits. */
    final long tailThreshold;

    private static final Map<Long, GaussianBins> CACHE = new ConcurrentHashMap<>();

    /** The tables for s, or null when s is outside [2^12, 2^28). */
    static GaussianBins forSigma(long s) {
        if (s < 1L << 12 || s >= 1L << 28) {
            return null;
        }
        GaussianBins cached = CACHE.get(s);
        if (cached != null) {
            return cached;
        }
        if (CACHE.size() > 64) {
            CACHE.clear();
        }
        GaussianBins built = new GaussianBins(s);
        CACHE.put(s, built);
        return built;
    }

    GaussianBins(long s) {
        this.s = s;
        w = (s + PER_SIGMA - 1) / PER_SIGMA;
        x0 = BINS * w;
        tailScale = PER_SIGMA * w;
        inverseTwoSigmaSquared = 1.0 / (2.0 * s * s);
        long[] entries = new long[BINS + 2];
        long total = 0;
        for (int j = 0; j < BINS; j++) {
            weight[j] = j == 0 ? 1L << SCALE_BITS : envelopeWeight(j * w);
            scale[j] = (double) (1L << SCALE_BITS) / weight[j];
            entries[j] = weight[j];
            total += weight[j];
        }
        entries[TAIL] = 1;
        entries[REJECT] = (1L << ENTRY_BITS) - total - 1;
        if (entries[REJECT] < 0) {
            throw new IllegalStateException("envelope weights exceed 2^22 for s = " + s);
        }
        int length = 64 - Long.numberOfLeadingZeros(w);
        offsetBits = length + 8;
        offsetThreshold = (1L << offsetBits) % w;
        tailThreshold = (1L << 32) % tailScale;
        buildAlias(entries);
    }

    /**
     * ⌊2^16·f(x)⌋ + 1 for x &gt; 0 (f(x) is irrational, so this is the least integer above 2^16·f(x)):
     * from the double 2^16·Math.exp(−x²·(1/(2s²))), within 2^16·f·2^−43 ≤ 2^−27 of 2^16·f(x) (the
     * bound of DiscreteGaussianSampler's fast acceptance: x² exact, x·x/(2s²) ≤ 33), so its floor is
     * ⌊2^16·f(x)⌋ unless it lies within 2^−26 of an integer; then from the certified digits
     * ({@link ExpMinusExpansion}).
     */
    private long envelopeWeight(long x) {
        double scaled = Math.exp(-(double) (x * x) * inverseTwoSigmaSquared) * (1 << SCALE_BITS);
        double floor = Math.floor(scaled);
        if (scaled - floor > 0x1p-26 && floor + 1 - scaled > 0x1p-26) {
            return (long) floor + 1;
        }
        BigInteger big = BigInteger.valueOf(x);
        return ExpMinusExpansion.bits(big.multiply(big), BigInteger.valueOf(s).pow(2).shiftLeft(1), SCALE_BITS).longValueExact() + 1;
    }

    /**
     * Vose's alias method on integers: n = 2^9 slots of capacity S = 2^22/n = 2^13 units each; an
     * entry with fewer than S units left fills a slot's first units and the slot's remaining units
     * go to an entry with at least S left. Every quantity is an integer, so slot i gives entry e
     * exactly its units, and P[e] = Σ_i (1/n)·units_i(e)/S = weight(e)/2^22.
     */
    private void buildAlias(long[] entries) {
        int slots = 1 << SLOT_BITS;
        long capacity = 1L << (ENTRY_BITS - SLOT_BITS);
        long[] left = new long[slots];
        System.arraycopy(entries, 0, left, 0, entries.length);
        Deque<Integer> small = new ArrayDeque<>();
        Deque<Integer> large = new ArrayDeque<>();
        for (int e = 0; e < slots; e++) {
            (left[e] < capacity ? small : large).add(e);
        }
        int slot = 0;
        while (!small.isEmpty() && !large.isEmpty()) {
            int less = small.poll();
            int more = large.peek();
            primary[slot] = less;
            threshold[slot] = (int) left[less];
            alias[slot] = more;
            slot++;
            left[more] -= capacity - left[less];
            if (left[more] < capacity) {
                small.add(large.poll());
            }
        }
        // Entries with exactly S units left take a whole slot (the sums balance exactly).
        for (Deque<Integer> rest : java.util.List.of(large, small)) {
            while (!rest.isEmpty()) {
                int e = rest.poll();
                if (left[e] != capacity) {
                    throw new IllegalStateException("alias table does not balance");
                }
                primary[slot] = e;
                threshold[slot] = (int) capacity;
                alias[slot] = e;
                slot++;
            }
        }
    }

    /** The probability of entry e as units of 2^−22 (for tests: the alias table's exact distribution). */
    long units(int e) {
        long units = 0;
        for (int i = 0; i < threshold.length; i++) {
            if (primary[i] == e) {
                units += threshold[i];
            }
            if (alias[i] == e) {
                units += (1L << (ENTRY_BITS - SLOT_BITS)) - threshold[i];
            }
        }
        return units;
    }
}
