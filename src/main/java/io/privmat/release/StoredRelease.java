package io.privmat.release;

import io.privmat.mechanism.catalog.Facts;
import java.time.Instant;
import java.util.UUID;

/** A stored release's provenance (without its payload). */
public record StoredRelease(UUID id, UUID datasetId, UUID jobId, ReleaseKind kind, String mechanism, String parameters,
        String loss, Facts meta, int rows, int cols, String encoding, Instant createdAt) {}
