package io.privmat.security.jdbc;

import io.privmat.security.ApiKey;
import io.privmat.security.Role;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * API keys: plain CRUD through JPA ({@link ApiKeyEntities}); the per-subject advisory lock through
 * JDBC on the same transaction's connection (docs/adr/0010-jdbc-and-jpa.md).
 */
@Repository
public class ApiKeyRepository {

    private final ApiKeyEntities keys;
    private final JdbcTemplate jdbc;

    @PersistenceContext
    private EntityManager entityManager;

    public ApiKeyRepository(ApiKeyEntities keys, JdbcTemplate jdbc) {
        this.keys = keys;
        this.jdbc = jdbc;
    }

    public void insert(UUID id, String prefix, byte[] hash, String name, String subject, Role role, String createdBy,
            Instant now) {
        keys.saveAndFlush(new ApiKeyEntity(id, prefix, hash, name, subject, role, createdBy, now));
    }

    /**
     * The active (not revoked) key with this hash. Every request authenticates through this, so it
     * is one plain SQL statement on the unique index rather than a derived JPA query (whose criteria
     * translation cost more CPU per request than admitting a query: docs/benchmarks.md).
     */
    public Optional<ApiKey> findActiveByHash(byte[] hash) {
        return jdbc.query("SELECT id, prefix, name, subject, role, created_by, created_at FROM api_key "
                + "WHERE key_hash = ? AND revoked_at IS NULL", (rs, i) -> new ApiKey(rs.getObject("id", UUID.class),
                        rs.getString("prefix"), rs.getString("name"), rs.getString("subject"),
                        Role.valueOf(rs.getString("role")), rs.getString("created_by"),
                        rs.getTimestamp("created_at").toInstant(), null), hash).stream().findFirst();
    }

    public boolean existsByHash(byte[] hash) {
        return keys.existsByKeyHash(hash);
    }

    /**
     * The roles of every key (active or revoked) of a subject, after taking a transaction-scoped
     * lock on the subject so that two concurrent creations cannot both pass the check. The lock is
     * held until the caller's transaction ends (JDBC and JPA share it: one DataSource, one
     * JpaTransactionManager).
     */
    @Transactional
    public List<String> lockSubjectRoles(String subject) {
        jdbc.queryForList("SELECT pg_advisory_xact_lock(hashtext('api_key_subject:' || ?))", subject);
        return keys.rolesOf(subject).stream().map(Role::name).toList();
    }

    public long countActiveAdmins() {
        return keys.countByRoleAndRevokedAtIsNull(Role.ADMIN);
    }

    @Transactional(readOnly = true)
    public List<ApiKey> list(int offset, int limit) {
        return entityManager.createQuery("select k from ApiKeyEntity k order by k.createdAt, k.id", ApiKeyEntity.class)
                .setFirstResult(offset).setMaxResults(limit).getResultList().stream().map(ApiKeyEntity::toApiKey)
                .toList();
    }

    public Optional<ApiKey> find(UUID id) {
        return keys.findById(id).map(ApiKeyEntity::toApiKey);
    }

    @Transactional
    public boolean revoke(UUID id, Instant now) {
        return keys.revoke(id, now.truncatedTo(ChronoUnit.MICROS)) > 0;
    }
}
