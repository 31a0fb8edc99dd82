package io.privmat.query;

import java.time.Instant;
import java.util.UUID;

/**
 * A stored query workload: its metadata (the values are read separately).
 *
 * @param sha256 hex SHA-256 of the shape and the values, identifying the content
 */
public record Workload(UUID id, String creator, String name, int rows, int cols, String sha256, String format,
        Instant createdAt) {}
