package io.privmat.release.web;

import com.fasterxml.jackson.annotation.JsonRawValue;
import io.privmat.api.LossDocument;
import io.privmat.api.ParametersDocument;
import io.privmat.problem.PrivmatException;
import io.privmat.release.Release;
import io.privmat.release.ReleaseService;
import io.privmat.security.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
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
                    "WINDOW_LAPLACIAN"}) String kind, String mechanism,
            @Schema(implementation = ParametersDocument.class) @JsonRawValue String parameters,
            @Schema(implementation = LossDocument.class) @JsonRawValue String loss,
            @Schema(description = "Public facts behind the error bounds (typed as ReleaseMeta)")
            Map<String, Object> meta, int rows, int cols,
            @Schema(description = "When the job stored it; owner only (for an analyst it would time the job, whose "
                    + "running time depends on the data)") @Nullable Instant createdAt) {
        static ReleaseView of(Release r, Caller caller) {
            boolean owner = caller.is(io.privmat.security.Role.OWNER);
            return new ReleaseView(r.id(), r.datasetId(), r.jobId(), r.kind().name(), r.mechanism(), r.parameters(),
                    r.loss(), r.meta(), r.rows(), r.cols(), owner ? r.createdAt() : null);
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
            @Schema(description = "Each interval holds with at least this probability (1 − nu)") double confidence) {}

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

    private static AnswersView view(ReleaseService.Answers answers) {
        return new AnswersView(answers.intervals().stream().map(a -> new AnswerView(a.estimate(), a.lower(), a.upper()))
                .toList(), answers.confidence());
    }
}
