package io.privmat.security.web;

import io.privmat.api.Paging;
import io.privmat.security.AuditEvent;
import io.privmat.security.jdbc.AuditRepository;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/v1/audit", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Audit", description = "ADMIN only: every state-changing call, refused ones included.")
class AuditController {

    private final AuditRepository audit;

    AuditController(AuditRepository audit) {
        this.audit = audit;
    }

    /** A page of audit events. */
    @Schema(name = "AuditPage")
    record AuditPage(List<AuditEvent> events, @Nullable Long next) {}

    @GetMapping
    @Operation(operationId = "listAuditEvents", summary = "Audit events, oldest first", description = "Keyset-paged: pass the last id as 'after'.")
    AuditPage page(@RequestParam(defaultValue = "0") long after, @RequestParam(defaultValue = "100") int limit) {
        Paging.check("after", after, limit, 1000);
        List<AuditEvent> events = audit.page(after, limit);
        return new AuditPage(events, events.size() == limit ? events.get(events.size() - 1).id() : null);
    }
}
