package io.privmat.security.jdbc;

import io.privmat.security.AuditEvent;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Repository;

/** The audit log: appended with JDBC, paged through JPA ({@link AuditEventEntities}). */
@Repository
public class AuditRepository {

    private final AuditEventEntities events;
    private final org.springframework.jdbc.core.JdbcTemplate jdbc;

    public AuditRepository(AuditEventEntities events, org.springframework.jdbc.core.JdbcTemplate jdbc) {
        this.events = events;
        this.jdbc = jdbc;
    }

    /**
     * Appends one event: one plain INSERT (every state-changing request writes one, so not through
     * the persistence context). The time is truncated to microseconds, as the entity does.
     */
    public void insert(Instant at, @Nullable String subject, @Nullable String role, @Nullable UUID keyId, String method,
            String route, @Nullable UUID datasetId, @Nullable String targetId, int status) {
        jdbc.update("INSERT INTO audit_event (at, subject, role, key_id, method, route, dataset_id, target_id, status) "
                + "VALUES (?,?,?,?,?,?,?,?,?)", java.sql.Timestamp.from(at.truncatedTo(java.time.temporal.ChronoUnit.MICROS)), subject, role, keyId, method, route,
                datasetId, targetId, status);
    }

    public List<AuditEvent> page(long afterId, int limit) {
        return events.findByIdGreaterThanOrderByIdAsc(afterId, Limit.of(limit)).stream()
                .map(AuditEventEntity::toAuditEvent).toList();
    }
}
