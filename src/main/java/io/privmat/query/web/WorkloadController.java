package io.privmat.query.web;

import io.privmat.api.Paging;
import io.privmat.api.TextChecks;
import io.privmat.query.workload.WorkloadRecord;
import io.privmat.query.workload.WorkloadService;
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
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/v1/workloads", produces = {"application/json", "application/problem+json"})
@Tag(name = "Workloads", description = "Batches of linear queries uploaded once and named by id in LINEAR_QUERIES "
        + "(workload type CUSTOM). Workloads are public and immutable.")
class WorkloadController {

    private final WorkloadService workloads;

    WorkloadController(WorkloadService workloads) {
        this.workloads = workloads;
    }

    /** A stored workload. */
    @Schema(name = "Workload")
    record WorkloadView(UUID id, String name, @Schema(description = "Queries (rows of W)") int rows,
            @Schema(description = "Cells of the histogram it applies to (columns of W)") int cols,
            @Schema(description = "SHA-256 of the shape and values: what a plan records, and the content's address "
                    + "(identical uploads share one stored copy)") String sha256,
            String format,
            @Schema(description = "How the content is stored: DENSE (rows × cols float64) or SPARSE (one entry per "
                    + "non-zero), whichever is smaller", allowableValues = {"DENSE", "SPARSE"}) String encoding,
            @Schema(description = "Stored entries (rows × cols when DENSE)") long nonZeros,
            @Schema(description = "Stored size in bytes: what this workload counts towards its creator's quota "
                    + "(privmat.workloads.max-bytes-per-caller)") long storedBytes,
            String creator, Instant createdAt) {
        static WorkloadView of(WorkloadRecord w) {
            return new WorkloadView(w.id(), w.name(), w.rows(), w.cols(), w.sha256(), w.format(), w.encoding(),
                    w.nonZeros(), w.bytes(), w.creator(), w.createdAt());
        }
    }

    /** A page of workloads. */
    @Schema(name = "WorkloadPage")
    record WorkloadPage(List<WorkloadView> items, int offset, int limit, long total) {}

    @PostMapping(consumes = {"text/csv", "text/tab-separated-values", "application/x-matrix-market",
            "text/x-matrix-market", "application/x-npy"})
    @Operation(operationId = "createWorkload", summary = "Upload a workload matrix W", description = "One query a "
            + "row, one histogram cell a column (row-major cell order, first attribute slowest). The formats a "
            + "MATRIX upload accepts: CSV/TSV dense rows, Matrix Market, .npy. At most 4194304 values; finite; a "
            + "body of at most privmat.security.max-workload-body (32 MiB + 64 KiB: 4194304 float64 values as "
            + ".npy with its header). Stored once by content (SPARSE when that is smaller), shared by every "
            + "caller who uploads the same matrix; uploading a matrix this caller already has answers 200 with "
            + "that workload.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {
                    @Content(mediaType = "text/csv", schema = @Schema(type = "string", example = "1,1,0,0\n0,0,1,1\n")),
                    @Content(mediaType = "text/tab-separated-values", schema = @Schema(type = "string")),
                    @Content(mediaType = "application/x-matrix-market", schema = @Schema(type = "string",
                            example = "%%MatrixMarket matrix coordinate real general\n2 4 4\n1 1 1\n1 2 1\n2 3 1\n"
                                    + "2 4 1\n")),
                    @Content(mediaType = "application/x-npy", schema = @Schema(type = "string", format = "binary"))}))
    @ApiResponse(responseCode = "201", description = "Stored; Location names it")
    @ApiResponse(responseCode = "200", description = "This caller already has a workload with this content: that one")
    @ApiResponse(responseCode = "409", description = "Over this caller's storage quota (privmat.workloads.*)",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "413", description = "Larger than the upload limit",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "415", description = "Media type not accepted",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "422", description = "Malformed, non-finite or too many values",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<WorkloadView> create(
            @Parameter(description = "A display name, 1–200 characters") @RequestParam(defaultValue = "workload") String name,
            @Parameter(description = "CSV/TSV: true if the first line is a header; absent: detect")
            @RequestParam(required = false) @Nullable Boolean header, HttpServletRequest request) throws IOException {
        String checked = TextChecks.name("name", name, 200);
        WorkloadService.Created c = workloads.create(Caller.current(), checked, request.getContentType(),
                request.getContentLengthLong(), header, request.getInputStream());
        WorkloadRecord w = c.workload();
        return ResponseEntity.status(c.created() ? 201 : 200).location(URI.create("/v1/workloads/" + w.id()))
                .body(WorkloadView.of(w));
    }

    @GetMapping
    @Operation(operationId = "listWorkloads", summary = "The workloads this caller uploaded, oldest first")
    WorkloadPage list(@RequestParam(defaultValue = "0") int offset, @RequestParam(defaultValue = "50") int limit) {
        Paging.check("offset", offset, limit, 500);
        Caller caller = Caller.current();
        return new WorkloadPage(workloads.list(caller, offset, limit).stream().map(WorkloadView::of).toList(), offset,
                limit, workloads.count(caller));
    }

    @GetMapping("/{id}")
    @Operation(operationId = "getWorkload", summary = "Get a workload's metadata (any caller: workloads are public)")
    @ApiResponse(responseCode = "200", description = "The workload")
    @ApiResponse(responseCode = "404", description = "No such workload",
            content = @Content(mediaType = "application/problem+json"))
    WorkloadView get(@PathVariable UUID id) {
        return WorkloadView.of(workloads.get(id));
    }

    @DeleteMapping("/{id}")
    @Operation(operationId = "deleteWorkload", summary = "Delete a workload this caller uploaded", description =
            "Queued queries that name it fail before reading any data, and are refunded.")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @ApiResponse(responseCode = "404", description = "No such workload of this caller",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<Void> delete(@PathVariable UUID id) {
        workloads.delete(id, Caller.current());
        return ResponseEntity.noContent().build();
    }
}
