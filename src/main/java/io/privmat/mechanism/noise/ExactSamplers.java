package io.privmat.mechanism.noise;

import java.math.BigInteger;

/**
 * Exact samplers on the integers (Canonne, Kamath, Steinke, "The Discrete Gaussian for
 * Differential Privacy", NeurIPS 2020, arXiv:2004.00010, Algorithms 1–3). All arithmetic is on
 * integers and rationals: a fast path in {@code long} with overflow checks, and an exact
 * {@link BigInteger} fallback when a product would overflow. No floating point touches the
 * distribution.
 */
public final class ExactSamplers {

    private static final BigInteger TWO = BigInteger.valueOf(2);

    private ExactSamplers() {}

    /**
     * Bernoulli(num/den), num ≥ 0, den &gt; 0 (true when num ≥ den): exact, by comparing uniform
     * random bits U = 0.b₁b₂… with the binary expansion of num/den digit by digit (digits from
     * exact doubling of the remainder) until they differ; U &lt; num/den exactly when the first
     * differing digit of num/den is 1. Two random bits are used on average, instead of a 64-bit
     * draw below den.
     */
    public static boolean bernoulli(NoiseSource random, long num, long den) {
        if (num >= den) {
            return true;
        }
        if (num <= 0) {
            return false;
        }
        long r = num;
        while (true) {
            // r < den < 2^63, so 2r < 2^64 fits as an unsigned value.
            r <<= 1;
            boolean digit = Long.compareUnsigned(r, den) >= 0;
            if (digit) {
                r -= den;
            }
            if (random.nextBit() != digit) {
                return digit;
            }
            if (r == 0) {
                // The expansion ends here: U < num/den would need all further bits of U to be 0.
                return false;
            }
        }
    }

    /** As {@link #bernoulli(NoiseSource, long, long)} for 128-bit unsigned num &lt; den. */
    static boolean bernoulli(NoiseSource random, UInt128 num, UInt128 den) {
        if (num.compareTo(den) >= 0) {
            return true;
        }
        long hi = num.hi();
        long lo = num.lo();
        long denHi = den.hi();
        long denLo = den.lo();
        while (true) {
            // r < den; 2r may need 129 bits: carry holds the 129th.
            boolean carry = hi < 0;
            hi = (hi << 1) | (lo >>> 63);
            lo <<= 1;
            boolean digit = carry || Long.compareUnsigned(hi, denHi) > 0
                    || (hi == denHi && Long.compareUnsigned(lo, denLo) >= 0);
            if (digit) {
                long borrow = Long.compareUnsigned(lo, denLo) < 0 ? 1 : 0;
                lo -= denLo;
                hi = hi - denHi - borrow;
            }
            if (random.nextBit() != digit) {
                return digit;
            }
            if (hi == 0 && lo == 0) {
                return false;
            }
        }
    }

    static boolean bernoulli(NoiseSource random, BigInteger num, BigInteger den) {
        return uniformBelow(random, den).compareTo(num) < 0;
    }

    /** A uniform integer in [0, bound) by rejection over bitLength(bound) random bits. */
    static BigInteger uniformBelow(NoiseSource random, BigInteger bound) {
        int bits = bound.bitLength();
        int words = (bits + 63) / 64;
        while (true) {
            BigInteger candidate = BigInteger.ZERO;
            for (int i = 0; i < words; i++) {
                candidate = candidate.shiftLeft(64).or(new BigInteger(1, longBytes(random.nextLong())));
            }
            candidate = candidate.shiftRight(words * 64 - bits);
            if (candidate.compareTo(bound) < 0) {
                return candidate;
            }
        }
    }

