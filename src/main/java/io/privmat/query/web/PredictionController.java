package io.privmat.query.web;

import io.privmat.api.Npy;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.problem.PrivmatException;
import io.privmat.query.prediction.PredictionService;
import io.privmat.security.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * Completed rows of a COMPLETION job, for the data owner only (docs/mechanisms/completion.md,
 * "Delivery"): analysts get the global model in the job's result; each user's row is the model
 * post-processed with that user's own ratings, which only the owner holds.
 */
@RestController
@RequestMapping("/v1/jobs")
@Tag(name = "Jobs", description = "Follow, cancel and fetch the results of submitted queries.")
class PredictionController {

    private final PredictionService predictions;

    PredictionController(PredictionService predictions) {
        this.predictions = predictions;
    }

    /** One user's completed row. */
    @Schema(name = "UserPredictions")
    record UserPredictions(UUID jobId, String user,
            @Schema(description = "The user's position in the export (dense id order, from 0): another way to ask "
                    + "for it (GET /v1/jobs/{id}/user-predictions?index=)") int index, int items,
            @Schema(description = "n predictions on the rating scale, clamped to [min, max], in item order")
            double[] predictions,
            @Schema(description = "The model's noise warnings, as its job's result states them "
                    + "(docs/accuracy/warnings.md)") java.util.List<NoiseWarning> warnings) {}

    @GetMapping(path = "/{id}/users/{user}/predictions", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getUserPredictions", summary = "One user's completed row (the data owner only)",
            description = "The COMPLETION job's global model applied to this user's own ratings. Only the owner of "
                    + "the dataset may ask: for anyone else the job does not exist (404). A label that cannot be a "
                    + "path segment (with '/', '..', '%', control characters) is asked for with "
                    + "GET /v1/jobs/{id}/user-predictions?label= or ?index= instead.")
    @ApiResponse(responseCode = "200", description = "The user's predictions")
    @ApiResponse(responseCode = "404", description = "No such job for this caller, or no such user (the label is "
            + "not repeated)")
    @ApiResponse(responseCode = "422", description = "The job is not a DONE COMPLETION job")
    UserPredictions user(@PathVariable UUID id, @PathVariable String user) {
        PredictionService.Owned owned = predictions.model(id, Caller.current());
        return of(id, owned, predictions.user(owned, user));
    }

    @GetMapping(path = "/{id}/user-predictions", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "findUserPredictions", summary = "One user's completed row, by label or position "
            + "(the data owner only)", description = "As GET /v1/jobs/{id}/users/{user}/predictions, for any label: "
            + "`label` is percent-encoded in the query (so '/', '..', '%' and control characters are fine), or "
            + "`index` is the user's position in the export (dense id order, from 0). Exactly one of the two.")
    @ApiResponse(responseCode = "200", description = "The user's predictions")
    @ApiResponse(responseCode = "400", description = "Neither or both of label and index, either of them repeated, "
            + "or a label over 10 000 characters", content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "404", description = "No such job for this caller, or no such user (the label is "
            + "not repeated)")
    @ApiResponse(responseCode = "422", description = "The job is not a DONE COMPLETION job")
    UserPredictions find(@PathVariable UUID id,
            @io.swagger.v3.oas.annotations.Parameter(description = "The user's label, exactly as uploaded")
            @RequestParam(required = false) @Nullable String label,
            @io.swagger.v3.oas.annotations.Parameter(description = "The user's position in the export, from 0")
            @RequestParam(required = false) @Nullable Integer index, jakarta.servlet.http.HttpServletRequest request) {
        for (String name : new String[] {"label", "index"}) {
            String[] given = request.getParameterValues(name);
            if (given != null && given.length > 1) {
                // Spring would join repeated values ("a,b"), a label nobody asked for.
                throw PrivmatException.invalidParameter(name, "given once", name + " is given " + given.length
                        + " times; give exactly one label or one index");
            }
        }
        if ((label == null) == (index == null)) {
            throw PrivmatException.invalidParameter(label == null ? "label" : "index", "exactly one of label and index",
                    "give the user's label or its position in the export, not both and not neither");
        }
        if (label != null && label.length() > MAX_LABEL) {
            throw PrivmatException.invalidParameter("label", "at most " + MAX_LABEL + " characters",
                    "the label is longer than any stored label can be");
        }
        PredictionService.Owned owned = predictions.model(id, Caller.current());
        return of(id, owned, label != null ? predictions.user(owned, label) : predictions.user(owned, index));
    }

