package io.privmat.job.web;

import io.privmat.api.JsonNumbers;
import io.privmat.api.Npy;
import io.privmat.api.Paging;
import io.privmat.api.TextChecks;
import io.privmat.job.JobFilter;
import io.privmat.job.JobResult;
import io.privmat.job.JobService;
import io.privmat.job.JobState;
import io.privmat.job.JobView;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.security.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/v1/jobs")
@Tag(name = "Jobs", description = "Follow, cancel and fetch the results of submitted queries.")
class JobController {

    static final String NPY = "application/x-npy";

    private final JobService jobs;
    private final java.time.Clock clock;

    JobController(JobService jobs, java.time.Clock clock) {
        this.jobs = jobs;
        this.clock = clock;
    }

    @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "listJobs", summary = "List jobs", description = "Newest first, paged by offset and "
            + "limit. An analyst sees its own jobs, an owner the jobs on its datasets (and its own), an admin all. "
            + "Filters narrow that set: by dataset, by state, by submitter (the subject that submitted).")
    @ApiResponse(responseCode = "200", description = "One page of jobs")
    JobPage list(@RequestParam(required = false) @Nullable UUID datasetId,
            @RequestParam(required = false) @Nullable JobState state,
            @RequestParam(required = false) @Nullable String submitter,
            @RequestParam(defaultValue = "0") int offset, @RequestParam(defaultValue = "50") int limit) {
        Paging.check("offset", offset, limit, 500);
        Caller caller = Caller.current();
        // A subject never has control characters (a NUL cannot even reach PostgreSQL): a 400, not a 500.
        JobFilter filter = new JobFilter(datasetId, state, submitter == null ? null
                : TextChecks.name("submitter", submitter, 200));
        java.time.Instant now = clock.instant();
        return new JobPage(jobs.list(caller, filter, offset, limit).stream().map(j -> JobView.of(j, caller, now))
                .toList(), offset, limit, jobs.count(caller, filter));
    }

    @GetMapping(path = "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getJob", summary = "Get a job: state, progress, cost, timestamps, error")
    @ApiResponse(responseCode = "200", description = "The job")
    @ApiResponse(responseCode = "404", description = "No such job")
    JobView get(@PathVariable UUID id) {
        return JobView.of(jobs.visible(id, Caller.current()), Caller.current(), clock.instant());
    }

    @DeleteMapping(path = "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "cancelJob", summary = "Cancel a job", description = "Refunded if no worker had "
            + "started reading the data; otherwise the charge is kept and the result discarded.")
    @ApiResponse(responseCode = "200", description = "The job, CANCELLED")
    @ApiResponse(responseCode = "409", description = "The job already finished")
    JobView cancel(@PathVariable UUID id) {
        return JobView.of(jobs.cancel(id, Caller.current()), Caller.current());
    }

    @GetMapping(path = "/{id}/result", produces = {MediaType.APPLICATION_JSON_VALUE, NPY})
    @Operation(operationId = "getJobResult", summary = "Get a DONE job's result", description = "JSON by default; "
            + "with Accept: application/x-npy the result's main array as a NumPy .npy file (float64, C order).")
    @ApiResponse(responseCode = "200", description = "The result", content = {
            @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(type = "object")),
            @Content(mediaType = NPY, schema = @Schema(type = "string", format = "binary"))})
    @ApiResponse(responseCode = "406", description = "The result has no array to serve as .npy")
    @ApiResponse(responseCode = "409", description = "The job is not DONE")
    ResponseEntity<byte[]> result(@PathVariable UUID id,
            @io.swagger.v3.oas.annotations.Parameter(hidden = true) // content negotiation, not a parameter
            @org.springframework.web.bind.annotation.RequestHeader(value = "Accept", required = false) String accept) {
        JobResult result = jobs.result(id, Caller.current());
        boolean npy = accept != null && accept.contains(NPY) && !accept.contains(MediaType.APPLICATION_JSON_VALUE);
        if (npy) {
            if (result.arrayLittleEndianFloat64() == null || result.arrayShape() == null) {
                throw new PrivmatException(ProblemType.NOT_ACCEPTABLE,
                        "This result has no array to serve as .npy; ask for application/json.", java.util.Map.of());
            }
            return ResponseEntity.ok().contentType(MediaType.parseMediaType(NPY))
                    .header("Content-Disposition", "attachment; filename=\"" + result.arrayName() + ".npy\"")
                    .body(npy(result.arrayShape(), result.arrayLittleEndianFloat64()));
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                .body(JsonNumbers.resultDocument(result.json()).getBytes(StandardCharsets.UTF_8));
    }

    static byte[] npy(int[] shape, byte[] data) {
        return Npy.of(shape, data);
    }
}
