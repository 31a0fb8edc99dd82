package io.privmat.mechanism.noise;

/**
 * Minimal unsigned 128-bit arithmetic on (hi, lo) long pairs for the discrete Gaussian's
 * acceptance test, so that large σ stays on a fast, allocation-light path. Values are immutable.
 */
record UInt128(long hi, long lo) {

    static final UInt128 ZERO = new UInt128(0, 0);

    static UInt128 of(long unsignedLow) {
        return new UInt128(0, unsignedLow);
    }

    /** The full unsigned product of two unsigned 64-bit values. */
    static UInt128 multiply(long a, long b) {
        long hi = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
        return new UInt128(hi, a * b);
    }

    int compareTo(UInt128 o) {
        int c = Long.compareUnsigned(hi, o.hi);
        return c != 0 ? c : Long.compareUnsigned(lo, o.lo);
    }

    /** this × k for a small non-negative k, or null on overflow. */
    UInt128 times(long k) {
        UInt128 low = multiply(lo, k);
        UInt128 high = multiply(hi, k);
        if (high.hi != 0) {
            return null;
        }
        long sum = low.hi + high.lo;
        if (Long.compareUnsigned(sum, low.hi) < 0) {
            return null;
        }
        return new UInt128(sum, low.lo);
    }

    /** this − o, assuming this ≥ o. */
    UInt128 minus(UInt128 o) {
        long l = lo - o.lo;
        long borrow = Long.compareUnsigned(lo, o.lo) < 0 ? 1 : 0;
        return new UInt128(hi - o.hi - borrow, l);
    }

    /** this × 2, or null on overflow. */
    UInt128 twice() {
        if (hi < 0) {
            return null;
        }
        return new UInt128((hi << 1) | (lo >>> 63), lo << 1);
    }

    int bitLength() {
        return hi != 0 ? 128 - Long.numberOfLeadingZeros(hi) : 64 - Long.numberOfLeadingZeros(lo);
    }

    double toDouble() {
        return unsigned(hi) * 0x1p64 + unsigned(lo);
    }

    private static double unsigned(long v) {
        return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
    }

    /** A uniform value in [0, bound), bound &gt; 0, by rejection over bitLength(bound) random bits. */
    static UInt128 uniformBelow(NoiseSource random, UInt128 bound) {
        int bits = bound.bitLength();
        while (true) {
            long lo = random.nextLong();
            long hi = 0;
            if (bits > 64) {
                hi = random.nextLong();
                int top = bits - 64;
                hi = top == 64 ? hi : hi & ((1L << top) - 1);
            } else {
                lo = bits == 64 ? lo : lo & ((1L << bits) - 1);
            }
            UInt128 candidate = new UInt128(hi, lo);
            if (candidate.compareTo(bound) < 0) {
                return candidate;
            }
        }
    }
}
