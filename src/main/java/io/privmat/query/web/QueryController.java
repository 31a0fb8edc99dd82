package io.privmat.query.web;

import io.privmat.api.JsonNumbers;
import io.privmat.job.JobView;
import io.privmat.ledger.TrackView;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.InverseQuote;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.StandInData;
import io.privmat.privacy.AccountingMode;
import io.privmat.problem.PrivmatException;
import io.privmat.query.dryrun.DryRuns;
import io.privmat.query.QueryPlans;
import io.privmat.query.QueryRequest;
import io.privmat.query.admission.QueryService;
import io.privmat.security.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
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
    private final DryRuns dryRuns;

    QueryController(QueryService queries, DryRuns dryRuns) {
        this.queries = queries;
        this.dryRuns = dryRuns;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Submit a query", description = "Plans the mechanism and its exact cost from public "
            + "parameters, reserves the cost and enqueues a job in one transaction, and answers 202 with the job. "
            + "The same Idempotency-Key with the same body returns the same job (never a second charge); with "
            + "another body it is refused with 422. With `reuse: true`, an earlier DONE job of the same canonical plan "
            + "(mechanism, kind, budget, parameters with defaults, the dataset's public facts) on the dataset's "
            + "current data version, that the caller may see, answers instead: 200 with that job, nothing charged "
            + "and no data read (docs/accounting.md, \"Repeat answers\"); without one, the query is admitted as usual.")
    @ApiResponse(responseCode = "200", description = "Answered by an earlier DONE job (`reuse: true`): the body is that "
            + "job, Location names it and its result, nothing was charged",
            headers = @Header(name = "Reused-From", description = "The id of the earlier job whose stored result answers",
                    schema = @Schema(type = "string", format = "uuid")))
    @ApiResponse(responseCode = "202", description = "Admitted; Location names the job")
    @ApiResponse(responseCode = "400", description = "A parameter is missing or out of range")
    @ApiResponse(responseCode = "404", description = "No such dataset")
    @ApiResponse(responseCode = "409", description = "Budget exhausted, or the dataset has no data")
    @ApiResponse(responseCode = "422", description = "Idempotency key reused, or mechanism not chargeable here")
    @ApiResponse(responseCode = "429", description = "Rate limit exceeded, or this key or subject held its places "
            + "for free computations (privmat.security.max-free-requests-per-key, -per-subject) for 10 s: a "
            + "submission is planned before its charge is reserved and waits for a place (Retry-After)")
    @ApiResponse(responseCode = "503", description = "The database is unavailable or overloaded, or the replica's "
            + "places for free computations stayed taken for 10 s (Retry-After)")
    ResponseEntity<JobView> submit(@PathVariable UUID datasetId, @RequestBody QueryRequest request,
            @Parameter(description = "Makes retries safe: at most 200 printable characters")
            @RequestHeader(value = "Idempotency-Key", required = false) @Nullable String idempotencyKey) {
        if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > 200)) {
            throw PrivmatException.invalidParameter("Idempotency-Key", "1–200 characters",
                    "Idempotency-Key must have 1–200 characters");
        }
        Caller caller = Caller.current();
        QueryService.Submission s = queries.submit(datasetId, request, idempotencyKey, caller);
        if (s.reused()) {
            return ResponseEntity.ok().location(URI.create("/v1/jobs/" + s.job().id()))
                    .header("Reused-From", s.job().id().toString()).body(JobView.of(s.job(), caller));
        }
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
                JsonNumbers.available(q.largestPureEpsilonAfter()), q.plan().noise(), q.expectedError(),
                q.warnings(), q.limit().name(), TrackView.available(q.limitRemaining(), mode));
    }

    @PostMapping(path = "/inverse-quote", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "inverseQuote", summary = "The smallest budget for a target accuracy",
            description = "Given a query without its epsilon or rho (delta, when the mechanism takes one, stays fixed) "
                    + "and a target — one of the error statements its quote makes (quantity, metric, level) and the "
                    + "value it must not exceed — the smallest budget whose quote meets it: a bisection over the "
                    + "plan's public error statement, exact where the statement is EXACT, conservative where it is a "
                    + "BOUND. Says whether the remaining budget can pay it, and does the same for every other "
                    + "mechanism answering the kind on this dataset, naming the one needing the least share of the "
                    + "budget. Charges nothing, reads no data (docs/accuracy/inverse-quote.md).")
    @ApiResponse(responseCode = "200", description = "The budgets; `requested.reachable` false when even the largest "
            + "budget does not meet the target")
    @ApiResponse(responseCode = "400", description = "A parameter is missing or out of range, epsilon or rho given, or a "
            + "target the quote does not state (the problem lists the statements it makes)")
    @ApiResponse(responseCode = "404", description = "No such dataset")
    @ApiResponse(responseCode = "429", description = "Rate limit or a quota of free computations exceeded, or this "
            + "API key already has an inverse "
            + "quote or a dry run in progress (one at a time per key; Retry-After)")
    @ApiResponse(responseCode = "503", description = "The database is unavailable or overloaded, the replica's "
            + "places for inverse quotes and dry runs are taken, or the requested mechanism's first plan did not fit the request's planning limit (Retry-After)")
    InverseQuoteView inverseQuote(@PathVariable UUID datasetId, @RequestBody InverseQuoteRequest request) {
        if (request.query() == null) {
            throw PrivmatException.invalidParameter("query", "a query (kind, mechanism, params, delta)",
                    "query is required");
        }
        TargetRequest t = request.target();
        if (t == null || t.metric() == null || t.value() == null) {
            throw PrivmatException.invalidParameter(t == null ? "target" : t.metric() == null ? "target.metric"
                    : "target.value", "a target {quantity, metric, value, level}", "target needs a metric and a value");
        }
        InverseQuote.Target target;
        try {
            target = new InverseQuote.Target(t.quantity(), t.metric(), t.level(), t.value());
        } catch (PlanningException e) {
            throw QueryPlans.problem(e);
        }
        QueryService.Inverse inverse = queries.inverseQuote(datasetId, request.query(), target, Caller.current());
        AccountingMode mode = AccountingMode.valueOf(inverse.accounting());
        return new InverseQuoteView(inverse.requested().answer().plan().spec().kind().name(), inverse.accounting(), t,
                TrackView.available(inverse.remaining(), mode), OptionView.of(inverse.requested(), mode),
                inverse.alternatives().stream().map(p -> OptionView.of(p, mode)).toList(),
                inverse.notComparable().stream().map(n -> new NotComparableView(n.mechanism(), n.reason())).toList(),
                inverse.cheapest());
    }

    @PostMapping(path = "/dry-run", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "dryRun", summary = "Run a query on synthetic stand-in data (free)",
            description = "Plans the query as a quote does, then releases it on synthetic data generated from the "
                    + "dataset's public facts only (shape, bounds, domain, and the row count where it is public; "
                    + "under ADD_REMOVE a public stand-in count, standInSize or a default), so that the shape and the "
                    + "noise of the answer can be seen before paying. The dataset's rows are never read; nothing is "
                    + "charged, reserved or stored (a release that would answer free queries is not kept). The "
                    + "result is labelled synthetic and its numbers say nothing about the real data "
                    + "(docs/dry-run.md).")
    @ApiResponse(responseCode = "200", description = "The result document computed on the stand-in")
    @ApiResponse(responseCode = "400", description = "A parameter is missing or out of range")
    @ApiResponse(responseCode = "404", description = "No such dataset")
    @ApiResponse(responseCode = "409", description = "The dataset has no data (its public facts are set by the "
            + "upload), or it is a STREAM")
    @ApiResponse(responseCode = "422", description = "A matrix of more than 1000 columns (a stand-in's Gram and "
            + "decompositions are computed while the caller waits)")
    @ApiResponse(responseCode = "429", description = "Rate limit or a quota of free computations exceeded, or this "
            + "API key already has an inverse "
            + "quote or a dry run in progress (one at a time per key; Retry-After)")
    @ApiResponse(responseCode = "503", description = "The database is unavailable or overloaded, the replica's "
            + "places for inverse quotes and dry runs are taken, or the dry run ran out of its 10 s (Retry-After)")
    DryRunView dryRun(@PathVariable UUID datasetId, @RequestBody QueryRequest request,
            @Parameter(description = "Size of the stand-in: rows (MATRIX), edges (GRAPH), records (HISTOGRAM) or "
                    + "users (RATINGS). Default: the dataset's own count where it is public, else 1000 (10 edges "
                    + "per vertex for a graph)") @org.springframework.web.bind.annotation.RequestParam(required = false)
            @Nullable Long standInSize) {
        DryRuns.DryRun run = dryRuns.run(datasetId, request, standInSize, Caller.current());
        AccountingMode mode = AccountingMode.valueOf(run.accounting());
        StandInData.Description st = run.standIn().data();
        return new DryRunView(true, new StandInView(st.rows(), st.edges(), st.records(), st.users(),
                run.standIn().sizeRule(), st.generator(), run.standIn().note()), run.accounting(),
                run.cost() == null ? null : TrackView.charged(run.cost(), mode), run.admissible(), run.realRefusal(),
                run.result());
    }

    /** What a dry run's stand-in is (public: its size is public or chosen by the caller). */
    @Schema(name = "StandIn")
    record StandInView(@Schema(description = "MATRIX: stand-in rows") @Nullable Long rows,
            @Schema(description = "GRAPH: stand-in edges (the real edge count is never public)") @Nullable Long edges,
            @Schema(description = "HISTOGRAM: stand-in records") @Nullable Long records,
            @Schema(description = "RATINGS: stand-in users") @Nullable Long users,
            @Schema(description = "How the size was chosen: requested, the dataset's public count, or a default "
                    + "when the count is private") String sizeRule,
            @Schema(description = "How the stand-in is generated from the public facts") String generator,
            String note) {}

    /** A dry run's answer. */
    @Schema(name = "DryRun")
    record DryRunView(
            @Schema(description = "Always true: the result was computed on synthetic stand-in data") boolean synthetic,
            @Schema(description = "What the stand-in is: its size, the rule that chose it, its generator")
            StandInView standIn,
            String accounting,
            @Schema(description = "What the real query would charge, planned on the dataset's own public facts (this "
                    + "dry run charged nothing); absent when the real query would be refused") @Nullable TrackView cost,
            @Schema(description = "Whether the remaining budget could pay the real query now") boolean admissible,
            @Schema(description = "Why the real query would be refused on this dataset (a limit that depends on its "
                    + "public count) while the stand-in's plan was made; absent otherwise") @Nullable String realRefusal,
            @Schema(ref = "#/components/schemas/QueryResult", description = "The result document the query would "
                    + "return, computed on the stand-in, with its accuracy and warnings; without jobId, and without "
                    + "releaseId (nothing is kept)") Object result) {}

    /** Body of an inverse quote. */
    @Schema(name = "InverseQuoteRequest", example = "{\"query\": {\"kind\": \"COLUMN_SUMS\", \"mechanism\": "
            + "\"GAUSSIAN\"}, \"target\": {\"quantity\": \"columnSums\", \"metric\": \"absPerEntry\", "
            + "\"value\": 10, \"level\": 0.95}}")
    record InverseQuoteRequest(
            @Schema(description = "The query without epsilon or rho (they are searched); delta stays fixed where the "
                    + "mechanism takes one; without delta a Gaussian mechanism on a ZCDP dataset is searched in rho")
            @Nullable QueryRequest query,
            @Schema(description = "The accuracy to meet") @Nullable TargetRequest target) {}

    /** A target accuracy: one of the statements a quote makes, and the value it must not exceed. */
    @Schema(name = "AccuracyTarget")
    record TargetRequest(
            @Schema(description = "The statement's quantity, e.g. columnSums, eigenvalues, answers (optional when "
                    + "the metric names one statement)") @Nullable String quantity,
            @Schema(description = "The statement's metric (ErrorStatement.metric), e.g. absPerEntry, rmsePerQuery, "
                    + "absPerEigenvalue") @Nullable String metric,
            @Schema(description = "The largest acceptable error, in the quantity's units") @Nullable Double value,
            @Schema(description = "The statement's level, e.g. 0.95; absent for a root-mean-square figure")
            @Nullable Double level) {}

    /** The budget fields to send with the query. */
    @Schema(name = "BudgetFields")
    record BudgetFields(@Nullable Double epsilon, @Nullable Double delta, @Nullable Double rho) {

        static @Nullable BudgetFields of(@Nullable QueryBudget b) {
            return b == null ? null : new BudgetFields(value(b.epsilon()), value(b.delta()), value(b.rho()));
        }

        private static @Nullable Double value(java.math.@Nullable BigDecimal v) {
            return v == null ? null : v.doubleValue();
        }
    }

    /** One mechanism's smallest budget for the target. */
    @Schema(name = "InverseQuoteOption")
    record OptionView(String mechanism,
            @Schema(description = "Whether some budget up to the mechanism's maximum meets the target") boolean reachable,
            @Schema(description = "The field searched: EPSILON (with the request's delta, or pure) or RHO",
                    allowableValues = {"EPSILON", "RHO"}) String searched,
            @Schema(description = "The smallest budget meeting the target (rounded up to 4 significant digits); "
                    + "absent when unreachable") @Nullable BudgetFields budget,
            @Schema(description = "The quote's statement at that budget (at the largest budget when unreachable)")
            ErrorStatement achieved,
            @Schema(description = "What it would charge, on this dataset's tracks") @Nullable TrackView cost,
            @Schema(description = "Whether the remaining budget can pay it now") boolean admissible,
            @Nullable TrackView remainingAfter,
            @Schema(description = "The largest fraction of a track's total budget it takes") @Nullable Double shareOfBudget,
            @Schema(description = "Why no budget meets the target") @Nullable String unreachable,
            @Schema(description = "The quote's noise warnings at that budget") List<NoiseWarning> warnings,
            @Schema(description = "False when the request's planning limit (150 plans, 10 s) cut the search short: "
                    + "the budget then meets the target (the smallest seen that does, not rounded) but a smaller one "
                    + "may too") boolean smallest) {

        static OptionView of(QueryService.Priced p, AccountingMode mode) {
            var a = p.answer();
            return new OptionView(a.mechanism(), a.reachable(), a.searched().name(), BudgetFields.of(a.budget()),
                    a.achieved(), p.cost() == null ? null : TrackView.charged(p.cost(), mode), p.admissible(),
                    p.remainingAfter() == null ? null : TrackView.available(p.remainingAfter(), mode), p.shareOfBudget(),
                    a.unreachable(), p.warnings(), a.smallest());
        }
    }

    /** A mechanism of the kind that cannot answer the target on this dataset. */
    @Schema(name = "InverseQuoteNotComparable")
    record NotComparableView(String mechanism, String reason) {}

    /** An inverse quote. */
    @Schema(name = "InverseQuote")
    record InverseQuoteView(String kind, String accounting, TargetRequest target, TrackView remaining,
            @Schema(description = "The requested mechanism") OptionView requested,
            @Schema(description = "The other mechanisms answering the kind on this dataset, with the same parameters "
                    + "where they take them") List<OptionView> alternatives,
            @Schema(description = "Mechanisms of the kind that cannot answer this target here, and why (also those "
                    + "not priced because the request's planning limit was reached)")
            List<NotComparableView> notComparable,
            @Schema(description = "The reachable mechanism needing the least share of the budget") @Nullable String
                    cheapest) {}

    /** A quote. */
    @Schema(name = "Quote")
    record QuoteView(String kind, String mechanism, String accounting,
            @Schema(description = "What the query would charge, on this dataset's tracks") TrackView cost,
            @Schema(description = "Whether the limit that pays your queries (your allocation, or the unallocated "
                    + "pool) and the dataset's total can both pay it now") boolean admissible,
            @Schema(description = "What remains of the dataset's total") TrackView remaining,
            @Schema(description = "Remaining after this query (absent if not admissible)") @Nullable TrackView remainingAfter,
            @Schema(description = "Largest epsilon of one more pure-DP query after this one") @Nullable Double
                    largestPureEpsilonAfter,
            @Schema(description = "Public facts about the noise (typed as NoiseFacts)") Facts noise,
            @Schema(description = "The error the result will have, from the public parameters only: per entry, per "
                    + "query or in a matrix norm, at the stated level (null level: a root-mean-square error), with "
                    + "its basis (EXACT, BOUND, ASYMPTOTIC, EMPIRICAL); docs/accuracy/intervals.md")
                    List<ErrorStatement> expectedError,
            @Schema(description = "Noise warnings from the public parameters only: NOISE_DOMINATED when a stated "
                    + "error is at least the largest value any dataset with these public facts can give "
                    + "(docs/accuracy/warnings.md); empty when none applies") List<NoiseWarning> warnings,
            @Schema(description = "The limit that pays your queries besides the total: ALLOCATION (yours) or POOL "
                    + "(the unallocated pool, when you have no allocation); docs/accounting.md, \"Allocations\"",
                    allowableValues = {"ALLOCATION", "POOL"}) String limit,
            @Schema(description = "What remains of that limit") TrackView limitRemaining) {}
}
