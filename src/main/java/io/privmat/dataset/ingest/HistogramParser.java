package io.privmat.dataset.ingest;

import io.privmat.dataset.HistogramSchema;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A histogram's counts from an upload: records as CSV/TSV (one record a line, one field per declared
 * attribute, a value as its code or its label), or the counts vector as {@code .npy} (the cells in
 * row-major order, first attribute slowest; non-negative integers). Memory: the counts, at most
 * {@link HistogramSchema#MAX_CELLS} longs. Errors name the line and column (or byte offset) and the
 * rule broken, never the value.
 */
final class HistogramParser {

    /** Largest total count: exact in a double. */
    static final long MAX_TOTAL = 1L << 53;

    private HistogramParser() {}

    /** The counts of the records in a delimited upload. */
    static long[] records(InputStream in, byte delimiter, @Nullable Boolean header, HistogramSchema schema) {
        List<HistogramSchema.Attribute> attributes = schema.attributes();
        int k = attributes.size();
        LineReader reader = new LineReader(in, delimiter);
        if (!reader.nextLine()) {
            throw InvalidDataException.whole("the upload contains no records");
        }
        int[] column = identity(k);
        boolean hasHeader = header != null ? header : isHeader(reader, schema);
        if (hasHeader) {
            column = headerColumns(reader, schema);
            if (!reader.nextLine()) {
                throw InvalidDataException.whole("the upload has a header but no records");
            }
        }
        int[] strides = strides(schema.sizes());
        @SuppressWarnings("unchecked")
        Map<String, Integer>[] labels = new Map[k];
        for (int a = 0; a < k; a++) {
            labels[a] = attributes.get(a).labelIndex();
        }
        long[] counts = new long[schema.cells()];
        int[] codes = new int[k];
        do {
            int fields = reader.countFields();
            if (fields != k) {
                throw InvalidDataException.at(reader.lineNo, 0, "a record has " + fields + " fields; the histogram "
                        + "declares " + k + " attribute" + (k == 1 ? "" : "s"));
            }
            for (int f = 0; f < k; f++) {
                reader.nextField();
                int a = column[f];
                HistogramSchema.Attribute attribute = attributes.get(a);
                int code = attribute.code(reader.fieldString(), labels[a]);
                if (code < 0) {
                    throw InvalidDataException.at(reader.lineNo, f + 1, "not a value of attribute '"
                            + attribute.name() + "' (codes 0–" + (attribute.size() - 1)
                            + (attribute.labels() == null ? "" : " or its " + attribute.size() + " labels") + ")");
                }
                codes[a] = code;
            }
            int cell = 0;
            for (int a = 0; a < k; a++) {
                cell += codes[a] * strides[a];
            }
            counts[cell]++;
        } while (reader.nextLine());
        return counts;
    }

    /** The counts of a {@code .npy} counts vector (1-D of the cells, or 2-D flattening to them). */
    static long[] npy(InputStream in, HistogramSchema schema) {
        int cells = schema.cells();
        Collector collector = NpyParser.parse(in, cells, cols -> new Collector(cells, cols));
        if (collector.next != cells) {
            throw InvalidDataException.whole("the array has " + collector.next + " values; the histogram has " + cells
                    + " cells (the product of its attributes' sizes)");
        }
        return collector.counts;
    }

    /** Sum of the counts, refusing totals a double cannot hold exactly. */
    static long total(long[] counts) {
        long total = 0;
        for (long c : counts) {
            total += c;
            if (total > MAX_TOTAL) {
                throw InvalidDataException.whole("the counts add up to more than 2^53 records");
            }
        }
        return total;
    }

    private static final class Collector implements RowSink {
        final long[] counts;
        int next;
        private final int cols;

        Collector(int cells, int cols) {
            this.counts = new long[cells];
            this.cols = cols;
        }

        @Override
        public void denseRow(double[] row) {
            for (int c = 0; c < row.length; c++) {
                double v = row[c];
                long offset = (long) next * 8;
                if (next >= counts.length) {
                    throw InvalidDataException.whole("the array has more values than the histogram's "
                            + counts.length + " cells");
                }
                if (v < 0 || v != Math.rint(v) || v > MAX_TOTAL) {
                    throw InvalidDataException.whole("value " + next + " (row " + next / cols + ", column "
                            + next % cols + ") is not a count: counts are non-negative integers up to 2^53");
                }
                counts[next++] = (long) v;
            }
        }
    }

    private static boolean isHeader(LineReader reader, HistogramSchema schema) {
        if (reader.countFields() != schema.attributes().size()) {
            return false;
        }
        try {
            headerColumns(reader, schema);
            return true;
        } catch (InvalidDataException notAHeader) {
            return false;
        } finally {
            reader.rewindLine();
        }
    }

    /** For each field of the header line, the attribute it names (each attribute once). */
    private static int[] headerColumns(LineReader reader, HistogramSchema schema) {
        List<String> names = schema.names();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            index.put(names.get(i), i);
        }
        int fields = reader.countFields();
        if (fields != names.size()) {
            throw InvalidDataException.at(reader.lineNo, 0, "the header has " + fields + " fields; the histogram "
                    + "declares " + names.size() + " attributes");
        }
        int[] column = new int[fields];
        boolean[] seen = new boolean[fields];
        for (int f = 0; f < fields; f++) {
            reader.nextField();
            Integer a = index.get(reader.fieldString());
            if (a == null || seen[a]) {
                throw InvalidDataException.at(reader.lineNo, f + 1, a == null
                        ? "the header names no declared attribute here" : "the header repeats an attribute");
            }
            seen[a] = true;
            column[f] = a;
        }
        return column;
    }

    private static int[] identity(int k) {
        int[] c = new int[k];
        for (int i = 0; i < k; i++) {
            c[i] = i;
        }
        return c;
    }

    /** Row-major strides: the first attribute varies slowest. */
    static int[] strides(int[] sizes) {
        int[] strides = new int[sizes.length];
        int s = 1;
        for (int a = sizes.length - 1; a >= 0; a--) {
            strides[a] = s;
            s *= sizes[a];
        }
        return strides;
    }
}
