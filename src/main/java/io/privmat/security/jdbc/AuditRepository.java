package io.privmat.security.jdbc;

import io.privmat.security.AuditEvent;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

@Repository
public class AuditRepository {

    private final JdbcTemplate jdbc;

    public AuditRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public void insert(Instant at, @Nullable String subject, @Nullable String role, @Nullable UUID keyId, String method,
            String route, @Nullable UUID datasetId, @Nullable String targetId, int status) {
        jdbc.update("INSERT INTO audit_event (at, subject, role, key_id, method, route, dataset_id, target_id, status) "
                + "VALUES (?,?,?,?,?,?,?,?,?)", Timestamp.from(at), subject, role, keyId, method, route, datasetId,
                targetId, status);
    }

    public List<AuditEvent> page(long afterId, int limit) {
        return jdbc.query("SELECT * FROM audit_event WHERE id > ? ORDER BY id LIMIT ?", (rs, i) -> new AuditEvent(
                rs.getLong("id"), rs.getTimestamp("at").toInstant(), rs.getString("subject"), rs.getString("role"),
                rs.getObject("key_id", UUID.class), rs.getString("method"), rs.getString("route"),
                rs.getObject("dataset_id", UUID.class), rs.getString("target_id"), rs.getInt("status")), afterId, limit);
    }
}
