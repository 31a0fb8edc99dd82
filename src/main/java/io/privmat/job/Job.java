package io.privmat.job;

import io.privmat.privacy.Tracks;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A job row. {@code parameters} and {@code loss} are JSON text. */
public record Job(UUID id, UUID datasetId, String datasetOwner, String kind, String mechanism, String parameters, String requestHash,
        @Nullable String idempotencyKey, String caller, JobState state, double progress, String loss, Tracks cost,
        int attempts, @Nullable String leaseOwner, @Nullable Instant heartbeatAt,
        @Nullable Instant dataAccessStartedAt, Instant createdAt, @Nullable Instant startedAt,
        @Nullable Instant finishedAt, @Nullable String errorCode, @Nullable String errorMessage) {}
