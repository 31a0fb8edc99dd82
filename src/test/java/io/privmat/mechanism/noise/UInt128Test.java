package io.privmat.mechanism.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class UInt128Test {

    private static BigInteger big(UInt128 v) {
        return new BigInteger(Long.toUnsignedString(v.hi())).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(v.lo())));
    }

    private static BigInteger unsigned(long v) {
        return new BigInteger(Long.toUnsignedString(v));
    }

    @Test
    void arithmeticAgreesWithBigInteger() {
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 100_000; i++) {
            long a = random.nextLong();
            long b = random.nextLong();
            UInt128 p = UInt128.multiply(a, b);
            assertThat(big(p)).isEqualTo(unsigned(a).multiply(unsigned(b)));
            long k = random.nextLong(1 << 20);
            UInt128 small = UInt128.multiply(a >>> 30, b >>> 30);
            UInt128 t = small.times(k);
            assertThat(big(t)).isEqualTo(big(small).multiply(BigInteger.valueOf(k)));
            UInt128 q = UInt128.multiply(random.nextLong() >>> 1, random.nextLong() >>> 1);
            UInt128 r = UInt128.multiply(random.nextLong() >>> 1, random.nextLong() >>> 1);
            assertThat(Integer.signum(q.compareTo(r))).isEqualTo(big(q).compareTo(big(r)));
            if (q.compareTo(r) >= 0) {
                assertThat(big(q.minus(r))).isEqualTo(big(q).subtract(big(r)));
            }
            assertThat(big(q.twice())).isEqualTo(big(q).shiftLeft(1));
            assertThat(q.bitLength()).isEqualTo(big(q).bitLength());
        }
        assertThat(new UInt128(-1L, 0).times(2)).isNull();
    }

    @Test
    void uniformBelowStaysBelowAndCoversTheRange() {
        NoiseSource random = TestNoiseSources.seeded(7);
        UInt128 bound = UInt128.multiply(3L << 40, 5L << 30);
        int upperHalf = 0;
        for (int i = 0; i < 20_000; i++) {
            UInt128 u = UInt128.uniformBelow(random, bound);
            assertThat(u.compareTo(bound)).isNegative();
            if (big(u).shiftLeft(1).compareTo(big(bound)) >= 0) {
                upperHalf++;
            }
        }
        assertThat(upperHalf).isBetween(9_500, 10_500);
    }
}
