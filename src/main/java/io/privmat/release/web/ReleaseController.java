package io.privmat.release.web;

import com.fasterxml.jackson.annotation.JsonRawValue;
import io.privmat.api.JsonNumbers;
import io.privmat.api.LossDocument;
import io.privmat.api.ParametersDocument;
import io.privmat.api.RegressionDocument;
import io.privmat.mechanism.analytics.Bounds;
import io.privmat.mechanism.analytics.LowRankApproximation;
import io.privmat.mechanism.analytics.PrincipalComponents;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.problem.PrivmatException;
import io.privmat.release.ReleaseService;
import io.privmat.release.StoredRelease;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/v1/releases", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Releases", description = "Private artifacts released once; queries on them are free post-processing "
        + "(no data access, no charge).")
class ReleaseController {

    private final ReleaseService releases;

    ReleaseController(ReleaseService releases) {
        this.releases = releases;
    }

    /** A release's provenance. */
    @Schema(name = "Release")
    record ReleaseView(UUID id, UUID datasetId, UUID jobId,
            @Schema(allowableValues = {"GRAPH_SKETCH", "MATRIX_SKETCH", "COVARIANCE", "WINDOW_COVARIANCE",
                    "WINDOW_LAPLACIAN", "HISTOGRAM_ESTIMATE", "COMPLETION_MODEL"}) String kind, String mechanism,
            @Schema(implementation = ParametersDocument.class) @JsonRawValue String parameters,
            @Schema(implementation = LossDocument.class) @JsonRawValue String loss,
            @Schema(description = "Public facts behind the error bounds (typed as ReleaseMeta)")
            Facts meta, int rows, int cols,
            @Schema(description = "When the job stored it; owner only (for an analyst it would time the job, whose "
                    + "running time depends on the data)") @Nullable Instant createdAt) {
        static ReleaseView of(StoredRelease r, Caller caller) {
            boolean owner = caller.is(Role.OWNER);
            return new ReleaseView(r.id(), r.datasetId(), r.jobId(), r.kind().name(), r.mechanism(),
                    JsonNumbers.parametersDocument(r.parameters()),
                    JsonNumbers.lossDocument(r.loss()), r.meta(), r.rows(), r.cols(), owner ? r.createdAt() : null);
        }
    }

    /** Body of a directional-variance request. */
    @Schema(name = "DirectionalVarianceRequest", example = "{\"vectors\": [[1, 0, 0], [0.6, 0.8, 0]]}")
    record DirectionalRequest(@Schema(description = "Directions x (normalised here; zero vectors are refused); "
            + "the answer estimates ‖Xx‖²", requiredMode = Schema.RequiredMode.REQUIRED)
            @Nullable List<List<Double>> vectors) {}

    /** Body of a cut request. */
    @Schema(name = "CutRequest", example = "{\"sets\": [[\"a\", \"b\"], [\"c\"]]}")
    record CutRequest(@Schema(description = "Vertex sets S by their labels as uploaded; the answer estimates the "
            + "weight of the cut (S, V∖S)", requiredMode = Schema.RequiredMode.REQUIRED)
            @Nullable List<List<String>> sets) {}

    /** One answer. */
    @Schema(name = "Answer")
    record AnswerView(double estimate, double lower, double upper) {}

    /** Answers in request order. */
    @Schema(name = "Answers")
    record AnswersView(List<AnswerView> answers,
            @Schema(description = "Each interval holds with at least this probability (1 − nu)") double confidence,
            @Schema(description = "NOISE_DOMINATED when most intervals contain 0 (docs/accuracy/warnings.md); "
                    + "computed from the release alone") List<NoiseWarning> warnings) {}

    @GetMapping("/{id}")
    @Operation(operationId = "getRelease", summary = "Get a release's provenance")
    ReleaseView get(@PathVariable UUID id) {
        Caller caller = Caller.current();
        return ReleaseView.of(releases.visible(id, caller), caller);
    }

    @PostMapping(path = "/{id}/directional-variance", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "directionalVariances", summary = "Directional variances ‖Xx‖² from a matrix sketch, covariance or window release (free)")
    AnswersView directional(@PathVariable UUID id, @RequestBody DirectionalRequest request) {
        if (request.vectors() == null) {
            throw PrivmatException.invalidParameter("vectors", "a list of vectors", "vectors is required");
        }
        return view(releases.directionalVariance(id, Caller.current(), request.vectors()));
    }

