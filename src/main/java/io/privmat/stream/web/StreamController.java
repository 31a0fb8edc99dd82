package io.privmat.stream.web;

import io.privmat.problem.PrivmatException;
import io.privmat.security.Caller;
import io.privmat.stream.StreamService;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/v1/datasets/{id}/rows", produces = {"application/json", "application/problem+json"})
@Tag(name = "Streams", description = "Append rows to STREAM datasets; standing subscriptions release one window "
        + "estimate per completed block.")
class StreamController {

    private final StreamService streams;

    StreamController(StreamService streams) {
        this.streams = streams;
    }

    /** What an append did (the owner's view). */
    @Schema(name = "AppendResult")
    record AppendView(
            @Schema(description = "Rows (edge events) appended") long rows,
            @Schema(description = "Rows scaled down to rowNormBound (owner only: data-dependent)") long clippedRows,
            @Schema(description = "The batch's event time") Instant eventTime,
            @Schema(description = "The stream's completed blocks after the append") long completedBlocks,
            @Schema(description = "Rows appended and not yet in a completed block, after the append (TIME: the open "
                    + "block's and a later pending block's)") long openRows,
            @Schema(description = "ROW_COUNT: the releases of the blocks the batch completed, per subscription. TIME: "
                    + "always empty (only the block scheduler closes time blocks)") List<ReleasedView> releases) {}

    /** One release an append made. */
    @Schema(name = "ReleasedBlock")
    record ReleasedView(UUID subscriptionId,
            @Schema(description = "The subscription's block index of the release") long block,
            @Schema(description = "The stream's block index") long streamBlock, UUID releaseId) {}

    @PostMapping(consumes = {"text/csv", "text/tab-separated-values", "application/x-matrix-market",
            "application/x-npy"})
    @Operation(operationId = "appendRows", summary = "Append a batch to a stream", description = "All or nothing. "
            + "Matrix streams: rows as text/csv or text/tab-separated-values (optional header), "
            + "application/x-matrix-market or application/x-npy, each of the declared width; rows longer than "
            + "rowNormBound are scaled down to it. Edge streams: events u,v[,w] as CSV or TSV with labels of the "
            + "declared vertices, w in [0, 1] (default 1); a pair may repeat (each event is a privacy unit). Rows are "
            + "never stored: they are added to their block's Gram. ROW_COUNT: every block the batch completes is "
            + "released at once through every active subscription, in the same transaction. TIME: the rows join the "
            + "block of their event time and nothing is released; only the block scheduler closes time blocks, on "
            + "the clock (if the block before has ended unreleased and a later one holds rows already, 503 with "
            + "Retry-After). Event time: optional, default "
            + "the service's clock when the batch is applied (read under the stream's lock, so concurrent appends "
            + "never refuse one another); never in the future, never before the stream's last event time or in a closed time block (409).",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {
                    @Content(mediaType = "text/csv", schema = @Schema(type = "string", example = "0.1,0.2,-0.2\n"
                            + "0.3,0,0.4\n")),
                    @Content(mediaType = "text/tab-separated-values", schema = @Schema(type = "string",
                            example = "0.1\t0.2\t-0.2\n")),
                    @Content(mediaType = "application/x-matrix-market", schema = @Schema(type = "string",
                            example = "%%MatrixMarket matrix array real general\n1 3\n0.1\n0.2\n-0.2\n")),
                    @Content(mediaType = "application/x-npy", schema = @Schema(type = "string", format = "binary"))}))
    @ApiResponse(responseCode = "200", description = "Appended; the releases it made")
    @ApiResponse(responseCode = "400", description = "eventTime malformed or in the future",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "404", description = "No such dataset (or not the owner)",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "409", description = "Not a STREAM, horizon reached, or event time out of order",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "413", description = "Larger than the upload limit",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "415", description = "Media type not accepted for this stream",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "422", description = "Malformed batch (wrong width, NaN, bad edge); nothing appended",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "503", description = "Uploads busy, the database unavailable, or (TIME) the block "
            + "scheduler more than a block behind; nothing appended (Retry-After)",
            content = @Content(mediaType = "application/problem+json"))
    AppendView append(@PathVariable UUID id,
            @Parameter(description = "true: the first line is a header; false: it is data; absent: detect")
            @RequestParam(required = false) @Nullable Boolean header,
            @Parameter(description = "The batch's event time, ISO-8601 (e.g. 2026-11-24T10:15:30Z); default: "
                    + "the service's clock when the batch is applied under the stream's lock")
            @RequestParam(required = false) @Nullable String eventTime,
            HttpServletRequest request) throws IOException {
        Instant event = null;
        if (eventTime != null) {
            try {
                event = Instant.parse(eventTime.strip());
            } catch (DateTimeParseException e) {
                throw PrivmatException.invalidParameter("eventTime", "an ISO-8601 instant",
                        "eventTime must be an ISO-8601 instant such as 2026-11-24T10:15:30Z");
            }
        }
        StreamService.Appended a = streams.append(id, Caller.current(), request.getContentType(),
                request.getContentLengthLong(), header, event, request.getInputStream());
        return new AppendView(a.rows(), a.clippedRows(), a.eventTime(), a.completedBlocks(), a.openRows(),
                a.releases().stream().map(r -> new ReleasedView(r.subscriptionId(), r.block(), r.streamBlock(),
                        r.releaseId())).toList());
    }
}
