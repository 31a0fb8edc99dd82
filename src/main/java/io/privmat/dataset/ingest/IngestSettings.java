package io.privmat.dataset.ingest;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Upload settings ({@code privmat.ingest.*}); docs/reliability.md explains the limits.
 *
 * @param maxUploadSize largest accepted request body; larger uploads answer 413
 * @param chunkSize target size of one stored chunk (rows or edges)
 * @param maxColumns widest accepted matrix
 * @param maxDenseSize largest dense size (rows × cols × 8 bytes) a sparse body (Matrix Market
 *     coordinate) may declare: a few bytes of header must not make the service write gigabytes
 * @param maxRowsPerBodyByte a sparse body may declare at most {@value #ROW_ALLOWANCE} rows plus this
 *     many per byte of the body: a row without entries costs no body bytes but is stored, so the
 *     rows a body may create are tied to its size (422 beyond)
 * @param maxConcurrentUploads uploads this replica accepts at once (503 with Retry-After beyond);
 *     must be below the request pool's size, since each holds one connection while it writes
 * @param prefetchSize an upload first receives this much of its body (or all of it, if smaller)
 *     before it takes a database connection, so that a client that sends slowly holds none
 * @param maxUploadDuration longest time an upload may take to send its body (408 beyond)
 * @param minUploadRate slowest accepted sending rate, in bytes per second of the time the server waited
 *     for the client's bytes (not its own pauses between reads), measured over every
 *     {@code rateWindow} of the upload (408 below)
 * @param rateWindow the window over which {@code minUploadRate} is measured
 * @param shutdownGrace on shutdown, how long uploads in progress may run on before they are
 *     aborted (503, nothing stored)
 * @param maxRatings most (user, item, rating) lines one RATINGS upload may have (422 beyond): the
 *     upload holds 24 bytes per line in memory until it is written (docs/ratings.md)
 */
@ConfigurationProperties("privmat.ingest")
public record IngestSettings(
        @DefaultValue("2GB") DataSize maxUploadSize,
        @DefaultValue("4MB") DataSize chunkSize,
        @DefaultValue("100000") int maxColumns,
        @DefaultValue("2GB") DataSize maxDenseSize,
        @DefaultValue("4") int maxRowsPerBodyByte,
        @DefaultValue("4") int maxConcurrentUploads,
        @DefaultValue("1MB") DataSize prefetchSize,
        @DefaultValue("15m") Duration maxUploadDuration,
        @DefaultValue("64KB") DataSize minUploadRate,
        @DefaultValue("10s") Duration rateWindow,
        @DefaultValue("20s") Duration shutdownGrace,
        @DefaultValue("20000000") long maxRatings) {

    /** Rows any sparse upload may declare whatever its size. */
    public static final long ROW_ALLOWANCE = 65_536;

    public IngestSettings {
        if (maxConcurrentUploads < 1) {
            throw new IllegalArgumentException("privmat.ingest.max-concurrent-uploads must be at least 1");
        }
        if (maxRowsPerBodyByte < 0) {
            throw new IllegalArgumentException("privmat.ingest.max-rows-per-body-byte must not be negative");
        }
        if (prefetchSize.toBytes() < 0 || prefetchSize.toBytes() > (64L << 20)) {
            throw new IllegalArgumentException("privmat.ingest.prefetch-size must be between 0 and 64MB");
        }
        if (maxRatings < 1) {
            throw new IllegalArgumentException("privmat.ingest.max-ratings must be at least 1");
        }
        if (rateWindow.isNegative() || rateWindow.isZero()) {
            throw new IllegalArgumentException("privmat.ingest.rate-window must be positive");
        }
    }

    /** Most rows a sparse body of {@code bodyBytes} bytes may declare. */
    public long maxSparseRows(long bodyBytes) {
        return ROW_ALLOWANCE + (long) maxRowsPerBodyByte * bodyBytes;
    }
}
