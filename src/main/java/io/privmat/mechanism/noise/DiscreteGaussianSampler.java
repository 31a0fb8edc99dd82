package io.privmat.mechanism.noise;

import java.math.BigInteger;

/**
 * Exact N_ℤ(0, σ²), σ² = num/den, drawn repeatedly from one source: the algorithm of
 * {@link ExactSamplers#discreteGaussian} (Canonne–Kamath–Steinke, Algorithm 3 over a discrete
 * Laplace proposal) with its per-σ constants computed once and with fewer, cheaper random
 * decisions (docs/benchmarks.md, "Exact discrete Gaussian: a sampler per stripe" and "A cheaper
 * exact sample"):
 * <ul>
 * <li>For σ² = s² with 2^12 ≤ s &lt; 2^28 (every grid plan at these scales) the proposal is a
 * binned envelope of the Gaussian chosen through an integer alias table ({@link GaussianBins},
 * {@link #nextBinned}): ≈ 1.02 proposals and 7 keystream bytes per sample, 0.43× the CPU time of
 * the Laplace proposal below. Other σ use the Laplace proposal:</li>
 * <li>Laplace scale t = σ when σ² is a perfect square (every grid plan: σ² = s²), else ⌊σ⌋ + 1.
 * Algorithm 3 is exact for any integer t ≥ 1; with t = σ the acceptance exponent is
 * (|y| − s)²/(2s²), which fits 64 bits for s &lt; 2^31.</li>
 * <li>The Laplace's acceptance exp(−u/t) and the Gaussian acceptance are one Bernoulli of their
 * product ({@link #next}), decided as U &lt; exp(−γ) for a lazily read uniform U: U's bits against
 * the digits of exp(−γ) that a double approximation with a proven error bound certifies, and
 * against exactly computed further digits in the rare case those all agree
 * ({@link #acceptFast}). This replaces Algorithm 1's chains of Bernoulli(γ/K) (≈ 5.6 rational
 * comparisons per sample) by ≈ 2.1 calls of Math.exp and ≈ 2 random bits each (about as fast: the
 * proposal loop's branches, not that arithmetic, were the cost). The binned proposal decides its
 * acceptance the same way.</li>
 * <li>Bernoulli(e^−1) (the geometric part of the Laplace) compares uniform bits with the binary
 * expansion of e^−1, exactly known to any precision ({@link #expMinusOneBits}): a word of random
 * bits is compared at once and only the bits up to the first difference are consumed (2 on
 * average).</li>
 * <li>Uniforms below t (t &lt; 2^31) take min(32, bitLength(t) + 8) random bits (Lemire, threshold
 * precomputed); random bits come from a local buffer (4-byte reads of the source), and only from
 * it: the samples are a function of the source's stream alone (see {@link #acceptFast}).</li>
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
    /** 1/t and 1/d in double, for the fast acceptance. */
    private final double inverseT;
    private final double inverseD;
    /** The binned proposal's tables (σ = s with 2^12 ≤ s &lt; 2^28), else null. */
    private final GaussianBins bins;
    private long fallbacks;

    /** Unconsumed random bits, most significant first: the top {@code count} bits of {@code bits}. */
    private long bits;
    private int count;

    public DiscreteGaussianSampler(NoiseSource random, long num, long den) {
        this(random, num, den, true);
    }

    /**
     * A sampler that uses the Laplace proposal even where the binned one applies: the same law, for
     * tests and for comparing the two proposals' speed (benchmark harnesses).
     */
    public static DiscreteGaussianSampler withLaplaceProposal(NoiseSource random, long num, long den) {
        return new DiscreteGaussianSampler(random, num, den, false);
    }

    private DiscreteGaussianSampler(NoiseSource random, long num, long den, boolean binned) {
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
        // t < 2^31 (every t with d > 0): uniforms below t from min(32, bitLength(t) + 8) buffered
        // bits, rejecting with probability < 2^−8 when bitLength(t) ≤ 24, else < t/2^32 (as
        // NoiseSource.nextLong(t) would, but through the buffer: see acceptFast on replays).
        int length = 64 - Long.numberOfLeadingZeros(t);
        uniformBits = t > 1 && length <= 31 ? Math.min(32, length + 8) : 0;
        uniformThreshold = uniformBits == 0 ? 0 : (1L << uniformBits) % t;
        inverseT = 1.0 / t;
        inverseD = 1.0 / d;
        bins = binned && root > 0 ? GaussianBins.forSigma(root) : null;
    }

    /** The Laplace scale used (σ for perfect squares, else ⌊σ⌋ + 1). */
    long laplaceScale() {
        return t;
    }

    /**
     * One sample of N_ℤ(0, num/den): CKS20's Algorithm 3 with its two rejection steps merged into
     * one. The proposal is (u, v, s): u uniform in [0, t), v ~ Geometric(1 − e^−1) (v counts
     * Bernoulli(e^−1) successes), s a fair sign, x = u + t·v, y = ±x (−0 rejected); it is accepted
     * with probability exp(−u/t)·exp(−(x·c − m)²/d). Algorithm 3 accepts u with exp(−u/t) (its
     * discrete Laplace, Algorithm 2) and then y with exp(−(|y| − σ²/t)²/(2σ²)) = exp(−(x·c − m)²/d),
     * restarting on either rejection; the product of the two acceptance probabilities, decided by
     * one Bernoulli instead of two, gives the same weight to every accepted (u, v, s), hence the
     * same output law: P[y] ∝ e^−|y|/t·exp(−(|y| − σ²/t)²/(2σ²)) ∝ exp(−y²/(2σ²)).
     */
    public long next() {
        if (bins != null) {
            return nextBinned();
        }
        if (d <= 0 || c <= 0) {
            return ExactSamplers.discreteGaussian(random, num, den);
        }
        while (true) {
            long u = t == 1 ? 0 : uniformBits > 0 ? uniformBelow(t, uniformBits, uniformThreshold) : random.nextLong(t);
            long v = 0;
            while (lessThanExpMinusOne()) {
                v++;
            }
            long x = u + Math.multiplyExact(t, v);
            boolean negative = nextBit();
            if (negative && x == 0) {
                continue;
            }
            long product = ExactSamplers.multiplyOrMinusOne(x, c);
            long a = product < 0 ? -1 : ExactSamplers.multiplyOrMinusOne(Math.abs(product - m), Math.abs(product - m));
            boolean accept = a >= 0 ? acceptFast(u, a) : accept(exponent(u, wideSquare(x)), BigInteger.ONE, BigInteger.ONE, 0);
            if (accept) {
                return negative ? -x : x;
            }
        }
    }

    /** Fills {@code out[from, to)} with samples. */
    public void fill(long[] out, int from, int to) {
        for (int i = from; i < to; i++) {
            out[i] = next();
        }
    }

    /** Decisions the fast comparison left to the exact expansion (for tests). */
    long exactFallbacks() {
        return fallbacks;
    }

    /**
     * Bernoulli(p), p = exp(−γ), γ = u/t + a/d ≥ 0, as U &lt; p for a uniform U = 0.b₁b₂… read
     * from the random bits as far as needed — exactly, with a double approximation of p deciding
     * all but a fraction of about 2^−36 of the decisions:
     * <ul>
     * <li>g = u·(1/t) + a·(1/d) in double is within γ·2^−50 of γ (at most five roundings of
     * relative size 2^−53 on either term's path — conversions, reciprocal, product, sum — and both
     * terms non-negative); Math.exp is within 1 ulp of exp(−g) (its specification). For
     * g ≤ 64 that puts p within p̃·2^−43 of p̃ = Math.exp(−g), so p ∈ [L, H]·2^−62 with
     * L = ⌊(p̃ − p̃·2^−41)·2^62⌋, H = ⌈(p̃ + p̃·2^−41)·2^62⌉ (the margin covers the rounding of
     * those two sums). For g &gt; 64, γ &gt; 63.99 and p &lt; 2^−92: L = H = 0.</li>
     * <li>If L and H agree on their first j of 62 digits, those j digits ARE p's first j binary
     * digits (p ∈ [L, H]·2^−62 ⊂ [Q, Q + 1)·2^−j for their common prefix Q). U's bits are
     * compared with them and the bits up to the first difference consumed: U &lt; p exactly when p
     * has the 1 there.</li>
     * <li>If U's first j bits equal p's first j digits, the comparison continues from digit j with
     * p's digits computed exactly ({@link ExpMinusExpansion#bits}) against U's further bits, the
     * same U: the decision is U &lt; p in every case, so it is exactly Bernoulli(p).</li>
     * </ul>
     * The bits consumed are those up to U's first difference from p, whatever double values the
     * platform's Math.exp returns. When the source is read (a word whenever fewer than 32 bits are
     * buffered) does depend on them (on how many digits are certified); so every random bit of the
     * sampler, the uniforms' included, comes through the buffer in order, and the samples are a
     * function of the source's stream alone: a seeded source gives the same samples everywhere,
     * and a replayed stream (the randomized response's second pass,
     * docs/mechanisms/low-rank.md) gives the same noise again even if two calls of Math.exp with
     * one argument differ (Math's specification allows that).
     */
    boolean acceptFast(long u, long a) {
        if (u == 0 && a == 0) {
            return true; // p = 1
        }
        double g = u * inverseT + a * inverseD;
        int decided = g > 64 ? compareApproximation(0, true) : compareApproximation(Math.exp(-g), false);
        if (decided >= 0) {
            return decided == 1;
        }
        return accept(exponent(u, BigInteger.valueOf(a)), BigInteger.ONE, BigInteger.ONE, -1 - decided);
    }

    /**
     * U &lt; p against the digits of p that an approximation p̃ with |p − p̃| ≤ p̃·2^−43 certifies
     * ({@code negligible}: p &lt; 2^−92, all 62 digits 0): p ∈ [L, H]·2^−62 with
     * L = ⌊(p̃ − p̃·2^−41)·2^62⌋ and H = ⌈(p̃ + p̃·2^−41)·2^62⌉ (the margin also covers the rounding
     * of those two sums), and the common prefix of L and H is p's first j digits. Every caller's p
     * is below 1 (p = 1 returns before: γ = 0, x = 0), so H is lowered to 2^62 − 1 when the margin
     * pushes it to 2^62: p·2^62 ∈ [L, 2^62) still, and a p within 2^−41 of 1 keeps its leading 1s
     * instead of going to the exact expansion. Returns 1 (U below p) or 0 (U above) when U's bits differ from them, having consumed
     * the bits up to the first difference; else −1 − j, having consumed j bits.
     */
    private int compareApproximation(double p, boolean negligible) {
        long low = 0;
        long high = 0;
        if (!negligible) {
            double margin = p * 0x1p-41;
            low = (long) ((p - margin) * 0x1p62);
            high = Math.min((long) Math.ceil((p + margin) * 0x1p62), (1L << 62) - 1);
        }
        int known = Math.min(62, Long.numberOfLeadingZeros(low ^ high) - 2);
        if (known > 0) {
            long prefix = low >>> (62 - known);
            int first = Math.min(known, 32);
            int decided = compareDigits(prefix >>> (known - first), first);
            if (decided >= 0) {
                return decided;
            }
            if (known > first) {
                decided = compareDigits(prefix & ((1L << (known - first)) - 1), known - first);
                if (decided >= 0) {
                    return decided;
                }
            }
        }
        return -1 - known;
    }

    /**
     * Compares the next k ≤ 32 random bits with the k digits {@code digits}: consumes the bits up
     * to the first difference and returns 1 if the digit there is 1 (U below), 0 if it is 0;
     * consumes all k and returns −1 if they agree.
     */
    private int compareDigits(long digits, int k) {
        topUp();
        long diff = (bits >>> (64 - k)) ^ digits;
        if (diff == 0) {
            consume(k);
            return -1;
        }
        int at = Long.numberOfLeadingZeros(diff) - (64 - k);
        consume(at + 1);
        return (digits << (64 - k + at)) < 0 ? 1 : 0;
    }

    /**
     * U &lt; exp(−γ)·a/b, γ = exponent[0]/exponent[1], where U's first {@code from} bits are already
     * known to equal the value's first digits: digit by digit from {@code from} on, exactly.
     */
    private boolean accept(BigInteger[] exponent, BigInteger a, BigInteger b, int from) {
        if (exponent[0].signum() == 0 && a.compareTo(b) >= 0) {
            return true; // p = 1 (its expansion would read 0.000…)
        }
        fallbacks++;
        int n = from + 64;
        BigInteger digits = ExpMinusExpansion.bits(exponent[0], exponent[1], a, b, n);
        for (int i = from;; i++) {
            if (i == n) {
                n *= 2;
                digits = ExpMinusExpansion.bits(exponent[0], exponent[1], a, b, n);
            }
            boolean digit = digits.testBit(n - 1 - i);
            if (nextBit() != digit) {
                return digit;
            }
        }
    }

    /** γ = u/t + square/d as {numerator, denominator}. */
    private BigInteger[] exponent(long u, BigInteger square) {
        BigInteger bigT = BigInteger.valueOf(t);
        BigInteger bigD = BigInteger.valueOf(d);
        return new BigInteger[] {BigInteger.valueOf(u).multiply(bigD).add(square.multiply(bigT)), bigT.multiply(bigD)};
    }

    /** (x·c − m)² when it overflows 63 bits (x far in the tail). */
    private BigInteger wideSquare(long x) {
        BigInteger a = BigInteger.valueOf(x).multiply(BigInteger.valueOf(c)).subtract(BigInteger.valueOf(m));
        return a.multiply(a);
    }

    /**
     * Uniform in [0, bound) by Lemire's multiply-and-reject on L = {@code length} ≤ 32 random bits
     * x (bound·2^L &lt; 2^63): x·bound = h·2^L + l is accepted when l ≥ {@code threshold} =
     * 2^L mod bound, and then h is uniform in [0, bound).
     */
    private long uniformBelow(long bound, int length, long threshold) {
        int shift = 64 - length;
        long mask = (1L << length) - 1;
        while (true) {
            topUp();
            long product = (bits >>> shift) * bound;
            consume(length);
            if ((product & mask) >= threshold) {
                return product >>> length;
            }
        }
    }

    /**
     * One sample by the binned proposal ({@link GaussianBins}, σ = s): an entry e with probability
     * weight(e)/2^22 (22 random bits through the alias table), then
     * <ul>
     * <li>a body bin j: x = j·w + o, o uniform in [0, w), a fair sign (−0 rejected), accepted with
     * probability f(x)/h_j = exp(−x²/(2s²))·2^16/H_j ≤ 1. Proposal and acceptance give ±x the
     * weight (H_j/2^22)·(1/w)·(1/2)·f(x)·2^16/H_j = f(x)·2^15/(2^22·w): the same constant times f(x)
     * in every bin.</li>
     * <li>the tail: x = X₀ + u + T·v, u uniform in [0, T) (32 buffered bits), v ~ Geometric(1/2) (P[v] = 2^−(v+1)), a
     * fair sign, accepted with probability f(x)·2^(v+17)·T/w. Its proposal weight for ±x is
     * (1/2^22)·(1/T)·2^−(v+1)·(1/2), so the accepted weight is again f(x)·2^15/(2^22·w); the
     * probability is ≤ 1 because v ≤ (x − X₀)/T, T ≥ s and X₀ ≥ 8s give x²/(2s²) − v·ln 2 ≥
     * X₀²/(2s²) ≥ 32 (the difference grows with x), so it is at most e^−32·2^17·50 &lt; 10^−7.</li>
     * <li>the rejection entry: rejected.</li>
     * </ul>
     * Every integer (with bins and tail covering x ≥ 0 once each) thus has accepted weight
     * proportional to exp(−x²/(2s²)), restarts being independent: exactly N_ℤ(0, s²). The body's
     * acceptance is decided as U &lt; p by {@link #compareApproximation} with p̃ = Math.exp(−g)·2^16/H_j,
     * g = x²·(1/(2s²)) (x² exact, x &lt; 2^31; g ≤ 33 within 33·4·2^−53, Math.exp within 1 ulp, the
     * two products within 2^−52: |p − p̃| ≤ p̃·2^−43), falling back to the exact digits of
     * exp(−x²/(2s²))·2^16/H_j; the tail's entirely by exact digits (one proposal in 2^22 goes there).
     */
    private long nextBinned() {
        GaussianBins b = bins;
        while (true) {
            topUp();
            int slot = (int) (bits >>> (64 - GaussianBins.SLOT_BITS));
            int units = (int) (bits >>> (64 - GaussianBins.ENTRY_BITS)) & ((1 << (GaussianBins.ENTRY_BITS - GaussianBins.SLOT_BITS)) - 1);
            consume(GaussianBins.ENTRY_BITS);
            int entry = units < b.threshold[slot] ? b.primary[slot] : b.alias[slot];
            if (entry < GaussianBins.BINS) {
                long x = entry * b.w + uniformBelow(b.w, b.offsetBits, b.offsetThreshold);
                boolean negative = nextBit();
                if (x == 0) {
                    if (negative) {
                        continue;
                    }
                    return 0; // p = f(0)·2^16/H_0 = 1
                }
                int decided = compareApproximation(Math.exp(-(double) (x * x) * b.inverseTwoSigmaSquared) * b.scale[entry], false);
                boolean accept = decided >= 0 ? decided == 1
                        : accept(gaussianExponent(BigInteger.valueOf(x), b.s), BigInteger.ONE.shiftLeft(GaussianBins.SCALE_BITS),
                                BigInteger.valueOf(b.weight[entry]), -1 - decided);
                if (accept) {
                    return negative ? -x : x;
                }
            } else if (entry == GaussianBins.TAIL) {
                long u = uniformBelow(b.tailScale, 32, b.tailThreshold);
                long v = 0;
                while (nextBit()) {
                    v++;
                }
                boolean negative = nextBit();
                BigInteger x = BigInteger.valueOf(b.x0 + u).add(BigInteger.valueOf(b.tailScale).multiply(BigInteger.valueOf(v)));
                BigInteger factor = BigInteger.valueOf(b.tailScale).shiftLeft(Math.toIntExact(v + GaussianBins.SCALE_BITS + 1));
                if (accept(gaussianExponent(x, b.s), factor, BigInteger.valueOf(b.w), 0)) {
                    long value = x.longValueExact();
                    return negative ? -value : value;
                }
            }
        }
    }

    /** x²/(2s²) as {numerator, denominator}. */
    private static BigInteger[] gaussianExponent(BigInteger x, long s) {
        return new BigInteger[] {x.multiply(x), BigInteger.valueOf(s).pow(2).shiftLeft(1)};
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
