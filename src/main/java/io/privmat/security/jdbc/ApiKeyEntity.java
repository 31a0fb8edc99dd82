package io.privmat.security.jdbc;

import io.privmat.security.ApiKey;
import io.privmat.security.Role;
import jakarta.persistence.Column;
import io.privmat.config.AssignedIdEntity;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Table;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A row of {@code api_key} (schema: Flyway, {@code V004__create_security.sql}). The id is assigned
 * by the service, so the entity says itself whether it is new ({@link AssignedIdEntity}): saving a new
 * key is one INSERT, not a SELECT and an INSERT. Timestamps are kept at PostgreSQL's microsecond
 * precision, so an entity read back from the persistence context equals the stored row.
 */
@Entity
@Table(name = "api_key")
public class ApiKeyEntity extends AssignedIdEntity {

    private String prefix;

    @Column(name = "key_hash")
    private byte[] keyHash;

    private String name;

    private String subject;

    @Enumerated(EnumType.STRING)
    private Role role;

    private String createdBy;

    private Instant createdAt;

    private @Nullable Instant revokedAt;

    /** For JPA. */
    @SuppressWarnings("NullAway.Init")
    protected ApiKeyEntity() {}

    public ApiKeyEntity(UUID id, String prefix, byte[] keyHash, String name, String subject, Role role,
            String createdBy, Instant createdAt) {
        super(id);
        this.prefix = prefix;
        this.keyHash = keyHash.clone();
        this.name = name;
        this.subject = subject;
        this.role = role;
        this.createdBy = createdBy;
        this.createdAt = createdAt.truncatedTo(ChronoUnit.MICROS);
    }

    /** The public record (never the hash). */
    public ApiKey toApiKey() {
        return new ApiKey(getId(), prefix, name, subject, role, createdBy, createdAt, revokedAt);
    }
}
