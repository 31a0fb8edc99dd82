package io.privmat.job;

import io.privmat.privacy.Tracks;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** What {@link JobService#enqueue} records: the public description of an admitted query. */
public record NewJob(UUID id, UUID datasetId, String datasetOwner, String kind, String mechanism, String parametersJson, String requestHash,
        @Nullable String idempotencyKey, String caller, String lossJson, Tracks cost) {}
