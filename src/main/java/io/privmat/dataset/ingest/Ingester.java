package io.privmat.dataset.ingest;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.HistogramSchema;
import io.privmat.dataset.ParsedEdges;
import io.privmat.dataset.ParsedMatrix;
import io.privmat.dataset.RatingsSchema;
import io.privmat.dataset.storage.DatasetRepository;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Receives one upload and writes its chunks. {@link #receive} reads the first part of the body
 * without a database connection; {@link #ingest} runs inside the caller's transaction, so a failure
 * anywhere leaves nothing behind.
 */
@Component
public class Ingester {

    private final DatasetRepository repository;
    private final IngestSettings settings;
    private final UploadGate gate;

    public Ingester(DatasetRepository repository, IngestSettings settings, UploadGate gate) {
        this.repository = repository;
        this.settings = settings;
        this.gate = gate;
    }

    public long maxUploadBytes() {
        return settings.maxUploadSize().toBytes();
    }

    /** Fails fast with 413 when the declared length is already over the limit. */
    public void checkDeclaredLength(long contentLength) {
        if (contentLength > maxUploadBytes()) {
            throw UploadStream.tooLarge(maxUploadBytes());
        }
    }

    /** An upload's body: its first {@code prefetch-size} bytes already received, the rest to come. */
    public static final class Received {
        private final UploadStream counted;
        private final InputStream in;

        private Received(UploadStream counted, InputStream in) {
            this.counted = counted;
            this.in = in;
        }
    }

    /**
     * Starts receiving an upload under the upload limits ({@link UploadStream}): reads its first
     * {@code privmat.ingest.prefetch-size} bytes, or all of it if it is smaller, before any database
     * connection is taken. A client that sends slowly is refused (408) while holding none.
     */
    public Received receive(InputStream body) {
        UploadStream counted = new UploadStream(body, settings, gate::aborting);
        try {
            byte[] head = counted.readNBytes((int) settings.prefetchSize().toBytes());
            return new Received(counted, new SequenceInputStream(new ByteArrayInputStream(head), counted));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public UploadStats ingest(Dataset dataset, UploadFormat format, @Nullable Boolean header, Received body) {
        UploadStream counted = body.counted;
        InputStream in = new BufferedInputStream(body.in, 1 << 16);
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
        if (dataset.kind() == DatasetKind.RATINGS) {
            byte delimiter = format == UploadFormat.TSV ? (byte) '\t' : (byte) ',';
            return RatingsParser.parse(in, delimiter, header, (RatingsSchema) dataset.schema(),
                    repository, dataset.id(), chunkBytes, settings.maxRatings(), format.name(), counted::count);
        }
        double bound = dataset.rowNormBound() == null ? Double.NaN : dataset.rowNormBound();
        // The pipeline closes first: the writer thread is idle before the statement is closed.
        try (DatasetRepository.ChunkInserter inserter = repository.chunkInserter();
                ChunkPipeline pipeline = format == UploadFormat.MATRIX_MARKET ? ChunkPipeline.inline()
                        : ChunkPipeline.threaded()) {
            java.util.function.IntFunction<MatrixWriter> writers =
                    cols -> new MatrixWriter(store(inserter, dataset), pipeline, cols, bound, chunkBytes);
            MatrixWriter writer = switch (format) {
                case CSV -> DelimitedMatrixParser.parse(in, (byte) ',', header, maxColumns, writers);
                case TSV -> DelimitedMatrixParser.parse(in, (byte) '\t', header, maxColumns, writers);
                case MATRIX_MARKET -> MatrixMarketParser.parse(in, maxColumns, settings.maxDenseSize().toBytes(),
                        settings::maxSparseRows, counted::count, repository, writers);
                case NPY -> NpyParser.parse(in, maxColumns, writers);
            };
            return writer.finish(format.name(), counted.count());
        }
    }

    private static MatrixWriter.ChunkStore store(DatasetRepository.ChunkInserter inserter, Dataset dataset) {
        return (chunkNo, firstRow, rows, encoding, nnz, payload) ->
                inserter.insert(dataset.id(), chunkNo, firstRow, rows, encoding, nnz, payload);
    }

    /**
     * Reads a whole matrix into memory (a public input, not a dataset): CSV/TSV (dense rows, header
     * detected as for matrices), Matrix Market or .npy, at most {@code maxEntries} values. Runs in the
     * caller's transaction (Matrix Market coordinate entries are sorted in a temporary table).
     */
    public ParsedMatrix readMatrix(UploadFormat format, @Nullable Boolean header, Received body, long maxEntries) {
        UploadStream counted = body.counted;
        InputStream in = new BufferedInputStream(body.in, 1 << 16);
        int maxColumns = (int) Math.min(Integer.MAX_VALUE, maxEntries);
        java.util.function.IntFunction<InMemoryMatrix> sinks = cols -> new InMemoryMatrix(cols, maxEntries);
        InMemoryMatrix m = switch (format) {
            case CSV -> DelimitedMatrixParser.parse(in, (byte) ',', header, maxColumns, sinks);
            case TSV -> DelimitedMatrixParser.parse(in, (byte) '\t', header, maxColumns, sinks);
            case MATRIX_MARKET -> MatrixMarketParser.parse(in, maxColumns, maxEntries * Double.BYTES,
                    settings::maxSparseRows, counted::count, repository, sinks);
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
    public ParsedEdges readEdges(UploadFormat format, @Nullable Boolean header, Received body,
            java.util.Map<String, Integer> vertexIds, int maxEdges) {
        UploadStream counted = body.counted;
        InputStream in = new BufferedInputStream(body.in, 1 << 16);
        byte delimiter = format == UploadFormat.TSV ? (byte) '\t' : (byte) ',';
        return EdgeEventParser.parse(in, delimiter, header, vertexIds, maxEdges, format.name(), counted::count);
    }

    /**
     * A histogram's counts, stored as one row of {@code cells} values (dense or sparse, whichever is
     * smaller; no clipping: a count is not a norm-bounded row). The stats say records, cells and
     * non-empty cells.
     */
    private UploadStats histogram(Dataset dataset, UploadFormat format, @Nullable Boolean header, InputStream in,
            long chunkBytes, UploadStream counted) {
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
        UploadStats stored;
        try (DatasetRepository.ChunkInserter inserter = repository.chunkInserter();
                ChunkPipeline pipeline = ChunkPipeline.inline()) {
            MatrixWriter writer = new MatrixWriter(store(inserter, dataset), pipeline, counts.length, Double.NaN,
                    chunkBytes);
            writer.denseRow(row);
            stored = writer.finish(format.name(), counted.count());
        }
        return new UploadStats(records, counts.length, nonEmpty, 0, format.name(), stored.storage(), stored.bytes(), null);
    }
}
