package io.privmat.mechanism.completion;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Sums of integers, exact and independent of the order they are added in: every entry is a pair of
 * {@code long}s (value = hi·2³² + lo). The per-user statistics of the completion mechanisms
 * ({@link UserStatistic}) add, per user and per entry, at most one integer of magnitude ≤ 2⁴⁶ (a
 * product of two quantised values, docs/ratings.md "Exact per-user sums"); carrying lo into hi every
 * {@value #CARRY_EVERY} users keeps |lo| below 2⁶³. Two accumulators over any split of the same
 * users, {@link #merge merged} in any order, hold the same pairs after a carry, so the released
 * statistic does not depend on partitions, threads or task re-runs. Exact for fewer than 2⁴⁹ users.
 */
public final class ExactSums implements Serializable {

    private static final long serialVersionUID = 1L;
    /** Users between carries: each adds at most 2⁴⁶ per entry, so |lo| ≤ 2³² + 2¹⁶·2⁴⁶ &lt; 2⁶³. */
    static final int CARRY_EVERY = 1 << 16;
    /** Largest integer one user may add to one entry. */
    public static final long MAX_TERM = 1L << 46;

    private final long[] hi;
    private final long[] lo;
    private int sinceCarry;

    public ExactSums(int size) {
        this.hi = new long[size];
        this.lo = new long[size];
    }

    public int size() {
        return lo.length;
    }

    /** Adds {@code value} (|value| ≤ {@link #MAX_TERM}) to entry {@code index}. */
    void add(int index, long value) {
        lo[index] += value;
    }

    /** Marks the end of one user's contribution (carries when due). */
    void endUser() {
        if (++sinceCarry == CARRY_EVERY) {
            carry();
        }
    }

    private void carry() {
        for (int p = 0; p < lo.length; p++) {
            long c = lo[p] >> 32;
            hi[p] += c;
            lo[p] -= c << 32;
        }
        sinceCarry = 0;
    }

    /** Adds another accumulator's sums into this one and returns this. */
    public ExactSums merge(ExactSums other) {
        if (other.lo.length != lo.length) {
            throw new IllegalArgumentException("sums of different sizes");
        }
        carry();
        other.carry();
        for (int p = 0; p < lo.length; p++) {
            hi[p] += other.hi[p];
            lo[p] += other.lo[p];
        }
        carry();
        return this;
    }

    /** Entry {@code index} as a double: the exact integer rounded once, then scaled. */
    double value(int index, double scale) {
        if (sinceCarry != 0) {
            carry();
        }
        return Math.fma((double) hi[index], 0x1p32, (double) lo[index]) * scale;
    }

    /** Whether two accumulators hold the same integers (after a carry). */
    boolean same(ExactSums other) {
        carry();
        other.carry();
        return Arrays.equals(hi, other.hi) && Arrays.equals(lo, other.lo);
    }
}
