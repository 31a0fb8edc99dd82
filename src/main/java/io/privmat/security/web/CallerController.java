package io.privmat.security.web;

import io.privmat.security.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Who the presented API key is: what a client (the web dashboard, the Python client) shows and adapts to. */
@RestController
@Tag(name = "API keys", description = "ADMIN only: create, list and revoke API keys.")
class CallerController {

    /** The caller of a request. */
    @Schema(name = "Caller")
    record CallerView(UUID keyId, String subject,
            @Schema(allowableValues = {"ADMIN", "OWNER", "ANALYST"}) String role) {}

    @GetMapping(path = "/v1/me", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getCaller", summary = "The key's subject and role", description = "Any valid key.")
    @ApiResponse(responseCode = "200", description = "The caller")
    CallerView me() {
        Caller c = Caller.current();
        return new CallerView(c.keyId(), c.subject(), c.role().name());
    }
}
