package io.privmat.security;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** An API key's public record (never the key itself). */
public record ApiKey(UUID id, String prefix, String name, String subject, Role role, String createdBy,
        Instant createdAt, @Nullable Instant revokedAt) {}
