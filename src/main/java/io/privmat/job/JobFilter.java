package io.privmat.job;

import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The filters of a job list; a null field does not filter. Visibility is applied on top of them by
 * {@link JobService#list}: a filter never widens what a caller may see.
 */
public record JobFilter(@Nullable UUID datasetId, @Nullable JobState state, @Nullable String submitter) {}
