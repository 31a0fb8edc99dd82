package io.privmat.stream.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.privmat.api.JsonNumbers;
import io.privmat.api.LossDocument;
import io.privmat.api.Paging;
import io.privmat.api.ParametersDocument;
import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetService;
import io.privmat.dataset.StreamSchema;
import io.privmat.job.Job;
import io.privmat.job.JobService;
import io.privmat.job.JobView;
import io.privmat.ledger.TrackView;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.window.WindowDefinition;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.catalog.BlockRule;
import io.privmat.privacy.AccountingMode;
import io.privmat.problem.PrivmatException;
import io.privmat.query.QueryRequest;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.privmat.stream.StreamService;
import io.privmat.stream.StreamSettings;
import io.privmat.stream.Subscription;
import io.privmat.stream.SubscriptionRelease;
import io.privmat.stream.SubscriptionService;
import io.privmat.stream.SubscriptionState;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@RestController
@Tag(name = "Subscriptions", description = "Standing queries on streams: charged once at creation, then one window "
        + "release per completed block, for free.")
class SubscriptionController {

    private final SubscriptionService subscriptions;
    private final DatasetService datasets;
    private final JobService jobs;
    private final JsonMapper json;
    private final StreamSettings settings;

    SubscriptionController(SubscriptionService subscriptions, DatasetService datasets, JobService jobs,
            JsonMapper json, StreamSettings settings) {
        this.subscriptions = subscriptions;
        this.datasets = datasets;
        this.jobs = jobs;
        this.json = json;
        this.settings = settings;
    }

    /**
     * Body of {@code POST /v1/datasets/{id}/subscriptions} and its quote. Its published schema
     * ({@code SubscriptionRequest}: a {@code oneOf} over the window mechanisms) is written from the
     * catalogue ({@link SubscriptionSchemas}), which also validates every field.
     */
    @Schema(name = "SubscriptionRequest")
    record SubscriptionRequest(@Nullable String kind, @Nullable String mechanism, @Nullable BigDecimal epsilon,
            @Nullable BigDecimal delta, @Nullable BigDecimal rho, @Nullable RequestParams params) {
        QueryRequest query() {
            return new QueryRequest(kind, mechanism, epsilon, delta, rho, params);
        }
    }

