package io.privmat.security.jdbc;

import io.privmat.security.AuditEvent;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Repository;

/** The audit log: appended and paged through JPA ({@link AuditEventEntities}). */
@Repository
public class AuditRepository {

    private final AuditEventEntities events;

    public AuditRepository(AuditEventEntities events) {
        this.events = events;
    }

    public void insert(Instant at, @Nullable String subject, @Nullable String role, @Nullable UUID keyId, String method,
            String route, @Nullable UUID datasetId, @Nullable String targetId, int status) {
        events.save(new AuditEventEntity(at, subject, role, keyId, method, route, datasetId, targetId, status));
    }

    public List<AuditEvent> page(long afterId, int limit) {
        return events.findByIdGreaterThanOrderByIdAsc(afterId, Limit.of(limit)).stream()
                .map(AuditEventEntity::toAuditEvent).toList();
    }
}
