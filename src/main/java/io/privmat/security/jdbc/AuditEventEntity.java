package io.privmat.security.jdbc;

import io.privmat.security.AuditEvent;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A row of {@code audit_event} (schema: Flyway, {@code V004__create_security.sql}). Append-only:
 * the id comes from the column's {@code bigserial} sequence ({@link GenerationType#IDENTITY}), so
 * that pages ordered by id follow the order of insertion; no setters.
 */
@Entity
@Table(name = "audit_event")
public class AuditEventEntity {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private @Nullable Long id;

    private Instant at;

    private @Nullable String subject;

    private @Nullable String role;

    private @Nullable UUID keyId;

    private String method;

    private String route;

    private @Nullable UUID datasetId;

    private @Nullable String targetId;

    private int status;

    /** For JPA. */
    @SuppressWarnings("NullAway.Init")
    protected AuditEventEntity() {}

    public AuditEventEntity(Instant at, @Nullable String subject, @Nullable String role, @Nullable UUID keyId,
            String method, String route, @Nullable UUID datasetId, @Nullable String targetId, int status) {
        this.at = at.truncatedTo(ChronoUnit.MICROS);
        this.subject = subject;
        this.role = role;
        this.keyId = keyId;
        this.method = method;
        this.route = route;
        this.datasetId = datasetId;
        this.targetId = targetId;
        this.status = status;
    }

    public AuditEvent toAuditEvent() {
        if (id == null) {
            throw new IllegalStateException("audit event not stored yet");
        }
        return new AuditEvent(id, at, subject, role, keyId, method, route, datasetId, targetId, status);
    }
}
