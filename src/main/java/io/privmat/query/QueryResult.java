package io.privmat.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.privmat.api.RegressionDocument;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.util.RawValue;

/**
 * A job's result document (the served schema {@code QueryResult}), one record per result kind. The
 * JSON members are the record components in declaration order (the unwrapped parts inline); a null
 * component is left out, except where a member is written as null today ({@code rowNormBound} of a
 * graph, members of {@link RegressionDocument}). The served schemas are written from these records
 * (query/web ResultSchemas; docs/adr/0005): a record's {@code @Schema} describes its kind, a
 * component's describes its member, and a component's nullability says whether the member is
 * always written.
 */
public sealed interface QueryResult {

    /**
     * The fields every result starts with; absent for the start-up warm-up's synthetic PCA.
     *
     * @param jobId null for a dry run
     * @param columns the header's column names (public, docs/client.md): index i of every per-column output
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Head(@Schema(description = "The job (absent in a dry run's result, which has none)") @Nullable UUID jobId,
            UUID datasetId, @Schema(description = "The result kind (the discriminator)") String kind,
            String mechanism, @Schema(allowableValues = {"ADD_REMOVE", "REPLACE_ONE"}) String neighbouring,
            @Schema(description = "The declared row norm bound; null for a graph")
            @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Double rowNormBound,
            @Schema(description = "MATRIX datasets uploaded with a header: the column names, in column order "
                    + "(public, like the shape)") @Nullable List<String> columns) {}

    /**
     * The charged loss, the plan's noise facts, and the accuracy and warnings computed from the release
     * and public parameters only (docs/accuracy/warnings.md).
     */
    record Charge(@Schema(ref = "#/components/schemas/Loss") RawValue loss,
            @Schema(ref = "#/components/schemas/NoiseFacts") Facts noise, ResultAccuracy accuracy,
            @Schema(description = "Noise warnings from the released values and public parameters only "
                    + "(post-processing): NOISE_DOMINATED, COMPONENTS_IN_NOISE (docs/accuracy/warnings.md); empty "
                    + "when none applies") List<NoiseWarning> warnings) {}

    /**
     * Where a kept release is ({@code releaseId}, {@code release}; absent for a dry run, which keeps
     * none), and its kind where the result always names it.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Kept(@Schema(description = "The kept release (absent in a dry run, and where none is kept)")
            @Nullable UUID releaseId,
            @Schema(description = "Its address (absent with releaseId)") @Nullable String release,
            @Schema(description = "The kept release's kind") @Nullable String releaseKind) {

        public static Kept of(@Nullable UUID id, @Nullable String kind) {
            return id == null ? new Kept(null, null, kind) : new Kept(id, "/v1/releases/" + id, kind);
        }
    }

    /** COLUMN_SUMS. */
    @Schema(description = "the noisy column sums")
    record ColumnSums(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge, double[] columnSums)
            implements QueryResult {}

    /** The fields every covariance-type result has. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Spectrum(boolean centered, String scale,
            @Schema(description = "n, only when it is public") @Nullable Long rows, double[] eigenvalues,
            @Schema(description = "the estimate is within the noise's own typical size (assessed for WISHART; "
                    + "false where not assessed)") boolean noiseDominated) {}

    /** COVARIANCE: the noisy matrix (kept as a release when the mechanism outputs it raw). */
    @Schema(description = "the post-processed private matrix; releaseId names the raw release when it answers "
            + "free directional variances")
    record Covariance(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge, @JsonUnwrapped Spectrum spectrum,
            @JsonUnwrapped Kept kept, double[][] covariance) implements QueryResult {}

