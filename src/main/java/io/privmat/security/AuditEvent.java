package io.privmat.security;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** One audited call: who, what (method and route), which dataset, when, outcome (HTTP status). */
public record AuditEvent(long id, Instant at, @Nullable String subject, @Nullable String role, @Nullable UUID keyId,
        String method, String route, @Nullable UUID datasetId, @Nullable String targetId, int status) {}
