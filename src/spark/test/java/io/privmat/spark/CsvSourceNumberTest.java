package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A CSV field read as a number gives the bits {@link Double#parseDouble} gives, or null where it
 * throws: reading plain decimals as uploads do ({@code Decimals}) changes the speed, never a value.
 */
class CsvSourceNumberTest {

    private static void same(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        Double expected;
        try {
            expected = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            expected = null;
        }
        Double got = CsvSource.number(bytes, bytes.length);
        if (expected == null) {
            assertThat(got).as(text).isNull();
        } else {
            assertThat(got).as(text).isNotNull();
            assertThat(Double.doubleToRawLongBits(got)).as(text).isEqualTo(Double.doubleToRawLongBits(expected));
        }
    }

    @Test
    void edgeCasesGiveParseDoublesBits() {
        for (String s : List.of("0", "-0", "+0", "0.0", "-0.000", "00001.5000", ".5", "5.", "-.5e-3", "1e22", "1e23",
                "1e-22", "1e-23", "9007199254740991", "9007199254740992", "9007199254740993", "123456789012345678",
                "0.1", "0.2", "0.3", "2.5e+10", "7E-5", " 1.5 ", "\t-2\t", "1e", "e5", ".", "-", "+", "1.2.3", "1e5d",
                "2.5d", "0x1p3", "NaN", "-Infinity", "1e400", "1e-400", "0e999", "0e99999", "1_0", "١", "12a",
                "3.14159265358979", "3.141592653589793", "4.35", "0.000001", "1e-7", "99999999999999999e-22",
                "4503599627370497.5", "1.7976931348623157e308", "4.9e-324", "")) {
            if (!s.isEmpty()) {
                same(s);
            }
        }
    }

    @Test
    void seededDecimalsGiveParseDoublesBits() {
        SplittableRandom r = new SplittableRandom(34);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            double v = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-12, 13));
            switch (i % 6) {
                case 0 -> texts.add(Double.toString(v));
                case 1 -> texts.add(String.format(Locale.ROOT, "%." + r.nextInt(0, 18) + "f", v));
                case 2 -> texts.add(String.format(Locale.ROOT, "%." + r.nextInt(0, 17) + "e", v));
                case 3 -> texts.add(Long.toString(r.nextLong(-(1L << 60), 1L << 60)));
                case 4 -> texts.add(r.nextInt(0, 256) + "");
                default -> texts.add(String.format(Locale.ROOT, "%.6f", r.nextDouble(-0.05, 0.05)));
            }
        }
        for (String t : texts) {
            same(t);
        }
    }
}