    /** A subscription. */
    @Schema(name = "Subscription")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record SubscriptionView(UUID id, UUID datasetId,
            @Schema(description = "The job recording its charge (kind SUBSCRIPTION, DONE)") UUID jobId,
            @Schema(allowableValues = {"COVARIANCE", "PCA", "SKETCH"}) String kind,
            String mechanism, // its allowed values: the catalogue's window mechanisms (SubscriptionSchemas)
            @Schema(description = "ACTIVE: releasing; CANCELLED: stopped by a caller; FINISHED: the stream reached "
                    + "its horizon; FAILED: stopped by the service (see errorCode)",
                    allowableValues = {"ACTIVE", "CANCELLED", "FINISHED", "FAILED"}) String state,
            @Nullable String errorCode,
            @Schema(description = "The plan's public parameters", implementation = ParametersDocument.class)
            @JsonRawValue String parameters,
            @Schema(description = "The exact amounts charged, once, at creation; on a stream whose budget renews "
                    + "per period, charged once for each period it reads (the first at creation)") JobView.Cost cost,
            @Schema(description = "The loss of the whole stream of releases, as run and as charged",
                    implementation = LossDocument.class) @JsonRawValue String loss,
            @Schema(description = "Public facts about the noise (typed as NoiseFacts)") Facts noise,
            @Schema(description = "The stream block it started with (its block 0)") long firstStreamBlock,
            @Schema(description = "The stream blocks it has passed so far (TIME blocks: those whose publishedAt has "
                    + "passed): one release each, except blocks of periods it was paused in, which have none")
            long completedBlocks,
            Instant createdAt, @Nullable Instant cancelledAt,
            @Schema(description = "Where its releases are listed, newest first") String releases,
            @Schema(description = "A stream whose budget renews per period: the latest period it holds a committed "
                    + "charge for") @Nullable Long chargedPeriod,
            @Schema(description = "Paused: the period's budget refused its charge, so it reads none of that "
                    + "period's blocks and releases nothing for them; it is charged again at the first block of this "
                    + "period and, admitted, restarts like a new subscription (empty windows, new noise key)")
                    @Nullable Long waitingForPeriod,
            @Schema(description = "Paused: the limit that refused the charge", allowableValues = {"ALLOCATION",
                    "POOL", "TOTAL"}) @Nullable String pausedBy,
            @Schema(description = "After a pause: the stream block it restarted with; its windows cover only blocks "
                    + "from there on") @Nullable Long restartedAtStreamBlock) {

        static SubscriptionView of(Subscription s, Job job, Facts noise) {
            // Only an ACTIVE subscription waits for a period: a cancelled, finished or failed one is
            // never charged again, whatever period it was paused in.
            boolean waiting = s.pausedPeriod() != null && s.state() == SubscriptionState.ACTIVE;
            return new SubscriptionView(s.id(), s.datasetId(), s.jobId(), s.kind(), s.mechanism(), s.state().name(),
                    s.errorCode(), JsonNumbers.parametersDocument(s.spec()), JobView.Cost.of(job.cost()),
                    JsonNumbers.lossDocument(s.loss()), noise, s.firstBlock(), s.completedBlocks(), s.createdAt(),
                    s.cancelledAt(), "/v1/subscriptions/" + s.id() + "/releases", s.chargedPeriod(),
                    waiting ? s.pausedPeriod() + 1 : null, waiting ? s.pausedLimit() : null, s.runBlock());
        }
    }

    /** A page of subscriptions. */
    @Schema(name = "SubscriptionPage")
    record SubscriptionPage(List<SubscriptionView> items, int offset, int limit, long total) {}

    /** One window release of a subscription. */
    @Schema(name = "WindowRelease")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ReleaseView(
            @Schema(description = "The subscription's block index (0 = its first release)") long block,
            @Schema(description = "The stream's block index that completed") long streamBlock,
            @Schema(description = "The stored release: POST /v1/releases/{id}/directional-variance (and /cuts for "
                    + "edge streams) answer on it for free, with intervals") UUID releaseId,
            @Schema(description = "The window's first block (subscription index)") long firstBlock,
            @Schema(description = "Blocks in the window") long blocks,
            @Schema(description = "Rows in the window when public (ROW_COUNT blocks)") @Nullable Long windowRows,
            @Schema(description = "τ²: the variance of xᵀEx for a unit direction x") double noiseVariance,
            @Schema(description = "τ√(2d): the typical spectral norm of the estimate's noise") double predictedSpectralError,
            @Schema(description = "The most one entry moved by grid rounding") double roundingBound,
            @Schema(description = "TIME blocks: the public end of the block (start + (streamBlock + 1)·blockSeconds)")
            @Nullable Instant blockEndsAt,
            @Schema(description = "TIME blocks: when the release is shown, blockEndsAt + the service's release delay "
                    + "(privmat.streams.release-delay), whenever it was computed")
            @Nullable Instant publishedAt,
            @Schema(description = "When it was stored; the dataset's owner only (under ROW_COUNT blocks it times "
                    + "the owner's appends)") @Nullable Instant createdAt,
            @Schema(description = "PCA: the top-k eigenvalues of the PSD-projected estimate (absent in the "
                    + "unlikely case that its eigendecomposition did not converge)") double @Nullable [] eigenvalues,
            @Schema(description = "PCA: the top-k components, d × k") double @Nullable [][] components,
            @Schema(description = "COVARIANCE (GET of one release only): the PSD-projected window estimate, d × d")
            double @Nullable [][] covariance,
            @Schema(description = "Noise warnings of the released eigenvalues (PCA, and COVARIANCE when one release "
                    + "is read), from the release's public facts (docs/accuracy/warnings.md)")
            @Nullable List<NoiseWarning> warnings) {}

