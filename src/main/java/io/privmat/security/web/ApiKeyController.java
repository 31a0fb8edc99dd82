package io.privmat.security.web;

import io.privmat.api.Paging;
import io.privmat.api.TextChecks;
import io.privmat.problem.PrivmatException;
import io.privmat.security.ApiKey;
import io.privmat.security.ApiKeyService;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/v1/api-keys", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "API keys", description = "ADMIN only: create, list and revoke API keys.")
class ApiKeyController {

    private final ApiKeyService keys;

    ApiKeyController(ApiKeyService keys) {
        this.keys = keys;
    }

    /** Body of POST /v1/api-keys. */
    @Schema(name = "CreateApiKeyRequest", example = "{\"name\": \"bob\", \"role\": \"ANALYST\"}")
    record CreateRequest(
            @Schema(description = "A label for the key, 1–200 characters", requiredMode = Schema.RequiredMode.REQUIRED)
            @Nullable String name,
            @Schema(allowableValues = {"ADMIN", "OWNER", "ANALYST"}, requiredMode = Schema.RequiredMode.REQUIRED)
            @Nullable String role,
            @Schema(description = "Who the key acts for (owner of datasets, grantee of analysts); defaults to name. "
                    + "Give a new key the same subject to rotate without losing datasets or grants.")
            @Nullable String subject) {}

    /** A key as listed (never the secret). */
    @Schema(name = "ApiKey")
    record KeyView(UUID id, String prefix, String name, String subject, String role, String createdBy,
            Instant createdAt, @Nullable Instant revokedAt) {
        static KeyView of(ApiKey k) {
            return new KeyView(k.id(), k.prefix(), k.name(), k.subject(), k.role().name(), k.createdBy(), k.createdAt(),
                    k.revokedAt());
        }
    }

    /** A created key: the secret appears here once and is never stored or shown again. */
    @Schema(name = "CreatedApiKey")
    record CreatedView(UUID id, @Schema(description = "The API key; store it now") String key, String prefix,
            String name, String subject, String role, Instant createdAt) {}

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createApiKey", summary = "Create an API key", description = "The key is in the response only; privmat keeps a hash.")
    @ApiResponse(responseCode = "201", description = "Created")
    ResponseEntity<CreatedView> create(@RequestBody CreateRequest request) {
        String name = text("name", request.name());
        String subject = request.subject() == null ? name : text("subject", request.subject());
        String allowed = String.join(" | ", Arrays.stream(Role.values()).map(Enum::name).toList());
        Role role;
        try {
            role = Role.valueOf(request.role() == null ? "" : request.role().strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw PrivmatException.invalidParameter("role", allowed, "role must be one of " + allowed);
        }
        ApiKeyService.Created created = keys.create(name, subject, role, Caller.current().subject());
        ApiKey k = created.key();
        return ResponseEntity.created(URI.create("/v1/api-keys/" + k.id())).body(new CreatedView(k.id(),
                created.secret(), k.prefix(), k.name(), k.subject(), k.role().name(), k.createdAt()));
    }

    @GetMapping
    @Operation(operationId = "listApiKeys", summary = "List API keys (prefixes only)")
    List<KeyView> list(@RequestParam(defaultValue = "0") int offset, @RequestParam(defaultValue = "100") int limit) {
        Paging.check("offset", offset, limit, 1000);
        return keys.list(offset, limit).stream().map(KeyView::of).toList();
    }

    @DeleteMapping("/{id}")
    @Operation(operationId = "revokeApiKey", summary = "Revoke an API key", description = "It stops working at once; the record stays.")
    KeyView revoke(@PathVariable UUID id) {
        return KeyView.of(keys.revoke(id));
    }

    private static String text(String parameter, @Nullable String value) {
        return TextChecks.name(parameter, value, 200);
    }
}
