package io.privmat.release;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** A stored release's provenance (without its payload). */
public record Release(UUID id, UUID datasetId, UUID jobId, ReleaseKind kind, String mechanism, String parameters,
        String loss, Map<String, Object> meta, int rows, int cols, String encoding, Instant createdAt) {}
