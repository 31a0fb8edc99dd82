package io.privmat.dataset.ingest;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
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
        double bound = dataset.rowNormBound() == null ? Double.NaN : dataset.rowNormBound();
        java.util.function.IntFunction<MatrixWriter> writers =
                cols -> new MatrixWriter(repository, dataset.id(), cols, bound, chunkBytes);
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