    @PostMapping(path = "/{id}/cuts", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "cutWeights", summary = "Cut weights of vertex sets from a graph sketch or an edge stream's window release (free)")
    AnswersView cuts(@PathVariable UUID id, @RequestBody CutRequest request) {
        if (request.sets() == null) {
            throw PrivmatException.invalidParameter("sets", "a list of label lists", "sets is required");
        }
        return view(releases.cuts(id, Caller.current(), request.sets()));
    }

    // ---- further linear queries on a histogram estimate ----

    /** Body of a further-linear-queries request. */
    @Schema(name = "LinearQueriesRequest", example = "{\"boxes\": [{\"age\": [0, 3]}, {\"age\": [4, 7], "
            + "\"region\": [1, 1]}]}")
    record LinearQueriesRequest(
            @Schema(description = "Boxes: attribute name → [lo, hi] (inclusive value codes); attributes not named "
                    + "span their domain. At most 100000. Give boxes or queries.")
            @Nullable List<java.util.Map<String, List<Integer>>> boxes,
            @Schema(description = "Dense query vectors of n numbers, one per cell in row-major order (the first "
                    + "attribute slowest). At most 10000, and 4194304 numbers in all.")
            @Nullable List<List<Double>> queries) {}

    /** One further answer. */
    @Schema(name = "LinearAnswer")
    record LinearAnswerView(@Schema(description = "qᵀx̂") double value,
            @Schema(description = "Its standard deviation from the noise (exact, public)") double standardDeviation,
            @Schema(description = "Biased estimates only (LOW_RANK_MECHANISM): ‖(ML − I)ᵀq‖₂; the answer's bias is at "
                    + "most this times ‖x‖₂ (≈ 0 for queries in the row space of the workload)")
            @Nullable Double biasFactor) {}

    /** Further answers in request order. */
    @Schema(name = "LinearAnswers")
    record LinearAnswersView(List<LinearAnswerView> answers,
            @Schema(description = "Variance of each noisy measurement of the strategy") double noiseVariance,
            @Schema(description = "The strategy the estimate was made with") String strategyMethod,
            @Schema(description = "Whether the estimate is biased (answers then state a biasFactor)") boolean biased,
            @Schema(description = "NOISE_DOMINATED when most answers are within two standard deviations of 0 "
                    + "(docs/accuracy/warnings.md)") List<NoiseWarning> warnings) {}

