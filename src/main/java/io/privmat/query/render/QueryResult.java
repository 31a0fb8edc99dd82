package io.privmat.query.render;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.privmat.api.RegressionDocument;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.ResultAccuracy;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.util.RawValue;

/**
 * A job's result document (the served schema {@code QueryResult}), one record per result kind. The
 * JSON members are the record components in declaration order (the unwrapped parts inline); a null
 * component is left out, except where a member is written as null today ({@code rowNormBound} of a
 * graph, members of {@link RegressionDocument}).
 */
public sealed interface QueryResult {

    /**
     * The fields every result starts with; absent for the start-up warm-up's synthetic PCA.
     *
     * @param jobId null for a dry run
     * @param columns the header's column names (public, docs/client.md): index i of every per-column output
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Head(@Nullable UUID jobId, UUID datasetId, String kind, String mechanism, String neighbouring,
            @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Double rowNormBound,
            @Nullable List<String> columns) {}

    /**
     * The charged loss, the plan's noise facts, and the accuracy and warnings computed from the release
     * and public parameters only (docs/accuracy/warnings.md).
     */
    record Charge(RawValue loss, Facts noise, ResultAccuracy accuracy, List<NoiseWarning> warnings) {}

    /**
     * Where a kept release is ({@code releaseId}, {@code release}; absent for a dry run, which keeps
     * none), and its kind where the result always names it.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Kept(@Nullable UUID releaseId, @Nullable String release, @Nullable String releaseKind) {

        static Kept of(@Nullable UUID id, @Nullable String kind) {
            return id == null ? new Kept(null, null, kind) : new Kept(id, "/v1/releases/" + id, kind);
        }
    }

    /** COLUMN_SUMS. */
    record ColumnSums(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge, double[] columnSums)
            implements QueryResult {}

    /** The fields every covariance-type result has. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Spectrum(boolean centered, String scale, @Nullable Long rows, double[] eigenvalues,
            boolean noiseDominated) {}

    /** COVARIANCE: the noisy matrix (kept as a release when the mechanism outputs it raw). */
    record Covariance(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge, @JsonUnwrapped Spectrum spectrum,
            @JsonUnwrapped Kept kept, double[][] covariance) implements QueryResult {}

    /** PCA: the top-k principal directions. */
    record Pca(@JsonUnwrapped @Nullable Head head, @JsonUnwrapped Charge charge, @JsonUnwrapped Spectrum spectrum,
            int k, double[][] components) implements QueryResult {}

    /**
     * LOW_RANK and the other factorisations: v always, u (with the row count) when the left factor is
     * released, inline up to {@link ResultDocuments#INLINE_LIMIT} values.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Factors(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge, Facts facts, int k,
            double[] singularValues, double[][] v, @Nullable Integer rows, @Nullable Boolean uInline,
            double @Nullable [][] u) implements QueryResult {}

    /** REGRESSION: the coefficients with their intervals, and how they were released. */
    record Regression(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge,
            @JsonUnwrapped RegressionDocument regression, Facts released) implements QueryResult {}

    /** LINEAR_QUERIES: the answers, their spread, the quoted error, and where the estimate x̂ is kept. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record LinearQueries(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge, int queries,
            boolean answersInline, double @Nullable [] answers, double @Nullable [] standardDeviations,
            double expectedRmsePerQuery, double expectedTotalSquaredError, @Nullable Double residualFrobenius,
            @JsonUnwrapped @Nullable Kept kept) implements QueryResult {}

    /**
     * COMPLETION: the global model (Frank–Wolfe: iterations, spectrum, directions; SVD: rank,
     * eigenvalues, directions; ALS: rank, iterations, item factors), where it is kept, and where the
     * data owner reads the predictions.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Completion(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge, String model, int items,
            @Nullable List<String> itemLabels, Facts facts, @Nullable Integer rank, @Nullable Integer iterations,
            double @Nullable [] spectrum, double @Nullable [] spectrumUpperBounds, double @Nullable [] eigenvalues,
            @Nullable Boolean directionsInline, double @Nullable [][] directions,
            @Nullable Boolean itemFactorsInline, double @Nullable [][] itemFactors, @JsonUnwrapped Kept kept,
            @Nullable String predictions) implements QueryResult {}

    /** The sketches and cuts: where the release is kept and its public meta. */
    record Sketch(@JsonUnwrapped Head head, @JsonUnwrapped Charge charge, @JsonUnwrapped Kept kept, Facts meta)
            implements QueryResult {}
}
