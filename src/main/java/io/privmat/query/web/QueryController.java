package io.privmat.query.web;

import io.privmat.problem.PrivmatException;
import io.privmat.job.JobView;
import io.privmat.ledger.TrackView;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.privacy.AccountingMode;
import io.privmat.query.QueryRequest;
import io.privmat.query.QueryService;
import io.privmat.security.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/v1/datasets/{datasetId}/queries", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Queries", description = "Quote and submit differentially private queries; each is charged to the "
        + "dataset's budget before any data is read and runs asynchronously.")
class QueryController {

    private final QueryService queries;

    QueryController(QueryService queries) {
        this.queries = queries;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Submit a query", description = "Plans the mechanism and its exact cost from public "
            + "parameters, reserves the cost and enqueues a job in one transaction, and answers 202 with the job. "
            + "The same Idempotency-Key with the same body returns the same job (never a second charge); with "
            + "another body it is refused with 422.")
    @ApiResponse(responseCode = "202", description = "Admitted; Location names the job")
    @ApiResponse(responseCode = "400", description = "A parameter is missing or out of range")
    @ApiResponse(responseCode = "404", description = "No such dataset")
    @ApiResponse(responseCode = "409", description = "Budget exhausted, or the dataset has no data")
    @ApiResponse(responseCode = "422", description = "Idempotency key reused, or mechanism not chargeable here")
    ResponseEntity<JobView> submit(@PathVariable UUID datasetId, @RequestBody QueryRequest request,
            @Parameter(description = "Makes retries safe: at most 200 printable characters")
            @RequestHeader(value = "Idempotency-Key", required = false) @Nullable String idempotencyKey) {
        if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > 200)) {
            throw PrivmatException.invalidParameter("Idempotency-Key", "1–200 characters",
                    "Idempotency-Key must have 1–200 characters");
        }
        Caller caller = Caller.current();
        QueryService.Submission s = queries.submit(datasetId, request, idempotencyKey, caller);
        return ResponseEntity.status(HttpStatus.ACCEPTED).location(URI.create("/v1/jobs/" + s.job().id()))
                .header("Idempotent-Replayed", Boolean.toString(s.replayed())).body(JobView.of(s.job(), caller));
    }

    @PostMapping(path = "/quote", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Quote a query", description = "The exact cost and the remaining budget before and after "
            + "it; charges nothing and runs nothing.")
    QuoteView quote(@PathVariable UUID datasetId, @RequestBody QueryRequest request) {
        QueryService.Quote q = queries.quote(datasetId, request, Caller.current());
        AccountingMode mode = AccountingMode.valueOf(q.accounting());
        return new QuoteView(q.plan().spec().kind().name(), q.plan().spec().mechanism(), q.accounting(), TrackView.charged(q.cost(), mode),
                q.admissible(), TrackView.available(q.remaining(), mode),
                q.remainingAfter() == null ? null : TrackView.available(q.remainingAfter(), mode),
                io.privmat.api.JsonNumbers.available(q.largestPureEpsilonAfter()), q.plan().noise(), q.expectedError(),
                q.warnings());
    }

    /** A quote. */
    @Schema(name = "Quote")
    record QuoteView(String kind, String mechanism, String accounting,
            @Schema(description = "What the query would charge, on this dataset's tracks") TrackView cost,
            @Schema(description = "Whether the remaining budget can pay it now") boolean admissible,
            TrackView remaining,
            @Schema(description = "Remaining after this query (absent if not admissible)") @Nullable TrackView remainingAfter,
            @Schema(description = "Largest epsilon of one more pure-DP query after this one") @Nullable Double
                    largestPureEpsilonAfter,
            @Schema(description = "Public facts about the noise (typed as NoiseFacts)") Map<String, Object> noise,
            @Schema(description = "The error the result will have, from the public parameters only: per entry, per "
                    + "query or in a matrix norm, at the stated level (null level: a root-mean-square error), with "
                    + "its basis (EXACT, BOUND, ASYMPTOTIC, EMPIRICAL); docs/accuracy/intervals.md")
                    List<ErrorStatement> expectedError,
            @Schema(description = "Noise warnings from the public parameters only: NOISE_DOMINATED when a stated "
                    + "error is at least the largest value any dataset with these public facts can give "
                    + "(docs/accuracy/warnings.md); empty when none applies") List<NoiseWarning> warnings) {}
}
