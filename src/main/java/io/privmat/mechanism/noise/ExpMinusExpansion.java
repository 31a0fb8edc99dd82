package io.privmat.mechanism.noise;

import java.math.BigInteger;

/**
 * The binary expansion of exp(−num/den) for a rational num/den ≥ 0, certified: the first n digits
 * ⌊2^n·exp(−num/den)⌋ computed from rational bounds that provably enclose the value, with the
 * precision raised until both bounds give the same n digits. Used by
 * {@link DiscreteGaussianSampler} where its fast comparison cannot decide (probability about 2^−36
 * per decision), so speed is no concern here; exactness is.
 */
final class ExpMinusExpansion {

    private ExpMinusExpansion() {}

    /** ⌊2^n·exp(−num/den)⌋ for num ≥ 0, den &gt; 0, n ≥ 0 (see {@link #bits(BigInteger, BigInteger, BigInteger, BigInteger, int)}). */
    static BigInteger bits(BigInteger num, BigInteger den, int n) {
        return bits(num, den, BigInteger.ONE, BigInteger.ONE, n);
    }

    /**
     * ⌊2^n·exp(−num/den)·a/b⌋ for num ≥ 0, den &gt; 0, a, b &gt; 0, n ≥ 0: from bounds low ≤
     * 2^P·exp(−num/den) ≤ high ({@link #bounds}), the answer when ⌊2^n·low·a/(b·2^P)⌋ and
     * ⌊2^n·high·a/(b·2^P)⌋ agree; otherwise P grows. exp(−num/den)·a/b is irrational for num &gt; 0
     * (Lindemann–Weierstrass), so some P decides; for num = 0 the value is the rational a/b and
     * its digits are exact from the start.
     */
    static BigInteger bits(BigInteger num, BigInteger den, BigInteger a, BigInteger b, int n) {
        if (num.signum() < 0 || den.signum() <= 0 || a.signum() <= 0 || b.signum() <= 0 || n < 0) {
            throw new IllegalArgumentException("need num >= 0, den > 0, a, b > 0, n >= 0");
        }
        if (num.signum() == 0) {
            return a.shiftLeft(n).divide(b);
        }
        int precision = n + 64;
        while (true) {
            BigInteger[] bounds = bounds(num, den, precision);
            BigInteger scale = b.shiftLeft(precision - n);
            BigInteger lowDigits = bounds[0].multiply(a).divide(scale);
            BigInteger highDigits = bounds[1].multiply(a).divide(scale);
            if (lowDigits.equals(highDigits)) {
                return lowDigits;
            }
            precision += Math.max(64, precision / 2);
        }
    }

    /**
     * Bounds [low, high] with low ≤ 2^P·exp(−num/den) ≤ high. With w = ⌊num/den⌋ and f = num/den − w
     * ∈ [0, 1): exp(−f) lies between consecutive partial sums of its alternating series (the terms
     * f^k/k! decrease), e^−1 between ⌊2^P·e^−1⌋/2^P and that plus 2^−P
     * ({@link DiscreteGaussianSampler#expMinusOneBits}), and e^−w between the powers of those
     * bounds rounded down and up.
     */
    static BigInteger[] bounds(BigInteger num, BigInteger den, int precision) {
        BigInteger[] qr = num.divideAndRemainder(den);
        BigInteger[] fraction = expMinusFraction(qr[1], den, precision);
        BigInteger[] power = expMinusWhole(qr[0], precision);
        // Products of non-negative bounds at scale 2^(2P), back to 2^P rounding outward.
        return new BigInteger[] {fraction[0].multiply(power[0]).shiftRight(precision),
            ceilShift(fraction[1].multiply(power[1]), precision)};
    }

    /**
     * Bounds [low, high] on 2^P·exp(−f/den), f/den ∈ [0, 1): the partial sums S_K and S_{K+1} of
     * Σ (−f/den)^k/k! with 1/(K+1)! &lt; 2^−P, as exact fractions, rounded outward.
     */
    private static BigInteger[] expMinusFraction(BigInteger f, BigInteger den, int precision) {
        if (f.signum() == 0) {
            BigInteger one = BigInteger.ONE.shiftLeft(precision);
            return new BigInteger[] {one, one};
        }
        int terms = 2;
        BigInteger factorial = BigInteger.TWO;
        while (factorial.bitLength() <= precision + 1) {
            terms++;
            factorial = factorial.multiply(BigInteger.valueOf(terms));
        }
        BigInteger[] a = partialSum(f, den, terms);
        BigInteger[] b = partialSum(f, den, terms + 1);
        BigInteger lowA = a[0].shiftLeft(precision).divide(a[1]);
        BigInteger lowB = b[0].shiftLeft(precision).divide(b[1]);
        BigInteger highA = ceilDivide(a[0].shiftLeft(precision), a[1]);
        BigInteger highB = ceilDivide(b[0].shiftLeft(precision), b[1]);
        return new BigInteger[] {lowA.min(lowB).max(BigInteger.ZERO), highA.max(highB)};
    }

    /**
     * S_K = Σ_{k≤K} (−r)^k/k!, r = f/den, as {numerator, denominator} by Horner:
     * h_K = 1, h_k = 1 − r·h_{k+1}/(k+1), S_K = h_0.
     */
    private static BigInteger[] partialSum(BigInteger f, BigInteger den, int terms) {
        BigInteger p = BigInteger.ONE;
        BigInteger q = BigInteger.ONE;
        for (int k = terms; k >= 1; k--) {
            // 1 − f·p/(k·den·q) = (k·den·q − f·p)/(k·den·q)
            BigInteger denominator = den.multiply(q).multiply(BigInteger.valueOf(k));
            p = denominator.subtract(f.multiply(p));
            q = denominator;
        }
        return new BigInteger[] {p, q};
    }

    /** Bounds [low, high] on 2^P·e^−w by squaring the bounds of e^−1, rounding down and up. */
    private static BigInteger[] expMinusWhole(BigInteger whole, int precision) {
        BigInteger one = BigInteger.ONE.shiftLeft(precision);
        BigInteger low = one;
        BigInteger high = one;
        if (whole.signum() == 0) {
            return new BigInteger[] {low, high};
        }
        BigInteger baseLow = DiscreteGaussianSampler.expMinusOneBits(precision);
        BigInteger baseHigh = baseLow.add(BigInteger.ONE);
        for (int i = 0; i < whole.bitLength(); i++) {
            if (whole.testBit(i)) {
                low = low.multiply(baseLow).shiftRight(precision);
                high = ceilShift(high.multiply(baseHigh), precision).min(one);
            }
            if (i + 1 < whole.bitLength()) {
                baseLow = baseLow.multiply(baseLow).shiftRight(precision);
                baseHigh = ceilShift(baseHigh.multiply(baseHigh), precision).min(one);
            }
        }
        return new BigInteger[] {low, high};
    }

    private static BigInteger ceilShift(BigInteger x, int shift) {
        BigInteger floor = x.shiftRight(shift);
        return floor.shiftLeft(shift).equals(x) ? floor : floor.add(BigInteger.ONE);
    }

    private static BigInteger ceilDivide(BigInteger x, BigInteger y) {
        BigInteger[] qr = x.divideAndRemainder(y);
        return qr[1].signum() > 0 ? qr[0].add(BigInteger.ONE) : qr[0];
    }
}
