package io.privmat.dataset.ingest;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.HistogramSchema;
import io.privmat.dataset.ParsedMatrix;
import io.privmat.dataset.storage.DatasetRepository;
import java.io.BufferedInputStream;
import java.io.InputStream;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Parses one upload and writes its chunks. Runs inside the caller's transaction, so a failure
 * anywhere leaves nothing behind.
 */
@Component
public class Ingester {

    private final DatasetRepository repository;
    private final IngestSettings settings;

    public Ingester(DatasetRepository repository, IngestSettings settings) {
        this.repository = repository;
        this.settings = settings;
    }

    public long maxUploadBytes() {
        return settings.maxUploadSize().toBytes();
    }

    /** Fails fast with 413 when the declared length is already over the limit. */
    public void checkDeclaredLength(long contentLength) {
        if (contentLength > maxUploadBytes()) {
            throw LimitedInputStream.tooLarge(maxUploadBytes());
        }
    }

    public UploadStats ingest(Dataset dataset, UploadFormat format, @Nullable Boolean header, InputStream body) {
        LimitedInputStream counted = new LimitedInputStream(body, maxUploadBytes());
        InputStream in = new BufferedInputStream(counted, 1 << 16);
        long chunkBytes = settings.chunkSize().toBytes();
        int maxColumns = settings.maxColumns();
        if (dataset.kind() == DatasetKind.GRAPH) {
            byte delimiter = format == UploadFormat.TSV ? (byte) '\t' : (byte) ',';
            return EdgeListParser.parse(in, delimiter, header, repository, dataset.id(), chunkBytes,
                    format.name(), counted::count);
        }
        if (dataset.kind() == DatasetKind.HISTOGRAM) {
            return histogram(dataset, format, header, in, chunkBytes, counted);
        }
        double bound = dataset.rowNormBound() == null ? Double.NaN : dataset.rowNormBound();
        java.util.function.IntFunction<MatrixWriter> writers =
                cols -> new MatrixWriter(repository, dataset.id(), cols, bound, chunkBytes);
        MatrixWriter writer = switch (format) {
            case CSV -> DelimitedMatrixParser.parse(in, (byte) ',', header, maxColumns, writers);
            case TSV -> DelimitedMatrixParser.parse(in, (byte) '\t', header, maxColumns, writers);
            case MATRIX_MARKET -> MatrixMarketParser.parse(in, maxColumns,
                    settings.maxDenseSize().toBytes(), repository, writers);
            case NPY -> NpyParser.parse(in, maxColumns, writers);
        };
        return writer.finish(format.name(), counted.count());
    }

    /**
     * Reads a whole matrix into memory (a public input, not a dataset): CSV/TSV (dense rows, header
     * detected as for matrices), Matrix Market or .npy, at most {@code maxEntries} values. Runs in the
     * caller's transaction (Matrix Market coordinate entries are sorted in a temporary table).
     */
    public ParsedMatrix readMatrix(UploadFormat format, @Nullable Boolean header, InputStream body, long maxEntries) {
        LimitedInputStream counted = new LimitedInputStream(body, maxUploadBytes());
        InputStream in = new BufferedInputStream(counted, 1 << 16);
        int maxColumns = (int) Math.min(Integer.MAX_VALUE, maxEntries);
        java.util.function.IntFunction<InMemoryMatrix> sinks = cols -> new InMemoryMatrix(cols, maxEntries);
        InMemoryMatrix m = switch (format) {
            case CSV -> DelimitedMatrixParser.parse(in, (byte) ',', header, maxColumns, sinks);
            case TSV -> DelimitedMatrixParser.parse(in, (byte) '\t', header, maxColumns, sinks);
            case MATRIX_MARKET -> MatrixMarketParser.parse(in, maxColumns, maxEntries * Double.BYTES, repository, sinks);
            case NPY -> NpyParser.parse(in, maxColumns, sinks);
        };
        if (m.rows() == 0) {
            throw InvalidDataException.whole("the upload contains no rows");
        }
        return new ParsedMatrix(m.rows(), m.cols(), m.values(), format.name(), counted.count());
    }

    /**
     * Reads a batch of weighted edge events into memory (an edge stream's append; nothing is stored):
     * CSV or TSV {@code u,v[,w]} with labels of the declared vertex set, at most {@code maxEdges}.
     */
    public io.privmat.dataset.ParsedEdges readEdges(UploadFormat format, @Nullable Boolean header, InputStream body,
            java.util.Map<String, Integer> vertexIds, int maxEdges) {
        LimitedInputStream counted = new LimitedInputStream(body, maxUploadBytes());
        InputStream in = new BufferedInputStream(counted, 1 << 16);
        byte delimiter = format == UploadFormat.TSV ? (byte) '\t' : (byte) ',';
        return EdgeEventParser.parse(in, delimiter, header, vertexIds, maxEdges, format.name(), counted::count);
    }

    /**
     * A histogram's counts, stored as one row of {@code cells} values (dense or sparse, whichever is
     * smaller; no clipping: a count is not a norm-bounded row). The stats say records, cells and
     * non-empty cells.
     */
    private UploadStats histogram(Dataset dataset, UploadFormat format, @Nullable Boolean header, InputStream in,
            long chunkBytes, LimitedInputStream counted) {
        HistogramSchema schema = (HistogramSchema) dataset.schema();
        long[] counts = switch (format) {
            case CSV -> HistogramParser.records(in, (byte) ',', header, schema);
            case TSV -> HistogramParser.records(in, (byte) '\t', header, schema);
            case NPY -> HistogramParser.npy(in, schema);
            default -> throw new IllegalStateException("format " + format + " is not accepted for histograms");
        };
        long records = HistogramParser.total(counts);
        double[] row = new double[counts.length];
        long nonEmpty = 0;
        for (int i = 0; i < counts.length; i++) {
            row[i] = counts[i];
            nonEmpty += counts[i] == 0 ? 0 : 1;
        }
        MatrixWriter writer = new MatrixWriter(repository, dataset.id(), counts.length, Double.NaN, chunkBytes);
        writer.denseRow(row);
        UploadStats stored = writer.finish(format.name(), counted.count());
        return new UploadStats(records, counts.length, nonEmpty, 0, format.name(), stored.storage(), stored.bytes());
    }
}