    private static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return b;
    }

    /**
     * Bernoulli(exp(−num/den)) for num ≥ 0, den &gt; 0 (CKS20 Algorithm 1). For γ ≤ 1: draw
     * A_K ~ Bernoulli(γ/K) for K = 1, 2, … until one is 0; return whether that K is odd. For γ &gt; 1:
     * ⌊γ⌋ independent Bernoulli(exp(−1)) and one Bernoulli(exp(−(γ − ⌊γ⌋))) must all succeed.
     */
    public static boolean bernoulliExpMinus(NoiseSource random, long num, long den) {
        if (num < 0 || den <= 0) {
            throw new IllegalArgumentException("need num >= 0 and den > 0");
        }
        long whole = num / den;
        for (long k = 0; k < whole; k++) {
            if (!bernoulliExpMinusAtMostOne(random, 1, 1)) {
                return false;
            }
        }
        return bernoulliExpMinusAtMostOne(random, num - whole * den, den);
    }

    /**
     * γ = num/den ∈ [0, 1]. Bernoulli(γ/K) = Bernoulli(num/(den·K)); if den·K overflows it is drawn
     * as [U_K = 0] ∧ Bernoulli(num/den) with U_K uniform in [0, K): the same probability.
     */
    private static boolean bernoulliExpMinusAtMostOne(NoiseSource random, long num, long den) {
        long k = 1;
        while (true) {
            long scaled = multiplyOrMinusOne(den, k);
            boolean a = scaled > 0 ? bernoulli(random, num, scaled)
                    : bernoulli(random, 1, k) && bernoulli(random, num, den);
            if (!a) {
                return (k & 1) == 1;
            }
            k++;
        }
    }

    /** Bernoulli(exp(−num/den)) on 128-bit unsigned numerator and denominator. */
    static boolean bernoulliExpMinus(NoiseSource random, UInt128 num, UInt128 den) {
        // whole = ⌊num/den⌋ from a double estimate, corrected exactly.
        long whole = (long) Math.floor(num.toDouble() / den.toDouble());
        whole = Math.max(0, whole - 1);
        UInt128 product = den.times(whole);
        while (product != null && whole > 0 && product.compareTo(num) > 0) {
            whole--;
            product = den.times(whole);
        }
        if (product == null) {
            return bernoulliExpMinus(random, toBig(num), toBig(den));
        }
        UInt128 remainder = num.minus(product);
        while (remainder.compareTo(den) >= 0) {
            remainder = remainder.minus(den);
            whole++;
        }
        for (long i = 0; i < whole; i++) {
            if (!bernoulliExpMinusAtMostOne(random, 1, 1)) {
                return false;
            }
        }
        long k = 1;
        while (true) {
            boolean a = bernoulli(random, 1, k) && bernoulli(random, remainder, den);
            if (!a) {
                return (k & 1) == 1;
            }
            k++;
        }
    }

    private static BigInteger toBig(UInt128 v) {
        return new BigInteger(Long.toUnsignedString(v.hi())).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(v.lo())));
    }

    static boolean bernoulliExpMinus(NoiseSource random, BigInteger num, BigInteger den) {
        if (num.signum() < 0 || den.signum() <= 0) {
            throw new IllegalArgumentException("need num >= 0 and den > 0");
        }
        BigInteger[] qr = num.divideAndRemainder(den);
        long whole = qr[0].longValueExact();
        for (long k = 0; k < whole; k++) {
            if (!bernoulliExpMinusAtMostOne(random, 1, 1)) {
                return false;
            }
        }
        if (den.bitLength() < 62) {
            return bernoulliExpMinusAtMostOne(random, qr[1].longValueExact(), den.longValueExact());
        }
        return bernoulliExpMinusAtMostOneBig(random, qr[1], den, 1);
    }

    private static boolean bernoulliExpMinusAtMostOneBig(NoiseSource random, BigInteger num, BigInteger den, long from) {
        long k = from;
        while (true) {
            boolean a = bernoulli(random, 1, k) && bernoulli(random, num, den);
            if (!a) {
                return (k & 1) == 1;
            }
            k++;
        }
    }

    /**
     * Discrete Laplace with P[Z = z] ∝ exp(−|z|·s/t), s, t ≥ 1 (CKS20 Algorithm 2): a geometric
     * X = U + t·V with U uniform in [0, t) accepted with probability exp(−U/t) and V counting
     * successes of Bernoulli(exp(−1)); Y = ⌊X/s⌋ and a random sign, rejecting (−, 0).
     */
    public static long discreteLaplace(NoiseSource random, long s, long t) {
        if (s < 1 || t < 1) {
            throw new IllegalArgumentException("need s, t >= 1");
        }
        while (true) {
            long u = random.nextLong(t);
            // u/t < 1: Algorithm 1 directly, no whole part to split off.
            if (!bernoulliExpMinusAtMostOne(random, u, t)) {
                continue;
            }
            long v = 0;
            while (bernoulliExpMinusAtMostOne(random, 1, 1)) {
                v++;
            }
            long x = u + Math.multiplyExact(t, v);
            long y = s == 1 ? x : x / s;
            boolean negative = random.nextBoolean();
            if (negative && y == 0) {
                continue;
            }
            return negative ? -y : y;
        }
    }

    /**
     * Discrete Gaussian N_ℤ(0, σ²) with σ² = num/den rational, num, den ≥ 1 (CKS20 Algorithm 3):
     * Y ~ discrete Laplace of scale t = ⌊σ⌋ + 1, accepted with probability
     * exp(−(|Y| − σ²/t)²/(2σ²)) = exp(−(|Y|·den·t − num)² / (2·num·den·t²)).
     * Any t ≥ 1 gives the exact distribution; ⌊σ⌋ + 1 only makes it fast, so t is computed in
     * floating point. Repeated draws from one source go through {@link DiscreteGaussianSampler}
     * (faster, the same distribution); this method is its fallback for parameters past 63 bits.
     */
    public static long discreteGaussian(NoiseSource random, long num, long den) {
        if (num < 1 || den < 1) {
            throw new IllegalArgumentException("need num, den >= 1");
        }
        long t = (long) Math.floor(Math.sqrt((double) num / den)) + 1;
        long fastDen = fastDenominator(num, den, t);
        while (true) {
            long y = discreteLaplace(random, 1, t);
            long abs = Math.abs(y);
            boolean accept;
            if (fastDen > 0) {
                long a = fastNumerator(abs, den, t, num);
                accept = a >= 0 ? bernoulliExpMinus(random, a, fastDen) : acceptBig(random, abs, num, den, t);
            } else {
                accept = acceptBig(random, abs, num, den, t);
            }
            if (accept) {
                return y;
            }
        }
    }

    /**
     * Fills {@code out} with independent N_ℤ(0, num/den) samples ({@link DiscreteGaussianSampler}, one
     * per stripe), split into
     * {@link GridNoise#stripes} parts run over the cores; each part draws from its own split of
     * {@code random}, split in a fixed order, so a seeded or replayed source gives the same values
     * whatever the number of CPUs.
     */
    public static void fillDiscreteGaussian(NoiseSource random, long num, long den, long[] out) {
        int parts = GridNoise.stripes(out.length);
        NoiseSource[] sources = new NoiseSource[parts];
        for (int p = 0; p < parts; p++) {
            sources[p] = random.split();
        }
        java.util.stream.IntStream.range(0, parts).parallel().forEach(p -> {
            int from = (int) ((long) p * out.length / parts);
            int to = (int) ((long) (p + 1) * out.length / parts);
            new DiscreteGaussianSampler(sources[p], num, den).fill(out, from, to);
        });
    }

    /** 2·num·den·t², or −1 if it overflows (no exceptions on this hot path). */
    private static long fastDenominator(long num, long den, long t) {
        return multiplyOrMinusOne(multiplyOrMinusOne(2, multiplyOrMinusOne(num, den)), multiplyOrMinusOne(t, t));
    }

    /** (|y|·den·t − num)², or −1 if it overflows. */
    private static long fastNumerator(long abs, long den, long t, long num) {
        long product = multiplyOrMinusOne(multiplyOrMinusOne(abs, den), t);
        if (product < 0) {
            return -1;
        }
        long a = Math.abs(product - num);
        return multiplyOrMinusOne(a, a);
    }

    /** a·b for a, b ≥ 0, or −1 if either is negative (a previous overflow) or the product overflows. */
    static long multiplyOrMinusOne(long a, long b) {
        if (a < 0 || b < 0) {
            return -1;
        }
        long low = a * b;
        return Math.multiplyHigh(a, b) != 0 || low < 0 ? -1 : low;
    }

    private static boolean acceptBig(NoiseSource random, long abs, long num, long den, long t) {
        UInt128 wide = den == 1 && t < (1L << 31) ? UInt128.multiply(num, t * t).twice() : null;
        long product = multiplyOrMinusOne(abs, t);
        if (wide != null && product >= 0) {
            long magnitude = Math.abs(product - num);
            return bernoulliExpMinus(random, UInt128.multiply(magnitude, magnitude), wide);
        }
        BigInteger bt = BigInteger.valueOf(t);
        BigInteger bnum = BigInteger.valueOf(num);
        BigInteger bden = BigInteger.valueOf(den);
        BigInteger a = BigInteger.valueOf(abs).multiply(bden).multiply(bt).subtract(bnum);
        BigInteger denominator = TWO.multiply(bnum).multiply(bden).multiply(bt).multiply(bt);
        return bernoulliExpMinus(random, a.multiply(a), denominator);
    }
}
