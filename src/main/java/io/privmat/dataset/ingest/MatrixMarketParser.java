package io.privmat.dataset.ingest;

import io.privmat.dataset.storage.DatasetRepository;
import java.io.InputStream;
import java.io.StringReader;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;

/**
 * Matrix Market ({@code %%MatrixMarket matrix coordinate|array real|integer|pattern
 * general|symmetric|skew-symmetric}). Entries may come in any order (coordinate files are often
 * column-major), so they are staged in a temporary table with COPY and read back sorted by row:
 * the JVM holds one batch and one chunk, PostgreSQL does the sort.
 */
final class MatrixMarketParser {

    private static final int BATCH = 20_000;

    private MatrixMarketParser() {}

    /**
     * @param maxSparseRows the most rows a coordinate body of the given size may declare
     *     ({@link IngestSettings#maxSparseRows}): rows without entries are stored (a row header
     *     each) but cost no body bytes, so without this bound a tiny body could write gigabytes
     * @param bodyBytes bytes of the body read so far (the whole body once entries are read)
     */
    static <W extends RowSink> W parse(InputStream in, int maxColumns, long maxDenseBytes, LongUnaryOperator maxSparseRows,
            LongSupplier bodyBytes, DatasetRepository repository, IntFunction<W> writers) {
        LineReader reader = new LineReader(in, (byte) ' ');
        if (!reader.nextLine()) {
            throw InvalidDataException.whole("the upload is empty");
        }
        // ISO-8859-1 maps every byte (nothing replaced): a banner with other bytes does not match.
        String banner = new String(reader.line, 0, reader.lineLen, java.nio.charset.StandardCharsets.ISO_8859_1)
                .trim().toLowerCase(Locale.ROOT);
        String[] words = banner.split("\\s+");
        if (words.length != 5 || !words[0].equals("%%matrixmarket") || !words[1].equals("matrix")) {
            throw InvalidDataException.at(1, 0, "expected the banner '%%MatrixMarket matrix <format> <field> <symmetry>'");
        }
        boolean coordinate = switch (words[2]) {
            case "coordinate" -> true;
            case "array" -> false;
            default -> throw InvalidDataException.at(1, 3, "format must be coordinate or array");
        };
        String field = words[3];
        if (!field.equals("real") && !field.equals("integer") && !field.equals("double") && !field.equals("pattern")) {
            throw InvalidDataException.at(1, 4, "field must be real, integer or pattern (complex is not supported)");
        }
        boolean pattern = field.equals("pattern");
        if (pattern && !coordinate) {
            throw InvalidDataException.at(1, 4, "pattern is only valid with the coordinate format");
        }
        String symmetry = words[4];
        if (!symmetry.equals("general") && !symmetry.equals("symmetric") && !symmetry.equals("skew-symmetric")) {
            throw InvalidDataException.at(1, 5, "symmetry must be general, symmetric or skew-symmetric");
        }
        boolean mirror = !symmetry.equals("general");
        boolean skew = symmetry.equals("skew-symmetric");
        // Size line (after comments).
        do {
            if (!reader.nextLine()) {
                throw InvalidDataException.whole("missing the size line");
            }
        } while (reader.line[0] == '%');
        int expectedFields = coordinate ? 3 : 2;
        if (reader.countFields() != expectedFields) {
            throw InvalidDataException.at(reader.lineNo, 0, "the size line must have " + expectedFields + " integers");
        }
        long sizeLine = reader.lineNo;
        reader.nextField();
        long rows = reader.fieldLong();
        reader.nextField();
        long cols = reader.fieldLong();
        long declared;
        if (coordinate) {
            reader.nextField();
            declared = reader.fieldLong();
        } else {
            declared = mirror ? (skew ? rows * (rows - 1) / 2 : rows * (rows + 1) / 2) : rows * cols;
        }
        if (rows == 0 || cols == 0) {
            throw InvalidDataException.at(reader.lineNo, 0, "the matrix is empty (a dimension is 0)");
        }
        if (cols > maxColumns || rows > Integer.MAX_VALUE) {
            throw InvalidDataException.at(reader.lineNo, 0,
                    "too large: at most " + maxColumns + " columns and 2^31-1 rows are accepted");
        }
        if (coordinate && rows * cols > maxDenseBytes / Double.BYTES) {
            // rows ≤ 2^31 and cols ≤ maxColumns, so the product cannot overflow a long.
            throw InvalidDataException.at(reader.lineNo, 0, "the declared " + rows + "×" + cols
                    + " matrix would take " + rows * cols * Double.BYTES + " bytes stored densely; a sparse "
                    + "(coordinate) upload may declare at most " + maxDenseBytes
                    + " bytes (privmat.ingest.max-dense-size)");
        }
        if (mirror && rows != cols) {
            throw InvalidDataException.at(reader.lineNo, 0, "a " + symmetry + " matrix must be square");
        }
        repository.execute("CREATE TEMP TABLE mm_stage (r integer, c integer, v double precision, line bigint) "
                + "ON COMMIT DROP");
        StringBuilder batch = new StringBuilder();
        int inBatch = 0;
        long seen = 0;
        long arrayIndex = 0;
        long arrayCol = 1;
        long arrayRow = skew ? 2 : 1;
        int valueFields = coordinate ? (pattern ? 2 : 3) : 1;
        while (reader.nextLine()) {
            if (reader.line[0] == '%') {
                continue;
            }
            if (seen == declared) {
                throw InvalidDataException.at(reader.lineNo, 0, "more entries than the " + declared + " declared");
            }
            if (reader.countFields() != valueFields) {
                throw InvalidDataException.at(reader.lineNo, 0, "an entry line must have " + valueFields + " fields");
            }
            long r;
            long c;
            double v;
            if (coordinate) {
                reader.nextField();
                r = reader.fieldLong();
                reader.nextField();
                c = reader.fieldLong();
                if (r < 1 || r > rows || c < 1 || c > cols) {
                    throw InvalidDataException.at(reader.lineNo, 0, "index outside the declared "
                            + rows + "×" + cols + " matrix (indices are 1-based)");
                }
                if (pattern) {
                    v = 1.0;
                } else {
                    reader.nextField();
                    v = reader.fieldDouble();
                }
            } else {
                reader.nextField();
                v = reader.fieldDouble();
                if (mirror) {
                    // Lower triangle, column-major: column j holds rows j..n (skew: j+1..n).
                    if (arrayRow > rows) {
                        arrayCol++;
                        arrayRow = skew ? arrayCol + 1 : arrayCol;
                    }
                    r = arrayRow++;
                    c = arrayCol;
                } else {
                    r = arrayIndex % rows + 1;
                    c = arrayIndex / rows + 1;
                }
                arrayIndex++;
            }
            if (mirror && c > r) {
                throw InvalidDataException.at(reader.lineNo, 0, "a " + symmetry + " file lists only the lower triangle");
            }
            if (skew && r == c) {
                throw InvalidDataException.at(reader.lineNo, 0, "a skew-symmetric matrix has no diagonal entries");
            }
            seen++;
            inBatch += stage(batch, r, c, v, reader.lineNo);
            if (mirror && r != c) {
                inBatch += stage(batch, c, r, skew ? -v : v, reader.lineNo);
            }
            if (inBatch >= BATCH) {
                repository.copyIn("COPY mm_stage FROM STDIN", new StringReader(batch.toString()));
                batch.setLength(0);
                inBatch = 0;
            }
        }
        if (seen < declared) {
            throw InvalidDataException.at(reader.lineNo + 1, 0, "only " + seen + " of the " + declared + " declared entries");
        }
        if (coordinate && rows > maxSparseRows.applyAsLong(bodyBytes.getAsLong())) {
            // Checked once the whole body is read, before any row is written.
            throw InvalidDataException.at(sizeLine, 0, "the coordinate file declares " + rows + " rows but its body "
                    + "has only " + bodyBytes.getAsLong() + " bytes; a sparse upload may declare at most "
                    + maxSparseRows.applyAsLong(bodyBytes.getAsLong()) + " rows for that size (65536 plus "
                    + "privmat.ingest.max-rows-per-body-byte per byte): rows without entries are stored too");
        }
        if (inBatch > 0) {
            repository.copyIn("COPY mm_stage FROM STDIN", new StringReader(batch.toString()));
        }
        W writer = writers.apply((int) cols);
        SortedEntryAssembler assembler = new SortedEntryAssembler(writer, rows, (int) cols);
        repository.stream("SELECT r, c, v, line FROM mm_stage ORDER BY r, c, line", 10_000,
                rs -> assembler.accept(rs.getInt(1), rs.getInt(2), rs.getDouble(3), rs.getLong(4)));
        assembler.finish();
        return writer;
    }

