package io.privmat.dataset.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads a text upload line by line into a reusable byte buffer and splits each line into fields,
 * without creating a String per number. Numbers are parsed by {@link #tryParse}: a strict
 * decimal syntax (no NaN, no infinities, no hex, no type suffixes), exact via the classic
 * fast path (mantissa &lt; 2^53 and |exponent| ≤ 22: one correctly rounded division), else for up
 * to 19 significant digits via {@link DecimalToDouble} (a 128-bit multiplication), and through
 * {@link Double#parseDouble} when neither decides (more digits, subnormals, rare near-ties).
 *
 * <p>With a delimiter other than whitespace, fields follow RFC 4180: a field that starts with a
 * double quote (after optional spaces) runs to the matching closing quote and may contain the
 * delimiter, line breaks and doubled quotes ({@code ""} for one {@code "}); a record whose quoted
 * field spans lines is one logical line ({@link #lineNo} is then its last physical line). LF and
 * CRLF line ends are both accepted. An unclosed quote or text after a closing quote is refused
 * with its line and field.
 */
final class LineReader {

    private static final int MAX_LINE = 64 * 1024 * 1024;
    private static final double[] POW10 = new double[23];

    static {
        double p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
    }

    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];
    private int bufferPos;
    private int bufferLen;
    private boolean eof;

    byte[] line = new byte[1 << 12];
    int lineLen;
    long lineNo;

    private final byte delimiter;
    private final boolean whitespaceDelimited;
    // field state: the current field's bytes are field[fieldStart, fieldEnd): the line itself, or
    // the scratch buffer holding a quoted field without its quotes
    private byte[] field = line;
    private byte[] unquoted = new byte[256];
    private int fieldStart;
    private int fieldEnd;
    private int cursor;
    int fieldNo;
    /** Strict: malformed input is reported, never replaced. */
    private final java.nio.charset.CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
            .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);

    /**
     * @param delimiter the field separator; {@code ' '} means runs of spaces or tabs
     */
    LineReader(InputStream in, byte delimiter) {
        this.in = in;
        this.delimiter = delimiter;
        this.whitespaceDelimited = delimiter == ' ';
    }

    /** Advances to the next line that is not blank; false at end of input. */
    boolean nextLine() {
        while (true) {
            if (!readRawLine()) {
                return false;
            }
            if (!isBlank()) {
                cursor = 0;
                fieldNo = 0;
                requireUtf8();
                return true;
            }
        }
    }

    /**
     * Refuses a line that is not strict UTF-8 (issue 36, item 5), with its line and the column (field)
     * of the first malformed byte, whichever field it is in: nothing downstream ever sees U+FFFD.
     */
    private void requireUtf8() {
        int i = 0;
        while (i < lineLen && line[i] >= 0) {
            i++;
        }
        if (i == lineLen) {
            return; // ASCII
        }
        if (decodeStrict(line, 0, lineLen) == null) {
            throw InvalidDataException.at(lineNo, columnAt(malformedAt), "the text is not valid UTF-8 (byte "
                    + (malformedAt + 1) + " of the line); text uploads must be UTF-8");
        }
    }

    /** Offset, within the bytes given, of the malformed byte found by the last failed {@link #decodeStrict}. */
    private int malformedAt;

    /** Strict UTF-8 decoding: the text, or null (with {@link #malformedAt}) when malformed. */
    private @org.jspecify.annotations.Nullable String decodeStrict(byte[] bytes, int offset, int length) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes, offset, length);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(length);
        utf8.reset();
        java.nio.charset.CoderResult result = utf8.decode(in, out, true);
        if (!result.isError()) {
            result = utf8.flush(out);
        }
        if (result.isError()) {
            malformedAt = in.position() - offset;
            return null;
        }
        return out.flip().toString();
    }

    /** The 1-based field that byte {@code offset} of the line belongs to (delimiters inside quotes skipped). */
    private int columnAt(int offset) {
        if (whitespaceDelimited) {
            int column = 0;
            boolean previousSpace = true;
            for (int i = 0; i <= offset && i < lineLen; i++) {
                boolean space = line[i] == ' ' || line[i] == '\t';
                if (!space && previousSpace) {
                    column++;
                }
                previousSpace = space;
            }
            return Math.max(column, 1);
        }
        int column = 1;
        boolean quoted = false;
        for (int i = 0; i < offset && i < lineLen; i++) {
            if (line[i] == '"') {
                quoted = !quoted;
            } else if (line[i] == delimiter && !quoted) {
                column++;
            }
        }
        return column;
    }

    private boolean isBlank() {
        for (int i = 0; i < lineLen; i++) {
            byte b = line[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private boolean readRawLine() {
        lineLen = 0;
        if (!readPhysicalLine()) {
            return false;
        }
        if (whitespaceDelimited) {
            return true;
        }
        long startLine = lineNo;
        while (endsInsideQuotes()) {
            appendByte((byte) '\n');
            if (!readPhysicalLine()) {
                throw InvalidDataException.at(startLine, 0, "a quoted field is not closed before the end of the upload");
            }
        }
        return true;
    }

    /** Whether the logical line read so far ends inside a quoted field (RFC 4180 states). */
    private boolean endsInsideQuotes() {
        boolean fieldStart = true;
        boolean quoted = false;
        for (int i = 0; i < lineLen; i++) {
            byte b = line[i];
            if (quoted) {
                if (b == '"') {
                    if (i + 1 < lineLen && line[i + 1] == '"') {
                        i++;
                    } else {
                        quoted = false;
                    }
                }
            } else if (b == delimiter) {
                fieldStart = true;
            } else if (b == '"' && fieldStart) {
                quoted = true;
                fieldStart = false;
            } else if (b != ' ' && b != '\t') {
                fieldStart = false;
            }
        }
        return quoted;
    }

    private void appendByte(byte b) {
        if (lineLen == line.length) {
            byte[] bigger = new byte[line.length * 2];
            System.arraycopy(line, 0, bigger, 0, lineLen);
            line = bigger;
        }
        line[lineLen++] = b;
    }

    /** Appends one physical line (without its LF or CRLF) to {@link #line}; false at end of input. */
    private boolean readPhysicalLine() {
        boolean any = false;
        while (true) {
            if (bufferPos == bufferLen) {
                if (eof || !fill()) {
                    if (any) {
                        lineNo++;
                        stripCr();
                        return true;
                    }
                    return false;
                }
            }
            any = true;
            int start = bufferPos;
            int i = start;
            while (i < bufferLen && buffer[i] != '\n') {
                i++;
            }
            append(start, i - start);
            if (i < bufferLen) {
                bufferPos = i + 1;
                lineNo++;
                stripCr();
                return true;
            }
            bufferPos = bufferLen;
        }
    }

    private void stripCr() {
        if (lineLen > 0 && line[lineLen - 1] == '\r') {
            lineLen--;
        }
    }

    private void append(int from, int n) {
        if (lineLen + n > line.length) {
            if (lineLen + n > MAX_LINE) {
                throw InvalidDataException.at(lineNo + 1, 0, "line longer than " + MAX_LINE + " bytes");
            }
            byte[] bigger = new byte[Math.max(line.length * 2, lineLen + n)];
            System.arraycopy(line, 0, bigger, 0, lineLen);
            line = bigger;
        }
        System.arraycopy(buffer, from, line, lineLen, n);
        lineLen += n;
    }

    private boolean fill() {
        try {
            int n = in.read(buffer, 0, buffer.length);
            if (n < 0) {
                eof = true;
                return false;
            }
            bufferPos = 0;
            bufferLen = n;
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True if the current line has another field. */
    boolean hasField() {
        if (whitespaceDelimited) {
            while (cursor < lineLen && (line[cursor] == ' ' || line[cursor] == '\t')) {
                cursor++;
            }
            return cursor < lineLen;
        }
        return cursor <= lineLen;
    }

    /** Moves to the next field; its bytes are [fieldStart, fieldEnd), trimmed of spaces. */
    void nextField() {
        int i = cursor;
        if (whitespaceDelimited) {
            while (i < lineLen && (line[i] == ' ' || line[i] == '\t')) {
                i++;
            }
            int start = i;
            while (i < lineLen && line[i] != ' ' && line[i] != '\t') {
                i++;
            }
            fieldStart = start;
            fieldEnd = i;
            cursor = i;
            field = line;
        } else {
            int start = i;
            while (start < lineLen && (line[start] == ' ' || line[start] == '\t') && line[start] != delimiter) {
                start++;
            }
            if (start < lineLen && line[start] == '"') {
                fieldNo++;
                nextQuotedField(start);
                return;
            }
            while (i < lineLen && line[i] != delimiter) {
                i++;
            }
            field = line;
            fieldStart = start;
            fieldEnd = i;
            cursor = i + 1;
            trim();
        }
        fieldNo++;
    }

    /** An RFC 4180 quoted field starting at the quote at {@code quote}: unescaped into the scratch buffer. */
    private void nextQuotedField(int quote) {
        int n = 0;
        int i = quote + 1;
        while (true) {
            if (i >= lineLen) {
                throw InvalidDataException.at(lineNo, fieldNo, "a quoted field is not closed");
            }
            byte b = line[i];
            if (b == '"') {
                if (i + 1 < lineLen && line[i + 1] == '"') {
                    i++;
                } else {
                    i++;
                    break;
                }
            }
            if (n == unquoted.length) {
                unquoted = java.util.Arrays.copyOf(unquoted, n * 2);
            }
            unquoted[n++] = b;
            i++;
        }
        while (i < lineLen && (line[i] == ' ' || line[i] == '\t') && line[i] != delimiter) {
            i++;
        }
        if (i < lineLen && line[i] != delimiter) {
            throw InvalidDataException.at(lineNo, fieldNo,
                    "unexpected text after the closing quote of a quoted field (a quote inside a quoted field is written \"\")");
        }
        field = unquoted;
        fieldStart = 0;
        fieldEnd = n;
        cursor = i + 1;
        trim();
    }

    private void trim() {
        while (fieldStart < fieldEnd && (field[fieldStart] == ' ' || field[fieldStart] == '\t')) {
            fieldStart++;
        }
        while (fieldEnd > fieldStart && (field[fieldEnd - 1] == ' ' || field[fieldEnd - 1] == '\t')) {
            fieldEnd--;
        }
    }

    /** Number of fields on the current line (does not move the cursor). */
    int countFields() {
        if (whitespaceDelimited) {
            int n = 0;
            int i = 0;
            while (i < lineLen) {
                while (i < lineLen && (line[i] == ' ' || line[i] == '\t')) {
                    i++;
                }
                if (i < lineLen) {
                    n++;
                }
                while (i < lineLen && line[i] != ' ' && line[i] != '\t') {
                    i++;
                }
            }
            return n;
        }
        int n = 1;
        boolean fieldStart = true;
        boolean quoted = false;
        for (int i = 0; i < lineLen; i++) {
            byte b = line[i];
            if (quoted) {
                if (b == '"') {
                    if (i + 1 < lineLen && line[i + 1] == '"') {
                        i++;
                    } else {
                        quoted = false;
                    }
                }
            } else if (b == delimiter) {
                n++;
                fieldStart = true;
            } else if (b == '"' && fieldStart) {
                quoted = true;
                fieldStart = false;
            } else if (b != ' ' && b != '\t') {
                fieldStart = false;
            }
        }
        return n;
    }

    /**
     * A hint when the delimiter looks wrong: the current line is one field that contains another
     * usual delimiter (';', tab, ',' or '|') outside quotes; empty otherwise.
     */
    String delimiterHint() {
        if (whitespaceDelimited || countFields() != 1) {
            return "";
        }
        for (byte candidate : new byte[] {';', '\t', ',', '|'}) {
            if (candidate == delimiter) {
                continue;
            }
            boolean quoted = false;
            for (int i = 0; i < lineLen; i++) {
                if (line[i] == '"') {
                    quoted = !quoted;
                } else if (!quoted && line[i] == candidate) {
                    String name = candidate == '\t' ? "tabs" : "'" + (char) candidate + "'";
                    String own = delimiter == '\t' ? "tab" : "'" + (char) delimiter + "'";
                    return " (the line is one " + own + "-separated field that contains " + name
                            + ": is the file separated by " + name + "? text/csv is read with ',', "
                            + "text/tab-separated-values with tabs)";
                }
            }
        }
        return "";
    }

    /**
     * The current field as text, decoded as strict UTF-8: a malformed or truncated sequence (an
     * overlong form, a surrogate, a byte such as 0xFF) is refused with its line and column and the
     * byte's offset within the field, never replaced by U+FFFD (two different labels would otherwise
     * become one: issue 36, item 5).
     */
    String fieldString() {
        int length = fieldEnd - fieldStart;
        boolean ascii = true;
        for (int i = fieldStart; i < fieldEnd && ascii; i++) {
            ascii = field[i] >= 0;
        }
        if (ascii) {
            return new String(field, fieldStart, length, StandardCharsets.ISO_8859_1);
        }
        // Lines are checked whole when read (requireUtf8), so this cannot fail; strict all the same.
        String text = decodeStrict(field, fieldStart, length);
        if (text == null) {
            throw InvalidDataException.at(lineNo, Math.max(fieldNo, 1), "the field is not valid UTF-8 (byte "
                    + (malformedAt + 1) + " of the field); text uploads must be UTF-8");
        }
        return text;
    }

    boolean fieldIsNumber() {
        return !Double.isNaN(tryParse(field, fieldStart, fieldEnd));
    }

    /**
     * True when the current field is a number, finite or not ({@code NaN}, {@code -Infinity}): a
     * line whose fields are numbers is data (to be refused with its position if not finite), never
     * a header.
     */
    boolean fieldLooksNumeric() {
        return fieldIsNumber()
                || "NaN and infinite values are not allowed".equals(describeBad(field, fieldStart, fieldEnd));
    }

    /** Parses the current field as a finite double or throws {@link InvalidDataException}. */
    double fieldDouble() {
        double v = tryParse(field, fieldStart, fieldEnd);
        if (Double.isNaN(v)) {
            throw InvalidDataException.at(lineNo, fieldNo, describeBad(field, fieldStart, fieldEnd) + delimiterHint());
        }
        return v;
    }

    /** Parses the current field as a positive long (Matrix Market indices and sizes). */
    long fieldLong() {
        long v = 0;
        if (fieldEnd == fieldStart || fieldEnd - fieldStart > 18) {
            throw InvalidDataException.at(lineNo, fieldNo, "expected a non-negative integer");
        }
        for (int i = fieldStart; i < fieldEnd; i++) {
            int d = field[i] - '0';
            if (d < 0 || d > 9) {
                throw InvalidDataException.at(lineNo, fieldNo, "expected a non-negative integer");
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static String describeBad(byte[] b, int s, int e) {
        if (s == e) {
            return "empty field where a number is expected";
        }
        // ISO-8859-1 maps every byte (nothing replaced); only ASCII prefixes are compared.
        String lower = new String(b, s, Math.min(e - s, 12), StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT);
        String body = lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower;
        if (body.startsWith("nan") || body.startsWith("inf")) {
            return "NaN and infinite values are not allowed";
        }
        return "not a decimal number";
    }

    /**
     * The double nearest to ±mantissa × 10^exponent (mantissa: at most 19 digits, read as unsigned),
     * or NaN when the fast methods cannot decide it.
     */
    private static double exact(long mantissa, int exponent, boolean negative) {
        if (mantissa >= 0 && mantissa < (1L << 53) && exponent >= -22 && exponent <= 22) {
            // Both operands are exact doubles, so one IEEE operation rounds the exact value correctly.
            double value = exponent >= 0 ? mantissa * POW10[exponent] : mantissa / POW10[-exponent];
            return negative ? -value : value;
        }
        return DecimalToDouble.of(mantissa, exponent, negative);
    }

    /**
     * {@link #nextField()} then {@link #fieldDouble()}, in one pass over the usual field of a CSV
     * or TSV number: unquoted, unpadded, an optional minus, at most 19 digits with an optional
     * point, no exponent. Any other field takes the general path, with the same result and the
     * same errors.
     */
    double nextDouble() {
        if (!whitespaceDelimited) {
            byte[] l = line;
            int end = lineLen;
            int i = cursor;
            boolean negative = i < end && l[i] == '-';
            if (negative) {
                i++;
            }
            long mantissa = 0;
            int digitsStart = i;
            int d;
            while (i < end && (d = l[i] - '0') >= 0 && d <= 9) {
                mantissa = mantissa * 10 + d;
                i++;
            }
            int digits = i - digitsStart;
            int exponent = 0;
            if (i < end && l[i] == '.') {
                int fractionStart = ++i;
                while (i < end && (d = l[i] - '0') >= 0 && d <= 9) {
                    mantissa = mantissa * 10 + d;
                    i++;
                }
                exponent = fractionStart - i;
                digits -= exponent;
            }
            if (digits > 0 && digits <= 19 && (i == end || l[i] == delimiter)) {
                field = l;
                fieldStart = cursor;
                fieldEnd = i;
                cursor = i + 1;
                fieldNo++;
                double value = exact(mantissa, exponent, negative);
                return Double.isNaN(value) ? fieldDouble() : value;
            }
        }
        nextField();
        return fieldDouble();
    }

    /** A finite double, or NaN if [s, e) is not a strictly formed finite decimal. */
    static double tryParse(byte[] b, int s, int e) {
        int i = s;
        if (i == e) {
            return Double.NaN;
        }
        boolean negative = false;
        if (b[i] == '+' || b[i] == '-') {
            negative = b[i] == '-';
            i++;
        }
        long mantissa = 0;
        int digits = 0;
        int significant = 0;
        int exponent = 0;
        boolean overflowDigits = false;
        while (i < e && b[i] >= '0' && b[i] <= '9') {
            if (significant < 19) {
                mantissa = mantissa * 10 + (b[i] - '0');
                if (mantissa != 0) {
                    significant++;
                }
            } else {
                exponent++;
                overflowDigits = true;
            }
            digits++;
            i++;
        }
        if (i < e && b[i] == '.') {
            i++;
            while (i < e && b[i] >= '0' && b[i] <= '9') {
                if (significant < 19) {
                    mantissa = mantissa * 10 + (b[i] - '0');
                    if (mantissa != 0) {
                        significant++;
                    }
                    exponent--;
                } else {
                    overflowDigits = true;
                }
                digits++;
                i++;
            }
        }
        if (digits == 0) {
            return Double.NaN;
        }
        if (i < e && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            boolean expNegative = false;
            if (i < e && (b[i] == '+' || b[i] == '-')) {
                expNegative = b[i] == '-';
                i++;
            }
            int expStart = i;
            int exp = 0;
            while (i < e && b[i] >= '0' && b[i] <= '9') {
                if (exp < 100_000) {
                    exp = exp * 10 + (b[i] - '0');
                }
                i++;
            }
            if (i == expStart) {
                return Double.NaN;
            }
            exponent += expNegative ? -exp : exp;
        }
        if (i != e) {
            return Double.NaN;
        }
        double value;
        if (!overflowDigits) {
            value = exact(mantissa, exponent, negative);
            if (!Double.isNaN(value)) {
                return value;
            }
        }
        value = Double.parseDouble(new String(b, s, e - s, StandardCharsets.US_ASCII));
        return Double.isFinite(value) ? value : Double.NaN;
    }

    /** Restarts field iteration on the current line (after a look-ahead). */
    LineReader rewindLine() {
        cursor = 0;
        fieldNo = 0;
        return this;
    }

    /**
     * Whether the current (first) line is a header: as the caller said, or, when it did not say, a
     * line of {@code fields} fields whose last one is not a number. The line's fields are left unread.
     */
    boolean isHeader(@org.jspecify.annotations.Nullable Boolean header, int fields) {
        if (header != null) {
            return header;
        }
        if (countFields() != fields) {
            return false;
        }
        for (int i = 0; i < fields; i++) {
            nextField();
        }
        boolean named = !fieldLooksNumeric();
        rewindLine();
        return named;
    }

    /** {@link #nextLine()}, named for readability where the current line is being skipped. */
    boolean nextLineAfter() {
        return nextLine();
    }
}