    /** PCA: the top-k principal directions. */
    @Schema(description = "the top-k components (d × k) and the eigenvalues")
    record Pca(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "null only in the start-up "
            + "warm-up's rendering, which is never served") @JsonUnwrapped @Nullable Head head, @JsonUnwrapped Charge charge, @JsonUnwrapped Spectrum spectrum,
            int k, double[][] components) implements QueryResult {}

    /**
     * LOW_RANK and the other factorisations: v always, u (with the row count) when the left factor is
     * released, inline up to {@link io.privmat.query.render.ResultDocuments#INLINE_LIMIT} values.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "the factorisation u·diag(s)·vᵀ: s, v (d × k) and u (m × k, inline when m·k ≤ 100000, "
            + "always as .npy)")
    record Factors(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge,
            @Schema(ref = "#/components/schemas/FactorizationFacts") Facts facts, int k, double[] singularValues,
            double[][] v, @Schema(description = "m, the number of records (rows of u)") @Nullable Integer rows,
            @Schema(description = "whether u is inline; when false (m·k > 100000) it is served only as "
                    + "application/x-npy") @Nullable Boolean uInline,
            @Schema(description = "the m × k rows, inline when m·k ≤ 100000") double @Nullable [][] u)
            implements QueryResult {}

    /** REGRESSION: the coefficients with their intervals, and how they were released. */
    @Schema(description = "coefficients of the response on the predictors, each with its interval (lower/upper of "
            + "the kind `intervals` names; null where no finite bound follows) and a first-order approximate "
            + "interval; the estimand is the data's ridge solution at `ridge`")
    record Regression(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge,
            @JsonUnwrapped RegressionDocument regression,
            @Schema(ref = "#/components/schemas/RegressionReleased") Facts released) implements QueryResult {}

    /** LINEAR_QUERIES: the answers, their spread, the quoted error, and where the estimate x̂ is kept. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "the workload answers W·x̂ (inline when m ≤ 100000, always as .npy) with their standard "
            + "deviations, the expected per-query RMSE stated before anything was spent, and, except for "
            + "LAPLACE_WORKLOAD, the stored estimate x̂ that answers further linear queries for free "
            + "(POST /v1/releases/{releaseId}/linear-queries)")
    record LinearQueries(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge,
            @Schema(description = "m, the number of queries") int queries,
            @Schema(description = "whether answers and standardDeviations are inline; when false they are served "
                    + "only as application/x-npy (answers) and by the release") boolean answersInline,
            @Schema(description = "W·x̂ (or W·x + noise for LAPLACE_WORKLOAD), in the workload's query order")
            double @Nullable [] answers,
            @Schema(description = "each answer's standard deviation from the noise (exact, public)")
            double @Nullable [] standardDeviations,
            @Schema(description = "√(E‖answers − Wx‖²/m): the number the quote stated") double expectedRmsePerQuery,
            double expectedTotalSquaredError,
            @Schema(description = "LOW_RANK_MECHANISM: ‖W − BL‖_F; the answers carry a data-dependent bias of at "
                    + "most this times ‖x‖₂") @Nullable Double residualFrobenius,
            @JsonUnwrapped @Nullable Kept kept) implements QueryResult {}

    /**
     * COMPLETION: the global model (Frank–Wolfe: iterations, spectrum, directions; SVD: rank,
     * eigenvalues, directions; ALS: rank, iterations, item factors), where it is kept, and where the
     * data owner reads the predictions.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "the global model only (joint DP): item directions and the released spectrum "
            + "(FRANK_WOLFE, SVD) or item factors (ALS), stored as a COMPLETION_MODEL release; each user's completed "
            + "row goes to the data owner only (GET /v1/jobs/{id}/predictions)")
    record Completion(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge,
            @Schema(allowableValues = {"FRANK_WOLFE", "SVD", "ALS"}) String model,
            @Schema(description = "n, the declared item count") int items,
            @Schema(description = "the declared item labels in item order (when declared as labels and n ≤ 100000)")
            @Nullable List<String> itemLabels,
            @Schema(ref = "#/components/schemas/CompletionFacts") Facts facts,
            @Schema(description = "SVD and ALS: r") @Nullable Integer rank,
            @Schema(description = "FRANK_WOLFE and ALS: T") @Nullable Integer iterations,
            @Schema(description = "FRANK_WOLFE: λ̂_t = √max(0, λ_max(Ŵ_t)), the released spectrum")
            double @Nullable [] spectrum,
            @Schema(description = "FRANK_WOLFE: λ̂′_t, the public upper bounds the users' steps divide by")
            double @Nullable [] spectrumUpperBounds,
            @Schema(description = "SVD: the noisy Gram's top r eigenvalues") double @Nullable [] eigenvalues,
            @Schema(description = "whether directions are inline") @Nullable Boolean directionsInline,
            @Schema(description = "FRANK_WOLFE: the T broadcast unit vectors v̂_t (T × n); SVD: the top r "
                    + "eigenvectors (n × r); inline when at most 100000 values, always as .npy")
            double @Nullable [][] directions,
            @Schema(description = "whether itemFactors are inline") @Nullable Boolean itemFactorsInline,
            @Schema(description = "ALS: V_T (n × r), inline when at most 100000 values, always as .npy")
            double @Nullable [][] itemFactors, @JsonUnwrapped Kept kept,
            @Schema(description = "where the data owner gets every user's completed row (absent in a dry run)")
            @Nullable String predictions) implements QueryResult {}

    /** The sketches and cuts: where the release is kept and its public meta. */
    @Schema(description = "the stored release that answers cuts or directional variances for free")
    record Sketch(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge, @JsonUnwrapped Kept kept,
            @Schema(ref = "#/components/schemas/ReleaseMeta") Facts meta) implements QueryResult {}

    /**
     * SUBSCRIPTION: a subscription job's result, what was subscribed and where to follow it (its window
     * releases are listed under the subscription).
     */
    @Schema(description = "a standing query on a stream, charged once; its window releases are listed under the "
            + "subscription")
    record Subscription(@JsonUnwrapped Head head, @Schema(ref = "#/components/schemas/Loss") RawValue loss,
            @Schema(ref = "#/components/schemas/NoiseFacts") Facts noise, UUID subscriptionId,
            @Schema(allowableValues = {"COVARIANCE", "PCA", "SKETCH"}) String queryKind, long firstStreamBlock,
            @Schema(description = "The subscription's address") String subscription) implements QueryResult {}
}
