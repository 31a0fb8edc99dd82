package io.privmat.dataset.ingest;

import java.math.BigInteger;

/**
 * Correct rounding of a decimal {@code w × 10^q} (w an unsigned 64-bit integer of at most 19 digits)
 * to the nearest double, without a String and without BigInteger on the hot path: the Eisel–Lemire
 * algorithm (D. Lemire, "Number parsing at a gigabyte per second", Software: Practice and
 * Experience 51(8), 2021). w is multiplied by a 128-bit truncation of 10^q; when the product's
 * low bits leave the rounding of the 53-bit result undecided (rare: about one decimal in 10^4 for
 * uniformly random digits, never for short decimals) the method answers NaN and the caller falls
 * back to {@link Double#parseDouble}. Tested against {@code Double.parseDouble} on random and
 * edge-case strings in DecimalToDoubleTest.
 */
public final class DecimalToDouble {

    /** Smallest and largest q with a table entry; outside, the value is zero, subnormal or infinite. */
    static final int MIN_Q = -342;
    static final int MAX_Q = 308;

    /** For each q in [MIN_Q, MAX_Q]: the 128 most significant bits of 5^q (hi, lo), as fast_float tabulates them. */
    private static final long[] POW5 = new long[2 * (MAX_Q - MIN_Q + 1)];

    static {
        BigInteger two128 = BigInteger.ONE.shiftLeft(128);
        for (int q = MIN_Q; q <= MAX_Q; q++) {
            BigInteger c;
            if (q < 0) {
                BigInteger power5 = BigInteger.valueOf(5).pow(-q);
                int z = power5.subtract(BigInteger.ONE).bitLength(); // smallest z with 2^z ≥ 5^-q
                // 2^b / 5^-q rounded up (q ≥ -27, where 5^-q < 2^64) or truncated to 128 bits (below)
                int b = q >= -27 ? z + 127 : 2 * z + 128;
                c = BigInteger.ONE.shiftLeft(b).divide(power5).add(BigInteger.ONE);
                if (c.compareTo(two128) >= 0) {
                    c = c.shiftRight(c.bitLength() - 128);
                }
            } else {
                BigInteger power5 = BigInteger.valueOf(5).pow(q);
                int shift = 128 - power5.bitLength();
                c = shift >= 0 ? power5.shiftLeft(shift) : power5.shiftRight(-shift);
            }
            int at = 2 * (q - MIN_Q);
            POW5[at] = c.shiftRight(64).longValue();
            POW5[at + 1] = c.longValue();
        }
    }

    private DecimalToDouble() {}

    /**
     * The upload parser's reading of a plain decimal ({@link LineReader#tryParse}: exact for short
     * decimals, this class up to 19 digits, {@link Double#parseDouble} past that) for readers outside
     * this package, through {@code io.privmat.dataset.Decimals}.
     */
    public static double parseDecimal(byte[] bytes, int start, int end) {
        return LineReader.tryParse(bytes, start, end);
    }

    /**
     * The double nearest to {@code w × 10^q} (ties to even), negated if {@code negative}; NaN when
     * this method cannot decide the rounding or the result is not a normal double (the caller then
     * parses exactly). {@code w} is read as unsigned.
     */
    static double of(long w, int q, boolean negative) {
        if (w == 0) {
            return negative ? -0.0 : 0.0;
        }
        if (q < MIN_Q || q > MAX_Q) {
            return Double.NaN;
        }
        int lz = Long.numberOfLeadingZeros(w);
        long man = w << lz;
        // binary exponent of the result's leading bit, biased: floor(q·log2(10)) + 64 + 1023 − lz
        long exp2 = ((217706L * q) >> 16) + 64 + 1023 - lz;
        int at = 2 * (q - MIN_Q);
        long pHi = POW5[at];
        long pLo = POW5[at + 1];
        long xHi = unsignedMultiplyHigh(man, pHi);
        long xLo = man * pHi;
        if ((xHi & 0x1FF) == 0x1FF && Long.compareUnsigned(xLo + man, man) < 0) {
            // The truncated table entry may have lost a carry into the bits that decide rounding:
            // add the product with the entry's low half.
            long yHi = unsignedMultiplyHigh(man, pLo);
            long yLo = man * pLo;
            long mergedHi = xHi;
            long mergedLo = xLo + yHi;
            if (Long.compareUnsigned(mergedLo, xLo) < 0) {
                mergedHi++;
            }
            if ((mergedHi & 0x1FF) == 0x1FF && mergedLo == -1L && Long.compareUnsigned(yLo + man, man) < 0) {
                return Double.NaN;
            }
            xHi = mergedHi;
            xLo = mergedLo;
        }
        long msb = xHi >>> 63;
        long mantissa = xHi >>> (msb + 9);
        exp2 -= 1 ^ msb;
        if (xLo == 0 && (xHi & 0x1FF) == 0 && (mantissa & 3) == 1) {
            return Double.NaN; // possibly exactly half-way between two doubles
        }
        mantissa += mantissa & 1;
        mantissa >>>= 1;
        if ((mantissa >>> 53) > 0) {
            mantissa >>>= 1;
            exp2++;
        }
        if (exp2 <= 0 || exp2 >= 0x7FF) {
            return Double.NaN; // subnormal or overflow: left to the exact parser
        }
        long bits = exp2 << 52 | (mantissa & 0x000FFFFFFFFFFFFFL);
        if (negative) {
            bits |= Long.MIN_VALUE;
        }
        return Double.longBitsToDouble(bits);
    }

    /** The high 64 bits of the unsigned 128-bit product (Math.unsignedMultiplyHigh arrives in Java 18). */
    private static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }
}
