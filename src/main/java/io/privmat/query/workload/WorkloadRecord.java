package io.privmat.query.workload;

import java.time.Instant;
import java.util.UUID;

/**
 * A caller's reference to stored workload content: its metadata (the values are read separately).
 *
 * @param sha256 hex SHA-256 of the shape and the values, identifying the content (stored once,
 *     however many callers upload it)
 * @param encoding how the content is stored: DENSE or SPARSE, whichever is smaller
 * @param nonZeros entries stored (rows × cols for DENSE)
 * @param bytes stored size of the content: what this reference counts towards its creator's quota
 */
public record WorkloadRecord(UUID id, String creator, String name, int rows, int cols, String sha256, String format,
        String encoding, long nonZeros, long bytes, Instant createdAt) {}
