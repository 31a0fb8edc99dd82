package io.privmat.dataset.ingest;

import java.io.InputStream;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/** Dense rows from CSV or TSV, with an optional header line. */
final class DelimitedMatrixParser {

    private DelimitedMatrixParser() {}

    /**
     * @param header true/false to force, null to detect: a first line with no numeric field is a
     *     header, one with only numeric fields is data, a mix is an error; a header (forced or
     *     detected) must have as many fields as the rows
     */
    static <W extends RowSink> W parse(InputStream in, byte delimiter, @Nullable Boolean header, int maxColumns,
            IntFunction<W> writers) {
        LineReader reader = new LineReader(in, delimiter);
        if (!reader.nextLine()) {
            throw InvalidDataException.whole("the upload is empty");
        }
        int firstCount = reader.countFields();
        boolean skipFirst;
        if (header != null) {
            skipFirst = header;
        } else {
            int numeric = 0;
            int firstNonNumeric = 0;
            for (int c = 1; c <= firstCount; c++) {
                reader.nextField();
                if (reader.fieldLooksNumeric()) {
                    numeric++;
                } else if (firstNonNumeric == 0) {
                    firstNonNumeric = c;
                }
            }
            if (numeric > 0 && numeric < firstCount) {
                throw InvalidDataException.at(reader.lineNo, firstNonNumeric,
                        "not a decimal number (the first line mixes numbers and names; "
                                + "pass header=true or header=false)");
            }
            skipFirst = numeric == 0;
            reader = reader.rewindLine();
        }
        java.util.List<String> labels = null;
        long headerLine = reader.lineNo;
        if (skipFirst) {
            labels = headerLabels(reader.rewindLine());
        }
        if (skipFirst && !reader.nextLineAfter()) {
            throw InvalidDataException.whole("the upload has a header but no rows");
        }
        int cols = reader.countFields();
        if (cols > maxColumns) {
            throw InvalidDataException.at(reader.lineNo, 0,
                    "a row has " + cols + " fields; at most " + maxColumns + " columns are accepted");
        }
        if (labels != null && labels.size() != cols) {
            // Forced or detected, a header names the columns: one whose count differs would lose its
            // names (or shift them), so it is refused rather than dropped (README, "What an upload accepts").
            throw InvalidDataException.at(headerLine, 0, "the header has " + labels.size() + " fields but the rows have "
                    + cols + " (one name per column" + (header == null ? "; the first line has no numbers, so "
                            + "it was read as a header" : "") + ")");
        }
        W writer = writers.apply(cols);
        if (labels != null) {
            writer.columnLabels(labels);
        }
        double[] row = new double[cols];
        do {
            for (int c = 0; c < cols; c++) {
                if (!reader.hasField()) {
                    throw InvalidDataException.at(reader.lineNo, 0,
                            "row has " + c + " fields, expected " + cols + " (ragged rows)"
                                    + reader.delimiterHint());
                }
                row[c] = reader.nextDouble();
            }
            if (reader.hasField()) {
                throw InvalidDataException.at(reader.lineNo, 0,
                        "row has " + reader.countFields() + " fields, expected " + cols + " (ragged rows)"
                                + reader.delimiterHint());
            }
            writer.denseRow(row);
        } while (reader.nextLine());
        return writer;
    }

    /** Longest column name kept from a header. */
    static final int MAX_LABEL = 200;

    /** The header's fields as column names (RFC 4180 unquoted, trimmed). */
    private static java.util.List<String> headerLabels(LineReader reader) {
        java.util.List<String> labels = new java.util.ArrayList<>();
        while (reader.hasField()) {
            reader.nextField();
            String label = reader.fieldString();
            if (label.length() > MAX_LABEL) {
                throw InvalidDataException.at(reader.lineNo, reader.fieldNo,
                        "a column name in the header is longer than " + MAX_LABEL + " characters");
            }
            labels.add(label);
        }
        return labels;
    }
}
