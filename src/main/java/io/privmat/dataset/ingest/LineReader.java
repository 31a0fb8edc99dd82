package io.privmat.dataset.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads a text upload line by line into a reusable byte buffer and splits each line into fields,
 * without creating a String per number. Numbers are parsed by {@link #parseDouble}: a strict
 * decimal syntax (no NaN, no infinities, no hex, no type suffixes), exact via the classic
 * fast path (mantissa &lt; 2^53 and |exponent| ≤ 22: one correctly rounded division) and through
 * {@link Double#parseDouble} otherwise.
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
    // field state
    private int fieldStart;
    private int fieldEnd;
    private int cursor;
    int fieldNo;

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
                return true;
            }
        }
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
        } else {
            int start = i;
            while (i < lineLen && line[i] != delimiter) {
                i++;
            }
            fieldStart = start;
            fieldEnd = i;
            cursor = i + 1;
            trim();
        }
        fieldNo++;
    }

    private void trim() {
        while (fieldStart < fieldEnd && (line[fieldStart] == ' ' || line[fieldStart] == '\t')) {
            fieldStart++;
        }
        while (fieldEnd > fieldStart && (line[fieldEnd - 1] == ' ' || line[fieldEnd - 1] == '\t')) {
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
        for (int i = 0; i < lineLen; i++) {
            if (line[i] == delimiter) {
                n++;
            }
        }
        return n;
    }

    String fieldString() {
        int s = fieldStart;
        int e = fieldEnd;
        if (e - s >= 2 && line[s] == '"' && line[e - 1] == '"') {
            s++;
            e--;
        }
        return new String(line, s, e - s, StandardCharsets.UTF_8);
    }

    boolean fieldIsNumber() {
        return !Double.isNaN(tryParse(line, fieldStart, fieldEnd));
    }

    /**
     * True when the current field is a number, finite or not ({@code NaN}, {@code -Infinity}): a
     * line whose fields are numbers is data (to be refused with its position if not finite), never
     * a header.
     */
    boolean fieldLooksNumeric() {
        return fieldIsNumber()
                || "NaN and infinite values are not allowed".equals(describeBad(line, fieldStart, fieldEnd));
    }

    /** Parses the current field as a finite double or throws {@link InvalidDataException}. */
    double fieldDouble() {
        double v = tryParse(line, fieldStart, fieldEnd);
        if (Double.isNaN(v)) {
            throw InvalidDataException.at(lineNo, fieldNo, describeBad(line, fieldStart, fieldEnd));
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
            int d = line[i] - '0';
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
        String lower = new String(b, s, Math.min(e - s, 12), StandardCharsets.US_ASCII).toLowerCase();
        String body = lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower;
        if (body.startsWith("nan") || body.startsWith("inf")) {
            return "NaN and infinite values are not allowed";
        }
        return "not a decimal number";
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
            if (significant < 18) {
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
                if (significant < 18) {
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
        if (!overflowDigits && mantissa < (1L << 53) && exponent >= -22 && exponent <= 22) {
            // Both operands are exact doubles, so one IEEE operation rounds the exact value correctly.
            value = exponent >= 0 ? mantissa * POW10[exponent] : mantissa / POW10[-exponent];
            return negative ? -value : value;
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

    /** {@link #nextLine()}, named for readability where the current line is being skipped. */
    boolean nextLineAfter() {
        return nextLine();
    }
}
