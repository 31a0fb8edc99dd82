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

    /** One event to append (the row's columns but its id). */
    public record Entry(Instant at, @Nullable String subject, @Nullable String role, @Nullable UUID keyId,
            String method, String route, @Nullable UUID datasetId, @Nullable String targetId, int status) {
    }

    /**
     * Appends events in this order with one plain INSERT of arrays (every state-changing request
     * writes one, so not through the persistence context; concurrent requests' events are appended
     * together, {@code security.AuditAppender}). Times are truncated to microseconds, as the entity does.
     */
    public void insertAll(List<Entry> entries) {
        int n = entries.size();
        java.sql.Timestamp[] at = new java.sql.Timestamp[n];
        String[] subject = new String[n];
        String[] role = new String[n];
        UUID[] keyId = new UUID[n];
        String[] method = new String[n];
        String[] route = new String[n];
        UUID[] datasetId = new UUID[n];
        String[] targetId = new String[n];
        Integer[] status = new Integer[n];
        for (int i = 0; i < n; i++) {
            Entry e = entries.get(i);
            at[i] = java.sql.Timestamp.from(e.at().truncatedTo(java.time.temporal.ChronoUnit.MICROS));
            subject[i] = e.subject();
            role[i] = e.role();
            keyId[i] = e.keyId();
            method[i] = e.method();
            route[i] = e.route();
            datasetId[i] = e.datasetId();
            targetId[i] = e.targetId();
            status[i] = e.status();
        }
        jdbc.update(connection -> {
            java.sql.PreparedStatement ps = connection.prepareStatement("INSERT INTO audit_event (at, subject, role, "
                    + "key_id, method, route, dataset_id, target_id, status) SELECT * FROM unnest(?::timestamptz[], "
                    + "?::text[], ?::text[], ?::uuid[], ?::text[], ?::text[], ?::uuid[], ?::text[], ?::integer[])");
            ps.setArray(1, connection.createArrayOf("timestamptz", at));
            ps.setArray(2, connection.createArrayOf("text", subject));
            ps.setArray(3, connection.createArrayOf("text", role));
            ps.setArray(4, connection.createArrayOf("uuid", keyId));
            ps.setArray(5, connection.createArrayOf("text", method));
            ps.setArray(6, connection.createArrayOf("text", route));
            ps.setArray(7, connection.createArrayOf("uuid", datasetId));
            ps.setArray(8, connection.createArrayOf("text", targetId));
            ps.setArray(9, connection.createArrayOf("integer", status));
            return ps;
        });
    }

    public List<AuditEvent> page(long afterId, int limit) {
        return events.findByIdGreaterThanOrderByIdAsc(afterId, Limit.of(limit)).stream()
                .map(AuditEventEntity::toAuditEvent).toList();
    }
}
