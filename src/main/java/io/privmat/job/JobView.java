package io.privmat.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.privmat.api.LossDocument;
import io.privmat.api.ParametersDocument;
import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigDecimal;
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
        @Schema(description = "The query's public parameters", implementation = ParametersDocument.class)
        @JsonRawValue String parameters,
        @Schema(description = "The exact amounts charged to the budget tracks") Cost cost,
        @Schema(description = "The privacy loss of the mechanism as run, and as charged",
                implementation = LossDocument.class) @JsonRawValue String loss,
        @Schema(description = "True once a worker durably started reading the data: the charge is final")
        boolean dataAccessStarted,
        Instant createdAt,
        @Schema(description = "Owner and admin only: a job's running time depends on the data") @Nullable Instant startedAt,
        @Schema(description = "Owner and admin only: a job's running time depends on the data") @Nullable Instant finishedAt,
        @Nullable Error error,
        @Schema(description = "Where to fetch the result once DONE") String result) {

    /** Charged amounts. */
    @Schema(name = "JobCost")
    public record Cost(BigDecimal rho, BigDecimal epsilon, BigDecimal delta) {}

    /** A failure, as data, with a generic message (never data values). */
    @Schema(name = "JobError")
    public record Error(String code, String message) {}

    private static final tools.jackson.databind.json.JsonMapper JSON = tools.jackson.databind.json.JsonMapper.builder()
            .build();

    /**
     * The job as {@code caller} may see it. Start and finish times are set by the worker, and a job's
     * running time depends on the data (its size, its sparsity, a sampler's work), so analysts get
     * neither, on any dataset; the dataset's owner and the admin do. Analysts keep {@code createdAt},
     * their own submission time. docs/adr/0006-privacy-hardening.md says what polling still shows.
     */
    public static JobView of(Job j, io.privmat.security.Caller caller) {
        JobView v = of(j);
        boolean insider = caller.is(io.privmat.security.Role.ADMIN) || caller.subject().equals(j.datasetOwner());
        if (insider) {
            return v;
        }
        return new JobView(v.id, v.datasetId, v.kind, v.mechanism, v.state, v.progress, v.parameters, v.cost, v.loss,
                v.dataAccessStarted, v.createdAt, null, null, v.error, v.result);
    }

    private static JobView of(Job j) {
        return new JobView(j.id(), j.datasetId(), j.kind(), j.mechanism(), j.state().name(), j.progress(),
                j.parameters(), new Cost(j.cost().rho(), j.cost().epsilon(), j.cost().delta()), j.loss(),
                j.dataAccessStartedAt() != null, j.createdAt(), j.startedAt(), j.finishedAt(),
                j.errorCode() == null ? null : new Error(j.errorCode(), j.errorMessage() == null ? "" : j.errorMessage()),
                "/v1/jobs/" + j.id() + "/result");
    }
}
