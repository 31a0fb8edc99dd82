package io.privmat.dataset.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The decimal fast path rounds exactly like {@link Double#parseDouble}, or declines. */
class DecimalToDoubleTest {

    private static double parse(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        return LineReader.tryParse(b, 0, b.length);
    }

    /** Same bits as the JDK's double; an overflow to infinity is refused (NaN), as every non-finite value. */
    private static void assertSameAsJdk(String s) {
        double expected = Double.parseDouble(s);
        if (Double.isInfinite(expected)) {
            assertThat(parse(s)).as(s).isNaN();
        } else {
            assertThat(Double.doubleToRawLongBits(parse(s))).as(s).isEqualTo(Double.doubleToRawLongBits(expected));
        }
    }

    @Test
    void shortestRepresentationsOfRandomDoublesRoundTrip() {
        SplittableRandom random = new SplittableRandom(7);
        int decided = 0;
        int n = 300_000;
        for (int i = 0; i < n; i++) {
            double d;
            do {
                d = Double.longBitsToDouble(random.nextLong());
            } while (!Double.isFinite(d));
            String s = Double.toString(d);
            assertSameAsJdk(s);
            BigDecimal exact = new BigDecimal(s);
            if (exact.unscaledValue().bitLength() < 64 && Math.getExponent(d) >= Double.MIN_EXPONENT
                    && !Double.isNaN(DecimalToDouble.of(exact.unscaledValue().longValue(), -exact.scale(), d < 0))) {
                decided++;
            }
        }
        // normal doubles are almost all decided without the JDK (a failure means the fast path is lost)
        assertThat(decided).isGreaterThan(n * 99 / 100 * 99 / 100);
    }

    @Test
    void randomNineteenDigitDecimalsAtEveryExponentRoundLikeTheJdk() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 400_000; i++) {
            int digits = random.nextInt(1, 20);
            StringBuilder s = new StringBuilder();
            if (random.nextBoolean()) {
                s.append('-');
            }
            s.append((char) ('1' + random.nextInt(9)));
            for (int k = 1; k < digits; k++) {
                s.append((char) ('0' + random.nextInt(10)));
            }
            s.append('e').append(random.nextInt(-360, 330));
            assertSameAsJdk(s.toString());
        }
    }

    @Test
    void pixelScaleDecimalsRoundLikeTheJdk() {
        for (int v = 0; v < 256; v++) {
            for (int scale : new int[] {255, 255 * 28, 1000, 7, 3}) {
                assertSameAsJdk(Double.toString(v / (double) scale));
                assertSameAsJdk(String.format(java.util.Locale.ROOT, "%.6f", v / (double) scale));
                assertSameAsJdk(String.format(java.util.Locale.ROOT, "%.19f", v / (double) scale));
            }
        }
    }

    @Test
    void tiesAndNearTiesRoundLikeTheJdk() {
        SplittableRandom random = new SplittableRandom(3);
        List<String> cases = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            double d = Math.scalb(1 + random.nextDouble(), random.nextInt(-1000, 1000));
            BigDecimal mid = new BigDecimal(d).add(new BigDecimal(Math.nextUp(d))).divide(BigDecimal.valueOf(2));
            // the exact midpoint (many digits: the JDK path), and its 17–19-digit neighbours
            cases.add(mid.toString());
            for (int p = 17; p <= 19; p++) {
                BigDecimal rounded = mid.round(new java.math.MathContext(p, java.math.RoundingMode.HALF_EVEN));
                cases.add(rounded.toString());
                cases.add(rounded.add(rounded.ulp()).toString());
                cases.add(rounded.subtract(rounded.ulp()).toString());
            }
        }
        // exact ties that fit in 19 digits: odd integers between 2^53 and 2^63
        for (long k = (1L << 53) + 1; k < (1L << 53) + 2001; k += 2) {
            cases.add(Long.toString(k));
            cases.add(Long.toString(k * 512 + 256));
        }
        for (String s : cases) {
            assertSameAsJdk(s);
        }
    }

    @Test
    void edgesOfTheDoubleRangeRoundLikeTheJdk() {
        for (String s : new String[] {"1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
            "2.2250738585072014e-308", "2.2250738585072011e-308", "2.225073858507201e-308", "4.9e-324", "2.5e-324",
            "2.4e-324", "1e-400", "1e-342", "1e-343", "9999999999999999999e-343", "1e308", "9.999999999999999999e307",
            "1e23", "8.98846567431158e307", "9007199254740993", "9007199254740993.0000000001", "0.1", "0.3",
            "123456789012345678", "1234567890123456789", "9999999999999999999", "18446744073709551615",
            "0.00000000000000000000000000000000000001", "-0.0", "0", "0e-999", "7e-10", "4.35679e-5"}) {
            assertSameAsJdk(s);
        }
    }
}
