package io.privmat.dataset.web;

import io.privmat.api.Paging;
import io.privmat.api.TextChecks;
import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.DatasetSchema;
import io.privmat.dataset.DatasetService;
import io.privmat.dataset.Grant;
import io.privmat.dataset.Neighbouring;
import io.privmat.dataset.NewDataset;
import io.privmat.dataset.RatingsSchema;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Budget;
import io.privmat.privacy.PrivacyArgumentException;
import io.privmat.problem.PrivmatException;
import io.privmat.security.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/v1/datasets", produces = {"application/json", "application/problem+json"})
@Tag(name = "Datasets", description = "Create datasets with a privacy budget and upload their data once.")
class DatasetController {

    private final DatasetService datasets;

    DatasetController(DatasetService datasets) {
        this.datasets = datasets;
    }

    @PostMapping(consumes = "application/json")
    @Operation(operationId = "createDataset", summary = "Create a dataset", description = "Fixes its kind, privacy unit, neighbouring relation "
            + "and budget. Data is uploaded separately with PUT /v1/datasets/{id}/data.")
    @ApiResponse(responseCode = "201", description = "Created; Location names the dataset")
    @ApiResponse(responseCode = "400", description = "A parameter is missing or out of range",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<DatasetView> create(@RequestBody CreateDatasetRequest request) {
        Caller caller = Caller.current();
        Dataset dataset = datasets.create(validate(request, caller.subject()));
        return ResponseEntity.created(URI.create("/v1/datasets/" + dataset.id())).body(DatasetView.of(dataset, caller));
    }

    @GetMapping
    @Operation(operationId = "listDatasets", summary = "List datasets", description = "Oldest first, paged by offset and limit.")
    DatasetPage list(@RequestParam(defaultValue = "0") int offset, @RequestParam(defaultValue = "50") int limit) {
        Paging.check("offset", offset, limit, 500);
        Caller caller = Caller.current();
        return new DatasetPage(datasets.list(caller, offset, limit).stream().map(d -> DatasetView.of(d, caller)).toList(),
                offset, limit, datasets.count(caller));
    }

    @GetMapping("/{id}")
    @Operation(operationId = "getDataset", summary = "Get a dataset")
    @ApiResponse(responseCode = "200", description = "The dataset as this caller may see it")
    @ApiResponse(responseCode = "404", description = "No such dataset",
            content = @Content(mediaType = "application/problem+json"))
    DatasetView get(@PathVariable UUID id) {
        Caller caller = Caller.current();
        return DatasetView.of(datasets.visible(id, caller), caller);
    }

    @DeleteMapping("/{id}")
    @Operation(operationId = "deleteDataset", summary = "Delete a dataset and all its data")
    @ApiResponse(responseCode = "204", description = "Deleted")
    ResponseEntity<Void> delete(@PathVariable UUID id) {
        datasets.delete(id, Caller.current());
        return ResponseEntity.noContent().build();
    }

    /** Body of POST /v1/datasets/{id}/grants. */
    @Schema(name = "GrantRequest", example = "{\"analyst\": \"bob\"}")
    record GrantRequest(@Schema(description = "The analyst's subject", requiredMode = Schema.RequiredMode.REQUIRED)
            @Nullable String analyst) {}

    @PostMapping(path = "/{id}/grants", consumes = "application/json")
    @Operation(operationId = "grantAccess", summary = "Grant an analyst access", description = "The analyst (an API key subject) may then see "
            + "the dataset, quote and submit queries on it. Idempotent.")
    @ApiResponse(responseCode = "201", description = "Granted")
    ResponseEntity<Grant> grant(@PathVariable UUID id, @RequestBody GrantRequest request) {
        String analyst = TextChecks.name("analyst", request.analyst(), 200);
        Grant grant = datasets.grant(id, analyst, Caller.current());
        // The subject as one encoded path segment ('<', spaces and '/' are allowed in subjects).
        return ResponseEntity.created(URI.create("/v1/datasets/" + id + "/grants/"
                + org.springframework.web.util.UriUtils.encodePathSegment(analyst, java.nio.charset.StandardCharsets.UTF_8)))
                .body(grant);
    }

    @GetMapping("/{id}/grants")
    @Operation(operationId = "listGrants", summary = "List the analysts granted access")
    List<Grant> grants(@PathVariable UUID id) {
        return datasets.grants(id, Caller.current());
    }

    @DeleteMapping("/{id}/grants/{analyst}")
    @Operation(operationId = "revokeGrant", summary = "Revoke an analyst's access", description = "Jobs already submitted keep running; the "
            + "analyst can no longer see the dataset or submit queries.")
    @ApiResponse(responseCode = "204", description = "Revoked")
    ResponseEntity<Void> revoke(@PathVariable UUID id, @PathVariable String analyst) {
        datasets.revokeGrant(id, analyst, Caller.current());
        return ResponseEntity.noContent().build();
    }

    @PutMapping(path = "/{id}/data", consumes = {"text/csv", "text/tab-separated-values",
            "application/x-matrix-market", "text/x-matrix-market", "application/x-npy"})
    @Operation(operationId = "uploadData", summary = "Upload the data (once)", description = "Streams the body into chunked storage. MATRIX: "
            + "text/csv or text/tab-separated-values (dense rows, optional header), application/x-matrix-market "
            + "(coordinate or array; real, integer or pattern; general, symmetric or skew-symmetric), "
            + "application/x-npy (float64, float32 or integer, C order). Rows longer than rowNormBound are scaled "
            + "down to it and counted in clippedRows. GRAPH: an edge list u,v[,w] as CSV or TSV (labels are "
            + "strings; w defaults to 1 and must lie in [0, 1]; no self-loops or repeated edges). HISTOGRAM: records "
            + "as CSV or TSV, one record a line with one field per declared attribute (a code 0 … size − 1 or a "
            + "declared label; an optional header names the attributes in any order), or the counts vector as "
            + "application/x-npy (the cells in row-major order, first attribute slowest; non-negative integers). "
            + "RATINGS: user,item,rating triples as CSV or TSV (optional header; user and item are strings, the "
            + "item a declared label, the rating a finite number in [min, max]); an unknown item, a rating out of "
            + "range or a repeated (user, item) pair is refused with its line (a repeat also names the first line); "
            + "of each user's ratings the first perUserCap in upload order are kept and the rest dropped, never "
            + "looking at values, and counted in droppedRatings (owner only); users get ids in order of first "
            + "appearance. A failed upload "
            + "stores nothing and names the line and column (or byte offset) where it failed. The body must "
            + "arrive at a minimum rate and within a time limit (docs/reliability.md).",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {
                    @Content(mediaType = "text/csv", schema = @Schema(type = "string",
                            example = "a,b,c\n0.1,0.2,-0.2\n3,4,0\n0,0.5,0.5\n")),
                    @Content(mediaType = "text/tab-separated-values", schema = @Schema(type = "string",
                            example = "0.1\t0.2\t-0.2\n3\t4\t0\n0\t0.5\t0.5\n")),
                    @Content(mediaType = "application/x-matrix-market", schema = @Schema(type = "string",
                            example = "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 0.1\n1 2 0.2\n"
                                    + "2 1 3\n3 3 0.5\n")),
                    @Content(mediaType = "application/x-npy", schema = @Schema(type = "string", format = "binary"))}))
    @ApiResponse(responseCode = "200", description = "Stored; the dataset with its shape")
    @ApiResponse(responseCode = "409", description = "Data already uploaded, or an upload is in progress",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "408", description = "The body arrived too slowly (privmat.ingest.min-upload-rate, "
            + "max-upload-duration); nothing was stored", content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "413", description = "Larger than privmat.ingest.max-upload-size",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "415", description = "Media type not accepted for this dataset kind",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "422", description = "Malformed content; the problem names the position",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "503", description = "This replica already receives its maximum of uploads "
            + "(privmat.ingest.max-concurrent-uploads), is shutting down, or cannot reach the database; nothing "
            + "was stored (Retry-After)", content = @Content(mediaType = "application/problem+json"))
    DatasetView upload(@PathVariable UUID id,
            @Parameter(description = "true: the first line is a header; false: it is data; absent: detect (CSV/TSV "
                    + "matrices: a first line without numbers; edge lists: a non-numeric third field)")
            @RequestParam(required = false) @Nullable Boolean header,
            HttpServletRequest request) throws IOException {
        Caller caller = Caller.current();
        return DatasetView.of(datasets.upload(id, caller, request.getContentType(), request.getContentLengthLong(),
                header, request.getInputStream()), caller);
    }

