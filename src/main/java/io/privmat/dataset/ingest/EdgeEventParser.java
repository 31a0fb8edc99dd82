package io.privmat.dataset.ingest;

import io.privmat.dataset.ParsedEdges;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A batch of weighted edge events {@code u,v[,w]} (CSV or TSV) for an edge stream, read into
 * memory: labels must belong to the declared vertex set, w defaults to 1 and must lie in [0, 1],
 * self-loops are refused; the same pair may appear in several events (each is a privacy unit).
 * The header rule is the edge lists' one (a non-numeric third field on the first line).
 */
final class EdgeEventParser {

    private EdgeEventParser() {}

    static ParsedEdges parse(InputStream in, byte delimiter, @Nullable Boolean header, Map<String, Integer> ids,
            int maxEdges, String format, java.util.function.LongSupplier bytesRead) {
        LineReader reader = new LineReader(in, delimiter);
        if (!reader.nextLine()) {
            throw InvalidDataException.whole("the batch is empty");
        }
        boolean skip = reader.isHeader(header, 3);
        if (skip && !reader.nextLine()) {
            throw InvalidDataException.whole("the batch has a header but no edges");
        }
        boolean firstLineDetectedAsData = header == null && !skip;
        int[] u = new int[16];
        int[] v = new int[16];
        double[] w = new double[16];
        int n = 0;
        do {
            int fields = reader.countFields();
            if (fields != 2 && fields != 3) {
                throw InvalidDataException.at(reader.lineNo, 0, "an edge line must be u,v or u,v,w but has "
                        + fields + " fields");
            }
            if (n == maxEdges) {
                throw InvalidDataException.whole("more than " + maxEdges + " edge events in one batch");
            }
            reader.nextField();
            int a = vertex(reader, ids, firstLineDetectedAsData);
            reader.nextField();
            int b = vertex(reader, ids, firstLineDetectedAsData);
            double weight = 1.0;
            if (fields == 3) {
                reader.nextField();
                weight = reader.fieldDouble();
                if (!(weight >= 0 && weight <= 1)) {
                    throw InvalidDataException.at(reader.lineNo, 3, "edge weights must lie in [0, 1]");
                }
            }
            if (a == b) {
                throw InvalidDataException.at(reader.lineNo, 0, "self-loops are not allowed");
            }
            if (n == u.length) {
                int size = (int) Math.min(maxEdges, 2L * n);
                u = Arrays.copyOf(u, size);
                v = Arrays.copyOf(v, size);
                w = Arrays.copyOf(w, size);
            }
            u[n] = a;
            v[n] = b;
            w[n] = weight;
            n++;
        } while (reader.nextLine());
        return new ParsedEdges(Arrays.copyOf(u, n), Arrays.copyOf(v, n), Arrays.copyOf(w, n), format,
                bytesRead.getAsLong());
    }

    private static int vertex(LineReader reader, Map<String, Integer> ids, boolean firstLineDetectedAsData) {
        String label = reader.fieldString();
        Integer id = label.length() > EdgeListParser.MAX_LABEL ? null : ids.get(label);
        if (id == null) {
            throw InvalidDataException.at(reader.lineNo, reader.fieldNo, "vertex label is not in the stream's "
                    + "declared vertex set" + EdgeListParser.headerHint(reader.lineNo, firstLineDetectedAsData));
        }
        return id;
    }
}