    @PostMapping(path = "/{id}/linear-queries", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ApiResponse(responseCode = "200", description = "The answers, computed from the release alone (nothing charged)")
    @ApiResponse(responseCode = "400", description = "Both or neither of boxes and queries, a box outside the domain, "
            + "a vector of the wrong length or with a non-finite entry, too many queries")
    @ApiResponse(responseCode = "404", description = "No such release visible to the caller")
    @ApiResponse(responseCode = "409", description = "The release is not a histogram estimate")
    @Operation(operationId = "releaseLinearQueries", summary = "Further linear queries on a LINEAR_QUERIES estimate "
            + "x̂, each with its standard deviation (free)")
    LinearAnswersView linearQueries(@PathVariable UUID id, @RequestBody LinearQueriesRequest request) {
        ReleaseService.LinearAnswers a = releases.linearQueries(id, Caller.current(), request.boxes(),
                request.queries());
        return new LinearAnswersView(a.answers().stream().map(f -> new LinearAnswerView(f.value(),
                f.standardDeviation(), a.biased() ? f.biasFactor() : null)).toList(), a.noiseVariance(),
                a.strategyMethod(), a.biased(), a.warnings());
    }

    // ---- free analytics on covariance-type releases ----

    static final String LEVEL = "Coverage of the stated intervals, in [0.5, 0.999999] (default 0.95)";

    /** Body of a regression request. */
    @Schema(name = "RegressionRequest", example = "{\"response\": 2, \"predictors\": [0, 1], \"level\": 0.95}")
    record RegressionRequest(
            @Schema(description = "The response column y", requiredMode = Schema.RequiredMode.REQUIRED)
            @Nullable Integer response,
            @Schema(description = "Predictor columns, distinct, without the response (default: all other columns)")
            @Nullable List<Integer> predictors,
            @Schema(description = "Ridge λ ≥ 0 added to the debiased predictor block (default: the ridge the "
                    + "release's noise implies; not settable for JL sketches)") @Nullable Double ridge,
            @Schema(description = LEVEL) @Nullable Double level) {}

    /** An estimate with its interval. */
    @Schema(name = "EstimateWithBounds")
    record BoundsView(double estimate, double lower,
            @Schema(description = "null when the release implies no finite upper bound") @Nullable Double upper) {
        static BoundsView of(Bounds b) {
            return new BoundsView(b.estimate(), b.lower(), finite(b.upper()));
        }
    }

    /** Body of a sparse PCA request. */
    @Schema(name = "SparsePcaRequest", example = "{\"k\": 1, \"s\": 2}")
    record SparsePcaRequest(@Schema(description = "Number of components, 1..min(d, 50) (default 1)") @Nullable Integer k,
            @Schema(description = "Non-zeros per component, 1..d", requiredMode = Schema.RequiredMode.REQUIRED)
            @Nullable Integer s,
            @Schema(description = "Power iterations per component, 1..1000 (default 100)") @Nullable Integer iterations,
            @Schema(description = LEVEL) @Nullable Double level) {}

    /** Body of a non-negative PCA request. */
    @Schema(name = "NonNegativePcaRequest", example = "{\"k\": 1}")
    record NonNegativePcaRequest(@Schema(description = "Number of components, 1..min(d, 50) (default 1)") @Nullable Integer k,
            @Schema(description = "Power iterations per component, 1..1000 (default 100)") @Nullable Integer iterations,
            @Schema(description = LEVEL) @Nullable Double level) {}

    /** Components found by a power method. */
    @Schema(name = "Components")
    record ComponentsView(int k,
            @Schema(description = "d × k: one row per column of the data, one column per component (unit norm)")
            List<double[]> components,
            @Schema(description = "Per component, the columns where it is non-zero") List<int[]> supports,
            @Schema(description = "Per component x, the variance ‖Xx‖² it explains in the data, with an interval "
                    + "that holds for all components at once with probability ≥ level (clamped at 0)")
            List<BoundsView> explainedVariance, double level) {

        static ComponentsView of(PrincipalComponents.Result r) {
            return new ComponentsView(r.k(), rows(r.components(), r.d(), r.k()), List.of(r.supports()),
                    r.explainedVariance().stream().map(BoundsView::of).toList(), r.level());
        }
    }

    /** Body of a rank-k approximation request. */
    @Schema(name = "LowRankRequest", example = "{\"k\": 1, \"vectors\": [[1, 0, 0]]}")
    record LowRankRequest(@Schema(description = "The rank, 1..min(d, 200)", requiredMode = Schema.RequiredMode.REQUIRED)
            @Nullable Integer k,
            @Schema(description = "Vectors (length d) to project onto the released top-k subspace; at most 1000")
            @Nullable List<List<Double>> vectors,
            @Schema(description = LEVEL) @Nullable Double level) {}

    /** A vector's coordinates in the released basis. */
    @Schema(name = "Projection")
    record ProjectionView(@Schema(description = "Vᵀx in the released basis (k numbers)") double[] coordinates,
            @Schema(description = "Bound on ‖V Vᵀx − P x‖ with P the exact top-k PCA projector of the data") double
                    errorBound) {}

    /** A rank-k approximation V·diag(eigenvalues)·Vᵀ of the data's XᵀX. */
    @Schema(name = "LowRank")
    record LowRankView(int k,
            @Schema(description = "The top-k eigenvalues of XᵀX, with intervals (clamped at 0)") List<BoundsView> eigenvalues,
            @Schema(description = "V, d × k (orthonormal columns)") List<double[]> components,
            @Schema(description = "Bound on the spectral norm of the release's noise; null when unbounded")
            @Nullable Double noiseSpectralBound,
            @Schema(description = "Bound on ‖XᵀX − V·diag(eigenvalues)·Vᵀ‖₂; null when unbounded")
            @Nullable Double approximationErrorBound,
            @Schema(description = "Bound on the sine of the largest principal angle between V and the data's top-k "
                    + "eigenvectors (1: no information)") double subspaceSinThetaBound,
            List<ProjectionView> projections, double level) {

        static LowRankView of(LowRankApproximation.Result r) {
            return new LowRankView(r.k(), r.eigenvalues().stream().map(BoundsView::of).toList(),
                    rows(r.components(), r.d(), r.k()), finite(r.noiseSpectralBound()),
                    finite(r.approximationErrorBound()), r.subspaceSinThetaBound(),
                    r.projections().stream().map(p -> new ProjectionView(p.coordinates(), p.errorBound())).toList(),
                    r.level());
        }
    }

    @PostMapping(path = "/{id}/regression", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ApiResponse(responseCode = "200", description = "The answer, computed from the release alone (nothing charged)")
    @ApiResponse(responseCode = "400", description = "A parameter is missing or out of range for this release")
    @ApiResponse(responseCode = "404", description = "No such release visible to the caller")
    @ApiResponse(responseCode = "409", description = "The release holds no second-moment matrix (a graph sketch)")
    @Operation(operationId = "releaseRegression", summary = "Linear regression of one column on others from a "
            + "covariance-type release, with an interval per coefficient (free)")
    RegressionDocument regression(@PathVariable UUID id, @RequestBody RegressionRequest request) {
        if (request.response() == null) {
            throw PrivmatException.invalidParameter("response", "a column index", "response is required");
        }
        int[] predictors = null;
        if (request.predictors() != null) {
            predictors = new int[request.predictors().size()];
            for (int j = 0; j < predictors.length; j++) {
                Integer c = request.predictors().get(j);
                if (c == null) {
                    throw PrivmatException.invalidParameter("predictors[" + j + "]", "a column index",
                            "predictors[" + j + "] must be a column index");
                }
                predictors[j] = c;
            }
        }
        return RegressionDocument.of(releases.regression(id, Caller.current(), request.response(), predictors,
                request.ridge(), level(request.level())));
    }

    @PostMapping(path = "/{id}/sparse-pca", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ApiResponse(responseCode = "200", description = "The answer, computed from the release alone (nothing charged)")
    @ApiResponse(responseCode = "400", description = "A parameter is missing or out of range for this release")
    @ApiResponse(responseCode = "404", description = "No such release visible to the caller")
    @ApiResponse(responseCode = "409", description = "The release holds no second-moment matrix (a graph sketch)")
    @Operation(operationId = "releaseSparsePca", summary = "Sparse principal components (truncated power method) "
            + "from a covariance-type release, with explained-variance intervals (free)")
    ComponentsView sparsePca(@PathVariable UUID id, @RequestBody SparsePcaRequest request) {
        if (request.s() == null) {
            throw PrivmatException.invalidParameter("s", "[1, d]", "s is required");
        }
        return ComponentsView.of(releases.sparsePca(id, Caller.current(), orDefault(request.k(), 1), request.s(),
                orDefault(request.iterations(), 100), level(request.level())));
    }

    @PostMapping(path = "/{id}/nonnegative-pca", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ApiResponse(responseCode = "200", description = "The answer, computed from the release alone (nothing charged)")
    @ApiResponse(responseCode = "400", description = "A parameter is missing or out of range for this release")
    @ApiResponse(responseCode = "404", description = "No such release visible to the caller")
    @ApiResponse(responseCode = "409", description = "The release holds no second-moment matrix (a graph sketch)")
    @Operation(operationId = "releaseNonNegativePca", summary = "Non-negative principal components (projected "
            + "power iteration) from a covariance-type release, with explained-variance intervals (free)")
    ComponentsView nonNegativePca(@PathVariable UUID id, @RequestBody NonNegativePcaRequest request) {
        return ComponentsView.of(releases.nonNegativePca(id, Caller.current(), orDefault(request.k(), 1),
                orDefault(request.iterations(), 100), level(request.level())));
    }

    @PostMapping(path = "/{id}/low-rank", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ApiResponse(responseCode = "200", description = "The answer, computed from the release alone (nothing charged)")
    @ApiResponse(responseCode = "400", description = "A parameter is missing or out of range for this release")
    @ApiResponse(responseCode = "404", description = "No such release visible to the caller")
    @ApiResponse(responseCode = "409", description = "The release holds no second-moment matrix (a graph sketch)")
    @Operation(operationId = "releaseLowRank", summary = "Rank-k approximation of XᵀX and PCA projections from a "
            + "covariance-type release, with error bounds (free)")
    LowRankView lowRank(@PathVariable UUID id, @RequestBody LowRankRequest request) {
        if (request.k() == null) {
            throw PrivmatException.invalidParameter("k", "[1, min(d, 200)]", "k is required");
        }
        return LowRankView.of(releases.lowRank(id, Caller.current(), request.k(),
                request.vectors() == null ? List.of() : request.vectors(), level(request.level())));
    }

    private static int orDefault(@Nullable Integer v, int fallback) {
        return v == null ? fallback : v;
    }

    private static double level(@Nullable Double level) {
        return level == null ? 0.95 : level;
    }

    static @Nullable Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    static List<double[]> rows(double[] m, int rows, int cols) {
        List<double[]> out = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            out.add(java.util.Arrays.copyOfRange(m, i * cols, (i + 1) * cols));
        }
        return out;
    }

    private static AnswersView view(ReleaseService.Answers answers) {
        return new AnswersView(answers.intervals().stream().map(a -> new AnswerView(a.estimate(), a.lower(), a.upper()))
                .toList(), answers.confidence(), answers.warnings());
    }
}