    private static int stage(StringBuilder batch, long r, long c, double v, long line) {
        batch.append(r - 1).append('\t').append(c - 1).append('\t').append(v).append('\t').append(line).append('\n');
        return 1;
    }

    /** Turns (row, col)-sorted entries into rows, zero rows included; refuses duplicates. */
    private static final class SortedEntryAssembler {
        private final RowSink writer;
        private final long rows;
        private final int[] columns;
        private final double[] values;
        private long currentRow;
        private int n;
        private int lastCol = -1;
        private long lastLine;

        SortedEntryAssembler(RowSink writer, long rows, int cols) {
            this.writer = writer;
            this.rows = rows;
            this.columns = new int[cols];
            this.values = new double[cols];
        }

        void accept(int r, int c, double v, long line) {
            while (currentRow < r) {
                emit();
            }
            if (c == lastCol) {
                throw InvalidDataException.at(line, 0, "duplicate entry: this position was already given on line "
                        + lastLine);
            }
            columns[n] = c;
            values[n] = v;
            n++;
            lastCol = c;
            lastLine = line;
        }

        private void emit() {
            writer.sparseRow(n, columns, values);
            n = 0;
            lastCol = -1;
            currentRow++;
        }

        void finish() {
            while (currentRow < rows) {
                emit();
            }
        }
    }
}
