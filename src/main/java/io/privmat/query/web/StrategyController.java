package io.privmat.query.web;

import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.linear.LinearMechanism;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.query.QueryRequest;
import io.privmat.query.admission.QueryService;
import io.privmat.security.Caller;
import io.privmat.strategy.StrategyDocument;
import io.privmat.strategy.StrategyService;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "Strategies", description = "Public, data-independent strategies of LINEAR_QUERIES (OPTIMIZED, "
        + "LOW_RANK_MECHANISM): computed from the workload alone (no data read, nothing charged), cached, and reused "
        + "by every later quote and query with the same workload.")
class StrategyController {

    private final QueryService queries;
    private final StrategyService strategies;

    StrategyController(QueryService queries, StrategyService strategies) {
        this.queries = queries;
        this.strategies = strategies;
    }

    /** Body of a strategy request: the mechanism and params of the LINEAR_QUERIES request it is for. */
    @Schema(name = "StrategyRequest", example = "{\"mechanism\": \"OPTIMIZED\", \"params\": {\"workload\": "
            + "{\"type\": \"ALL_RANGE\"}}}")
    record StrategyRequest(
            @Schema(allowableValues = {"OPTIMIZED", "LOW_RANK_MECHANISM"}, requiredMode = Schema.RequiredMode.REQUIRED)
            @Nullable String mechanism,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED) @Nullable StrategyParams params) {}

    /** The params of a LINEAR_QUERIES request that decide its strategy. */
    @Schema(name = "StrategyParams")
    record StrategyParams(@Schema(ref = "#/components/schemas/LinearWorkload", requiredMode =
            Schema.RequiredMode.REQUIRED) @Nullable Map<String, Object> workload) {}

    /** A strategy's public state. */
    @Schema(name = "Strategy")
    record StrategyView(
            @Schema(description = "The strategy's key: hex SHA-256 of (workload hash, mechanism, options)") String key,
            @Schema(allowableValues = {"OPTIMIZED", "LOW_RANK_MECHANISM"}) String mechanism,
            @Schema(allowableValues = {"PENDING", "RUNNING", "DONE", "FAILED", "CANCELLED"}) String status,
            @Schema(description = "Fraction done, from iteration counts only (public)") double progress,
            @Schema(description = "LOW_RANK_MECHANISM (keyed by its workload): SHA-256 of the workload's canonical "
                    + "form") @Nullable String workloadHash,
            @Schema(description = "LOW_RANK_MECHANISM: the workload's kind") @Nullable String workloadKind,
            @Schema(description = "OPTIMIZED (keyed by the workload's Gram WᵀW, shared by every workload with the "
                    + "same Gram): SHA-256 of the Gram in a canonical order") @Nullable String gramHash,
            @Nullable Integer cells, @Nullable Integer queries,
            @Schema(description = "The optimiser's options (part of the key)") @Nullable String options,
            @Schema(description = "DONE: how it was built, e.g. OPTIMIZED/CONVEX, LOW_RANK") @Nullable String method,
            @Schema(description = "DONE: expected total squared error E‖Wx̂ − Wx‖² when each measurement's noise has "
                    + "variance Δ² (Δ the strategy's own sensitivity, ADD_REMOVE)") @Nullable Double objective,
            @Schema(description = "DONE, OPTIMIZED on one factor: a certified lower bound on the objective")
            @Nullable Double lowerBound,
            @Nullable Integer iterations, @Nullable Boolean converged,
            @Schema(description = "DONE: √(objective/m), the expected per-query RMSE per unit of noise (noise "
                    + "standard deviation = sensitivity); multiply by the noise scale a budget gives (the quote "
                    + "states it as expectedRmsePerQuery)") @Nullable Double expectedRmsePerUnitNoise,
            @Schema(description = "DONE: how long the computation took, in milliseconds") @Nullable Long computeMillis,
            @Schema(description = "DONE: size of the stored strategy in bytes") @Nullable Long bytes,
            @Schema(description = "FAILED or CANCELLED: why") @Nullable String error,
            @Schema(description = "FAILED or CANCELLED: TIME_LIMIT (it outlived privmat.strategies.max-compute-time), "
                    + "MEMORY, SHUTDOWN (the replica stopped) or ERROR", allowableValues = {"TIME_LIMIT", "MEMORY",
                    "SHUTDOWN", "ERROR"}) @Nullable String reason,
            @Schema(description = "The computation's estimated time at the reference rate "
                    + "(privmat.strategies.reference-rate), from public sizes, within the limit") @Nullable Double
                    estimatedSeconds,
            @Schema(description = "The computation's estimated peak memory, from public sizes") @Nullable Long
                    estimatedBytes,
            @Nullable Instant createdAt) {

        static StrategyView of(StrategyService.View v) {
            StrategyDocument i = v.info();
            boolean done = v.status() == StrategyService.Status.DONE;
            // A strategy shared by every workload with its Gram: another caller's workload hash and kind
            // (stored before they were left out) are not shown. Decided by the mechanism's declared
            // capability, not by gramHash being present (documents stored before it was recorded lack it).
            boolean shared = LinearMechanism.strategySharedByGram(v.mechanism());
            return new StrategyView(v.id(), v.mechanism(), v.status().name(), v.progress(),
                    shared ? null : i.workloadHash(), shared ? null : i.workloadKind(), i.gramHash(), i.cells(),
                    i.queries(), i.options(), i.method(), i.objective(), i.lowerBound(), i.iterations(), i.converged(),
                    i.expectedRmsePerUnitNoise(), i.computeMillis(), done ? v.bytes() : null, v.error(),
                    v.reason() == null ? null : v.reason().name(), i.estimatedSeconds(), i.estimatedBytes(),
                    v.createdAt());
        }
    }

    @PostMapping(path = "/v1/datasets/{datasetId}/strategies", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "computeStrategy", summary = "Start computing the strategy of a LINEAR_QUERIES request",
            description = "For OPTIMIZED and LOW_RANK_MECHANISM: builds the request's workload on the dataset's declared "
                    + "domain and computes its strategy in the background, from public values only (no data is read, "
                    + "nothing is charged). 202 with the strategy while it is computed; 200 when it is already DONE. "
                    + "Free work is bounded: its cost is estimated from public sizes first (422 when it cannot run "
                    + "within the limits of one computation, which the detail states), computations wait in a queue "
                    + "served round robin between API keys with quotas per key and per subject (429 beyond, 503 when "
                    + "the queue is full, both with Retry-After), and each is cancelled when it outlives "
                    + "privmat.strategies.max-compute-time (CANCELLED, reason TIME_LIMIT).")
    @ApiResponse(responseCode = "202", description = "Being computed; Location names the strategy")
    @ApiResponse(responseCode = "200", description = "Already computed")
    @ApiResponse(responseCode = "400", description = "Not a strategy mechanism, or an invalid workload",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "404", description = "No such dataset visible to the caller",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "409", description = "Not a HISTOGRAM dataset, or it has no data yet",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "422", description = "The workload or its strategy is over a size limit, or its "
            + "computation over the time or memory limit of one computation",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "429", description = "This API key or subject has its quota of computations waiting "
            + "(Retry-After)", content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "503", description = "Too many strategies queued on this replica (Retry-After)",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<StrategyView> compute(@PathVariable UUID datasetId, @RequestBody StrategyRequest request) {
        if (request.params() == null) {
            throw PrivmatException.invalidParameter("params", "an object with workload", "params is required");
        }
        RequestParams params = request.params().workload() == null ? RequestParams.empty()
                : RequestParams.of("workload", request.params().workload());
        StrategyService.View v = queries.startStrategy(datasetId, new QueryRequest("LINEAR_QUERIES",
                request.mechanism(), null, null, null, params), Caller.current(), strategies);
        HttpStatus status = v.status() == StrategyService.Status.DONE ? HttpStatus.OK : HttpStatus.ACCEPTED;
        return ResponseEntity.status(status).location(URI.create("/v1/strategies/" + v.id())).body(StrategyView.of(v));
    }

    @GetMapping(path = "/v1/strategies/{key}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getStrategy", summary = "A strategy's status, progress and expected error (public)")
    @ApiResponse(responseCode = "200", description = "The strategy")
    @ApiResponse(responseCode = "404", description = "Unknown here: neither stored nor computing on this replica",
            content = @Content(mediaType = "application/problem+json"))
    StrategyView get(@PathVariable String key) {
        if (!key.matches("[0-9a-f]{64}")) {
            throw notFound();
        }
        return StrategyView.of(strategies.view(key).orElseThrow(StrategyController::notFound));
    }

    /** Details never repeat what the client sent. */
    private static PrivmatException notFound() {
        return new PrivmatException(ProblemType.STRATEGY_NOT_FOUND, "No such strategy here (neither stored nor "
                + "computing on this replica).", Map.of());
    }
}
