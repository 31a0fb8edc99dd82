package io.privmat.security.jdbc;

import io.privmat.security.ApiKey;
import io.privmat.security.Role;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;

@Repository
public class ApiKeyRepository {

    private static final RowMapper<ApiKey> KEY = (rs, i) -> new ApiKey(rs.getObject("id", UUID.class),
            rs.getString("prefix"), rs.getString("name"), rs.getString("subject"), Role.valueOf(rs.getString("role")),
            rs.getString("created_by"), rs.getTimestamp("created_at").toInstant(),
            rs.getTimestamp("revoked_at") == null ? null : rs.getTimestamp("revoked_at").toInstant());

    private final JdbcTemplate jdbc;

    public ApiKeyRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public void insert(UUID id, String prefix, byte[] hash, String name, String subject, Role role, String createdBy,
            Instant now) {
        jdbc.update("INSERT INTO api_key (id, prefix, key_hash, name, subject, role, created_by, created_at) "
                + "VALUES (?,?,?,?,?,?,?,?)", id, prefix, hash, name, subject, role.name(), createdBy, Timestamp.from(now));
    }

    /** The active (not revoked) key with this hash. */
    public Optional<ApiKey> findActiveByHash(byte[] hash) {
        return jdbc.query("SELECT * FROM api_key WHERE key_hash = ? AND revoked_at IS NULL", KEY, hash).stream()
                .findFirst();
    }

    public boolean existsByHash(byte[] hash) {
        Long n = jdbc.queryForObject("SELECT count(*) FROM api_key WHERE key_hash = ?", Long.class, hash);
        return n != null && n > 0;
    }

    /**
     * The roles of every key (active or revoked) of a subject, after taking a transaction-scoped
     * lock on the subject so that two concurrent creations cannot both pass the check.
     */
    public List<String> lockSubjectRoles(String subject) {
        jdbc.queryForList("SELECT pg_advisory_xact_lock(hashtext('api_key_subject:' || ?))", subject);
        return jdbc.queryForList("SELECT DISTINCT role FROM api_key WHERE subject = ?", String.class, subject);
    }

    public long countActiveAdmins() {
        Long n = jdbc.queryForObject("SELECT count(*) FROM api_key WHERE role = 'ADMIN' AND revoked_at IS NULL",
                Long.class);
        return n == null ? 0 : n;
    }

    public List<ApiKey> list(int offset, int limit) {
        return jdbc.query("SELECT * FROM api_key ORDER BY created_at, id OFFSET ? LIMIT ?", KEY, offset, limit);
    }

    public Optional<ApiKey> find(UUID id) {
        return jdbc.query("SELECT * FROM api_key WHERE id = ?", KEY, id).stream().findFirst();
    }

    public boolean revoke(UUID id, Instant now) {
        return jdbc.update("UPDATE api_key SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                Timestamp.from(now), id) > 0;
    }
}
