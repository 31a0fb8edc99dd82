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
 */
@ConfigurationProperties("privmat.ingest")
public record IngestSettings(
        @DefaultValue("2GB") DataSize maxUploadSize,
        @DefaultValue("4MB") DataSize chunkSize,
        @DefaultValue("100000") int maxColumns,
        @DefaultValue("2GB") DataSize maxDenseSize) {}
