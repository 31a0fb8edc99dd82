package io.privmat.dataset.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LineReaderTest {

    private static double parse(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        return LineReader.tryParse(b, 0, b.length);
    }

    @Test
    void parsesExactlyLikeTheJdkOnRandomDecimals() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            String s = switch (i % 4) {
                case 0 -> Double.toString((random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-30, 30)));
                case 1 -> Long.toString(random.nextLong(-(1L << 53), 1L << 53));
                case 2 -> String.format("%." + random.nextInt(0, 17) + "f", random.nextDouble() * 1000);
                default -> random.nextInt(0, 256) + "." + random.nextInt(0, 1_000_000) + "e" + random.nextInt(-25, 25);
            };
            assertThat(parse(s)).as(s).isEqualTo(Double.parseDouble(s));
        }
    }

    @Test
    void manyDigitsFallBackToTheJdk() {
        String s = "3.14159265358979323846264338327950288";
        assertThat(parse(s)).isEqualTo(Double.parseDouble(s));
        assertThat(parse("123456789012345678901234567890")).isEqualTo(1.2345678901234568e29);
        assertThat(parse("0.000000000000000000000000001")).isEqualTo(1e-27);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-", "+", ".", "e5", "1e", "1e+", "NaN", "Infinity", "-inf", "0x1p3", "1f", "1d",
        "1,5", "1 2", "--1", "1.2.3", "1e999", "-1e400"})
    void rejectsAnythingButFiniteDecimals(String s) {
        assertThat(parse(s)).isNaN();
    }

    @Test
    void splitsFieldsAndCountsLines() {
        LineReader reader = new LineReader(new ByteArrayInputStream(
                "a , b\r\n\n 1,2 \n".getBytes(StandardCharsets.UTF_8)), (byte) ',');
        assertThat(reader.nextLine()).isTrue();
        assertThat(reader.countFields()).isEqualTo(2);
        reader.nextField();
        assertThat(reader.fieldString()).isEqualTo("a");
        reader.nextField();
        assertThat(reader.fieldString()).isEqualTo("b");
        assertThat(reader.hasField()).isFalse();
        assertThat(reader.nextLine()).isTrue();
        assertThat(reader.lineNo).isEqualTo(3);
        reader.nextField();
        assertThat(reader.fieldDouble()).isEqualTo(1.0);
        reader.nextField();
        assertThat(reader.fieldDouble()).isEqualTo(2.0);
        assertThat(reader.nextLine()).isFalse();
    }
}