    /** Longest label looked up (uploaded fields are bounded by the line length; this bounds the lookup). */
    static final int MAX_LABEL = 10_000;

    private UserPredictions of(UUID id, PredictionService.Owned owned, PredictionService.User user) {
        return new UserPredictions(id, user.label(), user.index(), owned.items(), predictions.predictions(owned, user),
                predictions.warnings(owned));
    }

    @GetMapping(path = "/{id}/predictions", produces = {"text/csv", Npy.MEDIA_TYPE})
    @Operation(operationId = "exportPredictions", summary = "Every user's completed row (the data owner only)",
            description = "Streamed in user order: CSV (`user` then one column per item, with a header naming the "
                    + "items) by default, or with Accept: application/x-npy an m × n float64 array in the same user "
                    + "order (GET /v1/datasets/{id} lists no user labels; the CSV carries them). Only the owner of the "
                    + "dataset may ask (404 for anyone else).")
    @ApiResponse(responseCode = "200", description = "The predictions", content = {
            @Content(mediaType = "text/csv", schema = @Schema(type = "string")),
            @Content(mediaType = Npy.MEDIA_TYPE, schema = @Schema(type = "string", format = "binary"))})
    @ApiResponse(responseCode = "404", description = "No such job for this caller")
    @ApiResponse(responseCode = "422", description = "The job is not a DONE COMPLETION job")
    ResponseEntity<StreamingResponseBody> export(@PathVariable UUID id,
            @io.swagger.v3.oas.annotations.Parameter(hidden = true) // content negotiation, not a parameter
            @RequestHeader(value = "Accept", required = false) String accept) {
        PredictionService.Owned owned = predictions.model(id, Caller.current());
        boolean npy = accept != null && accept.contains(Npy.MEDIA_TYPE) && !accept.contains("text/csv");
        int n = owned.items();
        java.util.List<String> users = predictions.users(owned); // read once: the CSV's labels, the .npy's m
        if (npy) {
            int m = users.size();
            StreamingResponseBody body = out -> {
                OutputStream o = new BufferedOutputStream(out, 1 << 16);
                o.write(Npy.header(new int[] {m, n}));
                ByteBuffer row = ByteBuffer.allocate(8 * n).order(ByteOrder.LITTLE_ENDIAN);
                predictions.forEachPrediction(owned, users, (user, values) -> {
                    row.clear();
                    row.asDoubleBuffer().put(values);
                    write(o, row.array());
                });
                o.flush();
            };
            return ResponseEntity.ok().contentType(MediaType.parseMediaType(Npy.MEDIA_TYPE))
                    .header("Content-Disposition", "attachment; filename=\"predictions.npy\"").body(body);
        }
        StreamingResponseBody body = out -> {
            OutputStream o = new BufferedOutputStream(out, 1 << 16);
            StringBuilder line = new StringBuilder("user");
            for (String item : predictions.itemLabels(owned)) {
                line.append(',').append(csv(item));
            }
            o.write(line.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
            predictions.forEachPrediction(owned, users, (user, values) -> {
                StringBuilder b = new StringBuilder(csv(user));
                for (double v : values) {
                    b.append(',').append(v);
                }
                write(o, b.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
            });
            o.flush();
        };
        return ResponseEntity.ok().contentType(MediaType.parseMediaType("text/csv; charset=utf-8"))
                .header("Content-Disposition", "attachment; filename=\"predictions.csv\"").body(body);
    }

    private static void write(OutputStream o, byte[] bytes) {
        try {
            o.write(bytes);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** RFC 4180: quoted when it holds a comma, a quote or a line break. */
    static String csv(String field) {
        if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0 && field.indexOf('\r') < 0) {
            return field;
        }
        return '"' + field.replace("\"", "\"\"") + '"';
    }
}
