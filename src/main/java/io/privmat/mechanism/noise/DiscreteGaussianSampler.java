package io.privmat.mechanism.noise;

import java.math.BigInteger;

/**
 * Exact N_ℤ(0, σ²), σ² = num/den, drawn repeatedly from one source: the algorithm of
 * {@link ExactSamplers#discreteGaussian} (Canonne–Kamath–Steinke, Algorithm 3 over a discrete
 * Laplace proposal) with its per-σ constants computed once and with fewer, cheaper random
 * decisions (docs/benchmarks.md, "Exact discrete Gaussian: a sampler per stripe"):
 * <ul>
 * <li>Laplace scale t = σ when σ² is a perfect square (every grid plan: σ² = s²), else ⌊σ⌋ + 1.
 * Algorithm 3 is exact for any integer t ≥ 1; with t = σ the acceptance exponent is
 * (|y| − s)²/(2s²), which fits 64 bits for s &lt; 2^31 (no 128-bit path for grid plans).</li>
 * <li>Bernoulli(e^−1) (the geometric part of the Laplace and the whole part of the acceptance
 * exponent) compares uniform bits with the binary expansion of e^−1, exactly known to any
 * precision ({@link #expMinusOneBits}): a word of random bits is compared at once and only the
 * bits up to the first difference are consumed (2 on average).</li>
 * <li>Bernoulli(a/b) compares up to 32 digits of a/b (as many as a·2^k fits 63 bits), from one
 * integer division, with the random bits at once; the remainder continues digit by digit in the
 * rare case all agree.</li>
 * <li>Uniforms below t (t &lt; 2^28) take bitLength(t) + 8 random bits (Lemire, threshold
 * precomputed); random bits come from a local buffer (4-byte reads of the source).</li>
 * </ul>
 * Parameters whose acceptance denominator 2·num·den·t² exceeds 63 bits are drawn by
 * {@link ExactSamplers#discreteGaussian} (128-bit and BigInteger paths). Not thread-safe: one
 * sampler per thread (a bulk fill makes one per stripe).
 */
public final class DiscreteGaussianSampler {

    private final NoiseSource random;
    private final long num;
    private final long den;
    /** Laplace scale. */
    private final long t;
    /** The acceptance exponent is (|y|·c − m)² / d; d ≤ 0 when it overflows 63 bits. */
    private final long c;
    private final long m;
    private final long d;
    /** Random bits per draw of u uniform in [0, t) (0: drawn by {@link NoiseSource#nextLong(long)}). */
    private final int uniformBits;
    /** Lemire's rejection threshold 2^uniformBits mod t. */
    private final long uniformThreshold;

    /** Unconsumed random bits, most significant first: the top {@code count} bits of {@code bits}. */
    private long bits;
    private int count;

    public DiscreteGaussianSampler(NoiseSource random, long num, long den) {
        if (num < 1 || den < 1) {
            throw new IllegalArgumentException("need num, den >= 1");
        }
        this.random = random;
        this.num = num;
        this.den = den;
        long root = den == 1 ? exactSquareRoot(num) : -1;
        if (root > 0) {
            // σ = root: (|y| − σ²/t)² / (2σ²) with t = σ is (|y| − root)² / (2·root²).
            t = root;
            c = 1;
            m = root;
            d = ExactSamplers.multiplyOrMinusOne(2, ExactSamplers.multiplyOrMinusOne(root, root));
        } else {
            // As ExactSamplers.discreteGaussian: (|y|·den·t − num)² / (2·num·den·t²).
            t = (long) Math.floor(Math.sqrt((double) num / den)) + 1;
            c = ExactSamplers.multiplyOrMinusOne(den, t);
            m = num;
            d = ExactSamplers.multiplyOrMinusOne(ExactSamplers.multiplyOrMinusOne(2, ExactSamplers.multiplyOrMinusOne(num, den)),
                    ExactSamplers.multiplyOrMinusOne(t, t));
        }
        // t < 2^28: uniforms below t from bitLength(t) + 8 ≤ 32 buffered bits, rejecting with
        // probability < 2^−4 (< 2^−8 when bitLength(t) ≤ 24).
        int length = 64 - Long.numberOfLeadingZeros(t);
        uniformBits = t > 1 && length <= 28 ? Math.min(32, length + 8) : 0;
        uniformThreshold = uniformBits == 0 ? 0 : (1L << uniformBits) % t;
    }

    /** The Laplace scale used (σ for perfect squares, else ⌊σ⌋ + 1). */
    long laplaceScale() {
        return t;
    }

    /** One sample of N_ℤ(0, num/den). */
    public long next() {
        if (d <= 0 || c <= 0) {
            return ExactSamplers.discreteGaussian(random, num, den);
        }
        while (true) {
            long y = laplace();
            long abs = Math.abs(y);
            long product = ExactSamplers.multiplyOrMinusOne(abs, c);
            long a = product < 0 ? -1 : ExactSamplers.multiplyOrMinusOne(Math.abs(product - m), Math.abs(product - m));
            boolean accept = a >= 0 ? expMinus(a, d) : acceptWide(abs);
            if (accept) {
                return y;
            }
        }
    }