    /** A page of releases, newest first. */
    @Schema(name = "WindowReleasePage")
    record ReleasePage(List<ReleaseView> items, int offset, int limit, long total) {}

    /** A quote of a subscription. */
    @Schema(name = "SubscriptionQuote")
    record QuoteView(String kind, String mechanism, String accounting,
            @Schema(description = "What the subscription would charge, once, for the whole stream; on a stream whose "
                    + "budget renews per period, once for each period it reads") TrackView cost,
            @Schema(description = "Whether the limit that pays your charges (your allocation, or the unallocated "
                    + "pool) and the dataset's total can both pay it now") boolean admissible,
            @Schema(description = "What remains of the dataset's total") TrackView remaining,
            @Schema(description = "Remaining after it (absent if not admissible)") @Nullable TrackView remainingAfter,
            @Schema(description = "Largest epsilon of one more pure-DP query after it") @Nullable Double
                    largestPureEpsilonAfter,
            @Schema(description = "Public facts about the noise (typed as NoiseFacts)") Facts noise,
            @Schema(description = "Noise warnings from the public parameters only (docs/accuracy/warnings.md)")
            List<NoiseWarning> warnings,
            @Schema(description = "The limit that pays your charges besides the total: ALLOCATION (yours) or POOL "
                    + "(the unallocated pool, when you have no allocation); docs/accounting.md, \"Allocations\"",
                    allowableValues = {"ALLOCATION", "POOL"}) String limit,
            @Schema(description = "What remains of that limit") TrackView limitRemaining,
            @Schema(description = "A stream whose budget renews per period: the period its first charge pays for "
                    + "(the stream's open block's); the budget, the remaining amounts and the limits are that "
                    + "period's, and each later period it reads is charged the same cost again")
                    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Long period) {}

