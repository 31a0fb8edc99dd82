package io.privmat.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.privmat.api.JsonNumbers;
import io.privmat.api.LossDocument;
import io.privmat.api.ParametersDocument;
import io.privmat.privacy.Tracks;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A job as the API shows it (also the body of 202 on submission). */
@Schema(name = "Job")
@JsonInclude(JsonInclude.Include.ALWAYS)
public record JobView(
        UUID id,
        UUID datasetId,
        String kind,
        String mechanism,
        @Schema(allowableValues = {"QUEUED", "RUNNING", "DONE", "FAILED", "CANCELLED"}) String state,
        @Schema(description = "0 to 1") double progress,
        @Schema(description = "What the job is doing, from public values only (state, data access started, "
                + "progress): WAITING, STARTING, READING_DATA, RELEASING, FINISHED",
                allowableValues = {"WAITING", "STARTING", "READING_DATA", "RELEASING", "FINISHED"}) String phase,
        @Schema(description = "Owner and admin only, while RUNNING with some progress: seconds left, extrapolated "
                + "from the time since start and the progress (data-dependent, like the timestamps)")
        @Nullable Long etaSeconds,
        @Schema(description = "The query's public parameters", implementation = ParametersDocument.class)
        @JsonRawValue String parameters,
        @Schema(description = "The amounts charged to the budget tracks, rounded up") Cost cost,
        @Schema(description = "The privacy loss of the mechanism as run, and as charged",
                implementation = LossDocument.class) @JsonRawValue String loss,
        @Schema(description = "True once a worker durably started reading the data: the charge is final")
        boolean dataAccessStarted,
        Instant createdAt,
        @Schema(description = "Owner and admin only: a job's running time depends on the data") @Nullable Instant startedAt,
        @Schema(description = "Owner and admin only: a job's running time depends on the data") @Nullable Instant finishedAt,
        @Nullable Error error,
        @Schema(description = "Where to fetch the result once DONE") String result) {

    /** Charged amounts, each rounded up (io.privmat.api.JsonNumbers). */
    @Schema(name = "JobCost")
    public record Cost(@Schema(format = "double") Double rho, @Schema(format = "double") Double epsilon,
            @Schema(format = "double") Double delta) {

        public static Cost of(Tracks t) {
            return new Cost(JsonNumbers.charged(t.rho()), JsonNumbers.charged(t.epsilon()),
                    JsonNumbers.charged(t.delta()));
        }
    }

    /** A failure, as data, with a generic message (never data values). */
    @Schema(name = "JobError")
    public record Error(String code, String message) {}

    /**
     * The job as {@code caller} may see it. Start and finish times are set by the worker, and a job's
     * running time depends on the data (its size, its sparsity, a sampler's work), so analysts get
     * neither, on any dataset; the dataset's owner and the admin do. Analysts keep {@code createdAt},
     * their own submission time. docs/adr/0006-privacy-hardening.md says what polling still shows.
     */
    public static JobView of(Job j, Caller caller) {
        return of(j, caller, Instant.now());
    }

    /**
     * As {@link #of(Job, io.privmat.security.Caller)}, with {@code now} for the ETA. The phase is a
     * function of the state, the data-access flag and the progress, which analysts already see (and
     * progress is written from public values only), so it tells them nothing more. The ETA extrapolates
     * the time since the worker started, so only those who see that time get it: an analyst gets none,
     * on any dataset, because no estimate from public values alone would be honest (running time
     * depends on n where it is private, on sparsity and on a sampler's work); see
     * docs/adr/0005-mechanism-catalogue.md, "Progress and timing".
     */
    public static JobView of(Job j, Caller caller, Instant now) {
        boolean insider = caller.is(Role.ADMIN) || caller.subject().equals(j.datasetOwner());
        JobView v = of(j, insider ? eta(j, now) : null);
        if (insider) {
            return v;
        }
        return new JobView(v.id, v.datasetId, v.kind, v.mechanism, v.state, v.progress, v.phase, null, v.parameters,
                v.cost, v.loss, v.dataAccessStarted, v.createdAt, null, null, v.error, v.result);
    }

    /** Share of progress reserved for reading the data; the rest is noise and post-processing. */
    public static final double READ_SHARE = 0.9;

    /** The phase name: public values only (see {@link #of(Job, io.privmat.security.Caller, Instant)}). */
    public static String phase(JobState state, boolean dataAccessStarted, double progress) {
        return switch (state) {
            case QUEUED -> "WAITING";
            case RUNNING -> !dataAccessStarted ? "STARTING" : progress < READ_SHARE ? "READING_DATA" : "RELEASING";
            case DONE, FAILED, CANCELLED -> "FINISHED";
        };
    }

    /** Seconds left, extrapolated linearly from the worker's start; null unless RUNNING with progress in (0, 1). */
    static @Nullable Long eta(Job j, Instant now) {
        if (j.state() != JobState.RUNNING || j.startedAt() == null || j.progress() <= 0 || j.progress() >= 1) {
            return null;
        }
        double elapsed = Math.max(0, java.time.Duration.between(j.startedAt(), now).toMillis() / 1000.0);
        return Math.round(elapsed * (1 - j.progress()) / j.progress());
    }

    private static JobView of(Job j, @Nullable Long eta) {
        return new JobView(j.id(), j.datasetId(), j.kind(), j.mechanism(), j.state().name(), j.progress(),
                phase(j.state(), j.dataAccessStartedAt() != null, j.progress()), eta,
                JsonNumbers.parametersDocument(j.parameters()), Cost.of(j.cost()), JsonNumbers.lossDocument(j.loss()),
                j.dataAccessStartedAt() != null, j.createdAt(), j.startedAt(), j.finishedAt(),
                j.errorCode() == null ? null : new Error(j.errorCode(), j.errorMessage() == null ? "" : j.errorMessage()),
                "/v1/jobs/" + j.id() + "/result");
    }
}