    /** Fills {@code out[from, to)} with samples. */
    public void fill(long[] out, int from, int to) {
        for (int i = from; i < to; i++) {
            out[i] = next();
        }
    }

    /** The acceptance test when (|y|·c − m)² overflows (|y| far in the tail): exact, on BigInteger. */
    private boolean acceptWide(long abs) {
        BigInteger a = BigInteger.valueOf(abs).multiply(BigInteger.valueOf(c)).subtract(BigInteger.valueOf(m));
        return ExactSamplers.bernoulliExpMinus(random, a.multiply(a), BigInteger.valueOf(d));
    }

    /** Discrete Laplace, P[Y = y] ∝ exp(−|y|/t) (CKS20 Algorithm 2 with s = 1). */
    private long laplace() {
        while (true) {
            long u = t == 1 ? 0 : uniformBits > 0 ? uniformBelowT() : random.nextLong(t);
            if (u != 0 && !expMinusBelowOne(u, t)) {
                continue;
            }
            long v = 0;
            while (lessThanExpMinusOne()) {
                v++;
            }
            long x = u + Math.multiplyExact(t, v);
            boolean negative = nextBit();
            if (negative && x == 0) {
                continue;
            }
            return negative ? -x : x;
        }
    }

    /**
     * Uniform in [0, t) by Lemire's multiply-and-reject on L = {@code uniformBits} random bits x:
     * x·t = h·2^L + l is accepted when l ≥ 2^L mod t, and then h is uniform in [0, t).
     */
    private long uniformBelowT() {
        int shift = 64 - uniformBits;
        long mask = (1L << uniformBits) - 1;
        while (true) {
            topUp();
            long product = (bits >>> shift) * t;
            consume(uniformBits);
            if ((product & mask) >= uniformThreshold) {
                return product >>> uniformBits;
            }
        }
    }

    /** Bernoulli(exp(−a/b)), a ≥ 0, b &gt; 0. */
    private boolean expMinus(long a, long b) {
        if (a < b) {
            return expMinusBelowOne(a, b);
        }
        long whole = quotient(a, b);
        for (long k = 0; k < whole; k++) {
            if (!lessThanExpMinusOne()) {
                return false;
            }
        }
        return expMinusBelowOne(a - whole * b, b);
    }

    /**
     * Bernoulli(exp(−γ)), γ = a/b ∈ [0, 1) (CKS20 Algorithm 1): A_K ~ Bernoulli(γ/K) for K = 1, 2, …
     * until one is 0; true when that K is odd. If b·K overflows, A_K = [U_K = 0] ∧ Bernoulli(a/b)
     * with U_K uniform in [0, K).
     */
    private boolean expMinusBelowOne(long a, long b) {
        if (a == 0) {
            return true;
        }
        long k = 1;
        while (true) {
            long scaled = ExactSamplers.multiplyOrMinusOne(b, k);
            boolean draw = scaled > 0 ? bernoulli(a, scaled) : bernoulli(1, k) && bernoulli(a, b);
            if (!draw) {
                return (k & 1) == 1;
            }
            k++;
        }
    }

    /**
     * Bernoulli(a/b) for 0 &lt; a &lt; b: true when uniform bits U = 0.u₁u₂… are below a/b. The
     * first k ≤ 32 digits of a/b (k such that a·2^k fits 63 bits; one division) are compared with k
     * random bits at once, consuming the bits up to the first difference; if all k agree, digit by
     * digit from the remainder.
     */
    boolean bernoulli(long a, long b) {
        if (a >= b) {
            return true;
        }
        if (a <= 0) {
            return false;
        }
        long r = a;
        int k = Math.min(32, Long.numberOfLeadingZeros(a) - 1);
        if (k > 0) {
            long scaled = a << k;
            long digits = quotient(scaled, b);
            topUp();
            long diff = (bits >>> (64 - k)) ^ digits;
            if (diff != 0) {
                int at = Long.numberOfLeadingZeros(diff) - (64 - k);
                consume(at + 1);
                // U < a/b exactly when a/b has the 1 at the first differing digit.
                return (digits << (64 - k + at)) < 0;
            }
            consume(k);
            r = scaled - digits * b;
        }
        while (r != 0) {
            // r < b < 2^63, so 2r < 2^64 fits as an unsigned value.
            r <<= 1;
            boolean digit = Long.compareUnsigned(r, b) >= 0;
            if (digit) {
                r -= b;
            }
            if (nextBit() != digit) {
                return digit;
            }
        }
        // The expansion ended with every digit equal: U ≥ a/b.
        return false;
    }

