package io.privmat.dataset.ingest;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Upload settings ({@code privmat.ingest.*}).
 *
 * @param maxUploadSize largest accepted request body; larger uploads answer 413
 * @param chunkSize target size of one stored chunk (rows or edges)
 * @param maxColumns widest accepted matrix
 * @param maxDenseSize largest dense size (rows × cols × 8 bytes) a sparse body (Matrix Market
 *     coordinate) may declare: a few bytes of header must not make the service write gigabytes
 *     (docs/reliability.md)
 * @param maxRowsPerBodyByte a sparse body may declare at most {@value #ROW_ALLOWANCE} rows plus this
 *     many per byte of the body: a row without entries costs no body bytes but is stored, so the
 *     rows a body may create are tied to its size (422 beyond)
 */
@ConfigurationProperties("privmat.ingest")
public record IngestSettings(
        @DefaultValue("2GB") DataSize maxUploadSize,
        @DefaultValue("4MB") DataSize chunkSize,
        @DefaultValue("100000") int maxColumns,
        @DefaultValue("2GB") DataSize maxDenseSize,
        @DefaultValue("4") int maxRowsPerBodyByte) {

    /** Rows any sparse upload may declare whatever its size. */
    public static final long ROW_ALLOWANCE = 65_536;

    public IngestSettings {
        if (maxRowsPerBodyByte < 0) {
            throw new IllegalArgumentException("privmat.ingest.max-rows-per-body-byte must not be negative");
        }
    }

    /** Most rows a sparse body of {@code bodyBytes} bytes may declare. */
    public long maxSparseRows(long bodyBytes) {
        return ROW_ALLOWANCE + (long) maxRowsPerBodyByte * bodyBytes;
    }
}
