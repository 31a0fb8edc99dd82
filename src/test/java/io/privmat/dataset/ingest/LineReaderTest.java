package io.privmat.dataset.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void theOnePassNumberPathAgreesWithTheGeneralOne() {
        SplittableRandom random = new SplittableRandom(5);
        String[] odd = {"-0", "0", "1.", ".5", "-.5", "00012", "1e5", "+1", " 2", "3 ", "\"4\"", "0.011764705882352941",
            "9999999999999999999", "18446744073709551616", "0.00000000000000000001", "12345678901234567890.5", "-", ".",
            "", "x", "1x", "--1", "1.2.3", "NaN", "\"\"", "1e400"};
        for (char delimiter : new char[] {',', '\t'}) {
            StringBuilder text = new StringBuilder();
            for (int line = 0; line < 2000; line++) {
                for (int f = 0; f < 5; f++) {
                    if (f > 0) {
                        text.append(delimiter);
                    }
                    text.append(switch (random.nextInt(4)) {
                        case 0 -> odd[random.nextInt(odd.length)];
                        case 1 -> Double.toString(random.nextInt(256) / 255.0);
                        case 2 -> Long.toString(random.nextLong());
                        default -> Double.toString((random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-30, 30)));
                    });
                }
                text.append(random.nextBoolean() ? "\n" : "\r\n");
            }
            LineReader onePass = reader(text.toString(), delimiter);
            LineReader general = reader(text.toString(), delimiter);
            while (general.nextLine()) {
                assertThat(onePass.nextLine()).isTrue();
                while (general.hasField()) {
                    assertThat(onePass.hasField()).isTrue();
                    general.nextField();
                    Object expected = outcome(general::fieldDouble);
                    Object actual = outcome(onePass::nextDouble);
                    assertThat(actual).as("line %d: %s", general.lineNo, general.fieldString()).isEqualTo(expected);
                    assertThat(onePass.fieldNo).isEqualTo(general.fieldNo);
                }
                assertThat(onePass.hasField()).isFalse();
            }
            assertThat(onePass.nextLine()).isFalse();
        }
    }

    /** The value's bits, or the error's message (which carries line and field). */
    private static Object outcome(java.util.function.DoubleSupplier parse) {
        try {
            return Double.doubleToRawLongBits(parse.getAsDouble());
        } catch (InvalidDataException e) {
            return e.getMessage();
        }
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

    private static LineReader reader(String text, char delimiter) {
        return new LineReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), (byte) delimiter);
    }

    private static java.util.List<java.util.List<String>> records(String text, char delimiter) {
        LineReader r = reader(text, delimiter);
        java.util.List<java.util.List<String>> out = new java.util.ArrayList<>();
        while (r.nextLine()) {
            java.util.List<String> fields = new java.util.ArrayList<>();
            int count = r.countFields();
            while (r.hasField()) {
                r.nextField();
                fields.add(r.fieldString());
            }
            assertThat(fields).as("countFields agrees with the fields read").hasSize(count);
            out.add(fields);
        }
        return out;
    }

    @Test
    void readsRfc4180QuotedFieldsWithDelimitersQuotesAndLineBreaks() {
        String csv = "\"name, first\",\"say \"\"hi\"\"\",plain\r\n"
                + "\"multi\r\nline\",\"\", \"x\" \r\n"
                + "1,\"2.5\",-3\r\n";
        assertThat(records(csv, ',')).containsExactly(
                java.util.List.of("name, first", "say \"hi\"", "plain"),
                java.util.List.of("multi\nline", "", "x"),
                java.util.List.of("1", "2.5", "-3"));
        LineReader r = reader(csv, ',');
        r.nextLine();
        r.nextLine();
        assertThat(r.lineNo).as("a record spanning lines ends on its last physical line").isEqualTo(3);
        r.nextLine();
        r.nextField();
        r.nextField();
        assertThat(r.fieldDouble()).as("a quoted number is a number").isEqualTo(2.5);
        assertThat(records("a\t\"b\tc\"\n", '\t')).containsExactly(java.util.List.of("a", "b\tc"));
    }

    @Test
    void quotesInsideUnquotedFieldsAreKeptAsText() {
        assertThat(records("ab\"c,d\n", ',')).containsExactly(java.util.List.of("ab\"c", "d"));
    }

    @Test
    void refusesUnclosedQuotesAndTextAfterAClosingQuoteWithTheirPosition() {
        LineReader open = reader("1,2\n3,\"4\n5\n", ',');
        open.nextLine();
        assertThatThrownBy(open::nextLine).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("not closed");
        LineReader trailing = reader("\"a\"b,c\n", ',');
        trailing.nextLine();
        assertThatThrownBy(trailing::nextField).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("after the closing quote")
                .satisfies(e -> assertThat(((InvalidDataException) e).getMessage()).isNotBlank());
    }

    @Test
    void hintsWhenTheDelimiterLooksWrong() {
        LineReader semicolons = reader("1;2;3\n", ',');
        semicolons.nextLine();
        semicolons.nextField();
        assertThatThrownBy(semicolons::fieldDouble).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("not a decimal number").hasMessageContaining("';'");
        LineReader commasInTsv = reader("1,2\n", '\t');
        commasInTsv.nextLine();
        assertThat(commasInTsv.delimiterHint()).contains("','");
        LineReader fine = reader("x;y,1\n", ',');
        fine.nextLine();
        assertThat(fine.delimiterHint()).as("several fields: no hint").isEmpty();
        LineReader quoted = reader("\"a;b\"\n", ',');
        quoted.nextLine();
        assertThat(quoted.delimiterHint()).as("a ';' inside quotes is text").isEmpty();
    }
}