    /**
     * ⌊x/b⌋ for x ≥ 0, b &gt; 0, exactly, mostly without a 64-bit integer division (tens of cycles,
     * several per sample; docs/benchmarks.md, "Randomized response end to end"): the quotient of the
     * doubles is within 1 of x/b while x/b &lt; 2^50 (three roundings of relative size 2^−53 each), so
     * its truncation q is ⌊x/b⌋ − 1, ⌊x/b⌋ or ⌊x/b⌋ + 1, and the exact remainder x − q·b (in
     * [−b, 2b), which a long holds for b &lt; 2^62) says which. Other arguments divide.
     */
    static long quotient(long x, long b) {
        if (b >= 1L << 62 || (x >>> 50) >= b) {
            return x / b;
        }
        long q = (long) ((double) x / (double) b);
        long r = x - q * b;
        if (r < 0) {
            return q - 1;
        }
        return r >= b ? q + 1 : q;
    }

    /**
     * Bernoulli(e^−1): compares 32 random bits with the first 32 bits of e^−1 at once, consuming the
     * bits up to the first difference; if all 32 agree (probability 2^−32), digit by digit on.
     */
    boolean lessThanExpMinusOne() {
        topUp();
        long expansion = EXP_MINUS_ONE_WORD;
        int diff = (int) ((bits ^ expansion) >>> 32);
        if (diff != 0) {
            int at = Integer.numberOfLeadingZeros(diff);
            consume(at + 1);
            return (expansion << at) < 0;
        }
        consume(32);
        for (int i = 32;; i++) {
            boolean digit = expMinusOneDigit(i);
            if (nextBit() != digit) {
                return digit;
            }
        }
    }

    private boolean nextBit() {
        if (count == 0) {
            topUp();
        }
        boolean bit = bits < 0;
        bits <<= 1;
        count--;
        return bit;
    }

    /** Ensures at least 32 unconsumed bits (at most 63). */
    private void topUp() {
        if (count < 32) {
            bits |= (random.nextInt() & 0xFFFFFFFFL) << (32 - count);
            count += 32;
        }
    }

    /** Consumes n ≤ count ≤ 63 bits. */
    private void consume(int n) {
        bits <<= n;
        count -= n;
    }

    /** ⌊√x⌋ when x is a perfect square, else −1. */
    static long exactSquareRoot(long x) {
        long r = (long) Math.sqrt((double) x);
        while (r > 0 && r > x / r) {
            r--;
        }
        while ((r + 1) <= x / (r + 1)) {
            r++;
        }
        return r * r == x ? r : -1;
    }

    // The binary expansion of e^−1 = 0.0101111000101101…: the first 64 digits as a word for the fast
    // comparison, further digits computed on demand (the comparison needs digit i with probability 2^−i).

    private static final int PRECOMPUTED_BITS = 1024;

    /** ⌊2^bits·e^−1⌋: the first {@code bits} binary digits of e^−1. */
    private record Expansion(BigInteger value, int bits) {}

    private static volatile Expansion expansion = new Expansion(expMinusOneBits(PRECOMPUTED_BITS), PRECOMPUTED_BITS);
    /** ⌊2^64·e^−1⌋: the first 64 binary digits of e^−1. */
    static final long EXP_MINUS_ONE_WORD = expansion.value().shiftRight(PRECOMPUTED_BITS - 64).longValue();

    /** Digit i of e^−1 after the binary point (i = 0 is the first, worth 1/2). */
    static boolean expMinusOneDigit(int i) {
        Expansion known = expansion;
        if (i >= known.bits()) {
            int more = Math.max(2 * known.bits(), i + 64);
            known = new Expansion(expMinusOneBits(more), more);
            expansion = known;
        }
        return known.value().testBit(known.bits() - 1 - i);
    }

    /**
     * ⌊2^n·e^−1⌋, certified: e^−1 lies within 1/(N+1)! of the partial sum S_N = Σ_{k≤N} (−1)^k/k!,
     * so when ⌊2^n·(S_N ∓ 1/(N+1)!)⌋ agree they are the answer (e^−1 is irrational, so some N works).
     */
    static BigInteger expMinusOneBits(int n) {
        int terms = 16;
        while (true) {
            // S_N = P / N! with P = Σ (−1)^k N!/k!.
            BigInteger factorial = BigInteger.ONE;
            for (int k = 2; k <= terms; k++) {
                factorial = factorial.multiply(BigInteger.valueOf(k));
            }
            BigInteger p = BigInteger.ZERO;
            BigInteger term = BigInteger.ONE; // N!/k! for k = N, N−1, …
            for (int k = terms; k >= 0; k--) {
                p = (k & 1) == 0 ? p.add(term) : p.subtract(term);
                term = term.multiply(BigInteger.valueOf(k == 0 ? 1 : k));
            }
            // Bounds (P·(N+1) ∓ 1) / (N+1)!.
            BigInteger next = factorial.multiply(BigInteger.valueOf(terms + 1));
            BigInteger scaled = p.multiply(BigInteger.valueOf(terms + 1)).shiftLeft(n);
            BigInteger low = scaled.subtract(BigInteger.ONE.shiftLeft(n)).divide(next);
            BigInteger high = scaled.add(BigInteger.ONE.shiftLeft(n)).divide(next);
            if (low.equals(high)) {
                return low;
            }
            terms += Math.max(16, terms / 2);
        }
    }
}