    @PostMapping(path = "/v1/datasets/{datasetId}/subscriptions", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createSubscription", summary = "Subscribe to a stream's windows", description = "Plans "
            + "the window mechanism and the loss of every release it will make from public parameters, charges it "
            + "once (reserve and commit in one transaction with its job row: never refunded), and starts with the "
            + "block open now. Each completed block then produces one release, free. The same Idempotency-Key with "
            + "the same body returns the same subscription (200, never a second charge). On a stream whose budget "
            + "renews per period (stream.periodBlocks) the charge is for the open block's period, and each later "
            + "period is charged again before the subscription reads its first block; a period that cannot pay "
            + "pauses it until the next (docs/accounting.md, \"Budgets that renew per period\"). 503: a TIME "
            + "period has ended and its last block is not closed yet; retry shortly.")
    @ApiResponse(responseCode = "201", description = "Created and charged; Location names the subscription")
    @ApiResponse(responseCode = "200", description = "An idempotent replay: the subscription created earlier")
    @ApiResponse(responseCode = "400", description = "A parameter is missing or out of range",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "404", description = "No such dataset",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "409", description = "Budget exhausted, not a STREAM, or the stream's horizon reached",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "422", description = "Idempotency key reused, or not chargeable under this accounting",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "503", description = "A TIME stream's period has ended and the scheduler has not "
            + "closed its last block yet (its budget renews per period); nothing was charged, retry shortly",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<SubscriptionView> create(@PathVariable UUID datasetId, @RequestBody SubscriptionRequest request,
            @Parameter(description = "Makes retries safe: at most 200 printable characters")
            @RequestHeader(value = "Idempotency-Key", required = false) @Nullable String idempotencyKey) {
        if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > 200)) {
            throw PrivmatException.invalidParameter("Idempotency-Key", "1–200 characters",
                    "Idempotency-Key must have 1–200 characters");
        }
        SubscriptionService.Created c = subscriptions.create(datasetId, request.query(), idempotencyKey,
                Caller.current());
        SubscriptionView view = view(c.subscription());
        return ResponseEntity.status(c.replayed() ? HttpStatus.OK : HttpStatus.CREATED)
                .location(URI.create("/v1/subscriptions/" + view.id())).body(view);
    }

    @PostMapping(path = "/v1/datasets/{datasetId}/subscriptions/quote", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "quoteSubscription", summary = "Quote a subscription", description = "Its exact, "
            + "one-time cost for the whole stream and the budget before and after it; charges nothing.")
    @ApiResponse(responseCode = "200", description = "The quote")
    @ApiResponse(responseCode = "400", description = "A parameter is missing or out of range",
            content = @Content(mediaType = "application/problem+json"))
    QuoteView quote(@PathVariable UUID datasetId, @RequestBody SubscriptionRequest request) {
        SubscriptionService.Quote q = subscriptions.quote(datasetId, request.query(), Caller.current());
        AccountingMode mode = AccountingMode.valueOf(q.accounting());
        return new QuoteView(q.plan().spec().kind().name(), q.plan().spec().mechanism(), q.accounting(),
                TrackView.charged(q.cost(), mode), q.admissible(), TrackView.available(q.remaining(), mode),
                q.remainingAfter() == null ? null : TrackView.available(q.remainingAfter(), mode),
                JsonNumbers.available(q.largestPureEpsilonAfter()), q.plan().noise(), q.warnings(), q.limit().name(),
                TrackView.available(q.limitRemaining(), mode), q.period());
    }

    @GetMapping(path = "/v1/datasets/{datasetId}/subscriptions", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "listSubscriptions", summary = "List a stream's subscriptions", description = "The "
            + "owner sees all, an analyst its own; oldest first.")
    SubscriptionPage list(@PathVariable UUID datasetId, @RequestParam(defaultValue = "0") int offset,
            @RequestParam(defaultValue = "50") int limit) {
        Paging.check("offset", offset, limit, 500);
        Caller caller = Caller.current();
        List<SubscriptionView> items = subscriptions.list(datasetId, caller, offset, limit).stream().map(this::view)
                .toList();
        return new SubscriptionPage(items, offset, limit, subscriptions.count(datasetId, caller));
    }

    @GetMapping(path = "/v1/subscriptions/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getSubscription", summary = "Get a subscription")
    @ApiResponse(responseCode = "200", description = "The subscription")
    @ApiResponse(responseCode = "404", description = "No such subscription visible to this caller",
            content = @Content(mediaType = "application/problem+json"))
    SubscriptionView get(@PathVariable UUID id) {
        return view(subscriptions.visible(id, Caller.current()));
    }

    @DeleteMapping(path = "/v1/subscriptions/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "cancelSubscription", summary = "Cancel a subscription", description = "No release "
            + "follows; the charge stays (it was final at creation). Earlier releases remain.")
    @ApiResponse(responseCode = "200", description = "Cancelled")
    @ApiResponse(responseCode = "409", description = "Not active",
            content = @Content(mediaType = "application/problem+json"))
    SubscriptionView cancel(@PathVariable UUID id) {
        return view(subscriptions.cancel(id, Caller.current()));
    }

    @GetMapping(path = "/v1/subscriptions/{id}/releases", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "listSubscriptionReleases", summary = "List a subscription's window releases",
            description = "Newest first, paged. PCA releases carry their top-k components. On a TIME stream only "
                    + "the releases whose publishedAt has passed are listed (and counted), whenever they were computed.")
    ReleasePage releases(@PathVariable UUID id, @RequestParam(defaultValue = "0") int offset,
            @RequestParam(defaultValue = "20") int limit) {
        Paging.check("offset", offset, limit, 200);
        Caller caller = Caller.current();
        Subscription s = subscriptions.visible(id, caller);
        Context context = context(s, caller);
        List<ReleaseView> items = new ArrayList<>();
        for (SubscriptionRelease r : subscriptions.releases(s, offset, limit)) {
            items.add(view(r, context, null));
        }
        return new ReleasePage(items, offset, limit, subscriptions.releaseCount(s));
    }

    @GetMapping(path = "/v1/subscriptions/{id}/releases/{block}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getSubscriptionRelease", summary = "Get one window release", description = "With its "
            + "kind's full answer: COVARIANCE, the PSD-projected d × d estimate (eigenvalues clamped to [0, rows·B²] "
            + "when the window's row count is public); PCA, the top-k components.")
    @ApiResponse(responseCode = "200", description = "The release")
    @ApiResponse(responseCode = "404", description = "No such subscription or block (or, TIME, not published yet)",
            content = @Content(mediaType = "application/problem+json"))
    ReleaseView release(@PathVariable UUID id, @PathVariable long block) {
        Caller caller = Caller.current();
        Subscription s = subscriptions.visible(id, caller);
        SubscriptionService.Detail detail = subscriptions.release(s, block);
        return view(detail.release(), context(s, caller), detail.covariance());
    }

    /** What rendering a subscription's releases needs: its stream's declaration and the caller. */
    private record Context(Dataset dataset, StreamSchema schema, boolean owner) {}

    private Context context(Subscription s, Caller caller) {
        Dataset dataset = datasets.get(s.datasetId());
        boolean owner = caller.is(Role.OWNER) && dataset.owner().equals(caller.subject());
        return new Context(dataset, (StreamSchema) dataset.schema(), owner);
    }

    /** What anyone sees of it now: on a TIME stream, only its releases already published. */
    private SubscriptionView view(Subscription s) {
        return SubscriptionView.of(subscriptions.published(s), jobs.get(s.jobId()), subscriptions.plan(s).noise());
    }

    private ReleaseView view(SubscriptionRelease r, Context c, @Nullable CovarianceRelease covariance) {
        Facts meta = r.meta();
        long first = meta.get(ReleaseMeta.FIRST_BLOCK);
        double tau2 = meta.get(ReleaseMeta.NOISE_VARIANCE);
        int d = c.schema().d();
        Instant endsAt = c.schema().blockRule() == BlockRule.TIME
                ? c.dataset().createdAt().plusSeconds((r.streamBlock() + 1) * c.schema().blockSeconds()) : null;
        Instant publishedAt = endsAt == null ? null : StreamService.publishedAt(c.dataset().createdAt(),
                c.schema().blockSeconds(), r.streamBlock(), settings.releaseDelay());
        double[] eigenvalues = null;
        double[][] components = null;
        if (r.answer() != null) {
            JsonNode answer = json.readTree(r.answer());
            eigenvalues = answer.get("eigenvalues").valueStream().mapToDouble(JsonNode::asDouble).toArray();
            components = new double[answer.get("components").size()][];
            for (int i = 0; i < components.length; i++) {
                components[i] = answer.get("components").get(i).valueStream().mapToDouble(JsonNode::asDouble).toArray();
            }
        }
        double[][] matrix = null;
        if (covariance != null && covariance.covariance() != null) {
            matrix = new double[d][];
            for (int i = 0; i < d; i++) {
                matrix[i] = java.util.Arrays.copyOfRange(covariance.covariance(), i * d, (i + 1) * d);
            }
        }
        Long rows = meta.find(ReleaseMeta.WINDOW_ROWS);
        double[] spectrum = eigenvalues != null ? eigenvalues : covariance != null ? covariance.eigenvalues() : null;
        List<NoiseWarning> warnings = spectrum == null ? null
                : WindowDefinition.warnings(spectrum, d, meta);
        return new ReleaseView(r.block(), r.streamBlock(), r.releaseId(), first, r.block() - first + 1,
                rows, tau2, Math.sqrt(tau2 * 2.0 * d),
                meta.get(ReleaseMeta.ROUNDING_BOUND), endsAt, publishedAt,
                c.owner() ? r.createdAt() : null,
                eigenvalues, components, matrix, warnings);
    }
}
