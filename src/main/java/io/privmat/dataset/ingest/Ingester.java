package io.privmat.dataset.ingest;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
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