    private static NewDataset validate(CreateDatasetRequest r, String owner) {
        String name = TextChecks.name("name", r.name(), 200);
        DatasetKind kind = parseEnum("kind", r.kind(), DatasetKind.class, null);
        Neighbouring neighbouring = parseEnum("neighbouring", r.neighbouring(), Neighbouring.class,
                Neighbouring.REPLACE_ONE);
        Double bound = r.rowNormBound();
        boolean edgeStream = kind == DatasetKind.STREAM && r.vertices() != null;
        boolean externalRatings = kind == DatasetKind.EXTERNAL && r.ratings() != null;
        if (kind == DatasetKind.MATRIX || kind == DatasetKind.EXTERNAL && !externalRatings
                || kind == DatasetKind.STREAM && !edgeStream) {
            // The floor: below it the sensitivities (B²) underflow (PublicFacts.MIN_ROW_NORM_BOUND).
            if (bound == null || !Double.isFinite(bound) || !(bound >= PublicFacts.MIN_ROW_NORM_BOUND) || bound > 1e12) {
                throw PrivmatException.invalidParameter("rowNormBound", "[1e-100, 1e12]",
                        "rowNormBound is required for a " + kind + " of rows and must be in [1e-100, 1e12] (rescale "
                                + "the rows for a smaller bound) but was " + bound);
            }
        } else if (bound != null) {
            throw PrivmatException.invalidParameter("rowNormBound", "absent", kind == DatasetKind.GRAPH || edgeStream
                    ? "rowNormBound does not apply to a " + kind + " of edges (edge weights are bounded by 1)"
                    : kind == DatasetKind.RATINGS || externalRatings ? "rowNormBound does not apply to RATINGS (ratings are bounded by "
                            + "ratings.min, ratings.max and ratings.perUserCap)"
                    : "rowNormBound does not apply to a " + kind + " (one record adds 1 to one cell)");
        }
        List<String> vertices = VertexUniverse.validate(kind, r.vertices());
        RatingsSchema ratings = RatingsDeclaration.validate(kind, r.ratings(), neighbouring);
        DatasetSchema external = ExternalDeclaration.validate(kind, r.external(), neighbouring, ratings);
        DatasetSchema schema = kind == DatasetKind.STREAM
                ? StreamDeclaration.validate(r.stream(), vertices == null ? null : vertices.size(), neighbouring)
                : external != null ? external : kind == DatasetKind.RATINGS ? ratings
                : HistogramAttributes.validate(kind, r.attributes());
        if (kind != DatasetKind.STREAM && r.stream() != null) {
            throw PrivmatException.invalidParameter("stream", "absent", "stream applies to a STREAM only");
        }
        if ((kind == DatasetKind.EXTERNAL || kind == DatasetKind.STREAM || kind == DatasetKind.RATINGS)
                && r.attributes() != null) {
            throw PrivmatException.invalidParameter("attributes", "absent", "attributes apply to a HISTOGRAM only");
        }
        CreateDatasetRequest.BudgetRequest b = r.budget();
        if (b == null) {
            throw PrivmatException.invalidParameter("budget", null, "budget is required");
        }
        AccountingMode mode = parseEnum("budget.accounting", b.accounting(), AccountingMode.class, AccountingMode.ZCDP);
        try {
            Budget budget = new Budget(b.epsilon(), b.delta(), mode,
                    b.approxDeltaFraction() == null ? Budget.DEFAULT_APPROX_DELTA_FRACTION : b.approxDeltaFraction());
            budget.filter(); // fails early if the budget cannot be turned into a filter
            if (kind == DatasetKind.GRAPH && vertices == null) {
                // A vertex set derived from the edges would tell which vertices have edges (a
                // degree-1 vertex reveals its only edge, the privacy unit): it must be declared.
                throw PrivmatException.invalidParameter("vertices", "{\"count\": n} or {\"labels\": […]}",
                        "a GRAPH needs its public vertex universe, declared at creation: vertices.count (labels "
                                + "\"0\" … \"n − 1\") or vertices.labels");
            }
            return new NewDataset(owner, name, kind, neighbouring, bound, budget, vertices, schema);
        } catch (PrivacyArgumentException e) {
            throw PrivmatException.invalidParameter("budget." + e.parameter(), e.allowedRange(), "budget." + e.getMessage());
        }
    }

    private static <E extends Enum<E>> E parseEnum(String parameter, @Nullable String value, Class<E> type,
            @Nullable E fallback) {
        String allowed = String.join(" | ", Arrays.stream(type.getEnumConstants()).map(Enum::name).toList());
        if (value == null) {
            if (fallback != null) {
                return fallback;
            }
            throw PrivmatException.invalidParameter(parameter, allowed, parameter + " is required: one of " + allowed);
        }
        try {
            return Enum.valueOf(type, value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw PrivmatException.invalidParameter(parameter, allowed, parameter + " must be one of " + allowed);
        }
    }
}
