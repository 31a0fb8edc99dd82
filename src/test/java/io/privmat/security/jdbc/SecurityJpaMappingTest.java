package io.privmat.security.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.security.ApiKey;
import io.privmat.security.AuditEvent;
import io.privmat.security.Role;
import io.privmat.support.ApiTest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The JPA mappings of API keys and audit events against the Flyway schema: enums by name,
 * microsecond timestamps, nullable columns, identity ids; and JDBC joining the JPA transaction.
 */
class SecurityJpaMappingTest extends ApiTest {

    private static final Instant WITH_NANOS = Instant.parse("2026-01-02T03:04:05.123456789Z");
    private static final Instant MICROS = Instant.parse("2026-01-02T03:04:05.123456Z");

    @Autowired
    ApiKeyRepository keys;

    @Autowired
    AuditRepository audit;

    @Autowired
    TransactionTemplate tx;

    private static byte[] hash(String s) {
        byte[] out = new byte[32];
        byte[] in = s.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(in, 0, out, 0, Math.min(in.length, 32));
        return out;
    }

    @Test
    void anApiKeyReadsBackAsStoredInAndAfterItsTransaction() {
        UUID id = UUID.randomUUID();
        String subject = "mapping-" + id;
        byte[] hash = hash(subject);
        ApiKey inTx = tx.execute(status -> {
            keys.insert(id, "pm_mapping0", hash, "mapping", subject, Role.ANALYST, "test", WITH_NANOS);
            return keys.find(id).orElseThrow();
        });
        ApiKey after = keys.find(id).orElseThrow();
        assertThat(inTx).isEqualTo(after);
        assertThat(after.createdAt()).isEqualTo(MICROS);
        assertThat(after.revokedAt()).isNull();
        assertThat(jdbc.queryForObject("SELECT role FROM api_key WHERE id = ?", String.class, id)).isEqualTo("ANALYST");
        assertThat(keys.findActiveByHash(hash)).contains(after);
        assertThat(keys.existsByHash(hash)).isTrue();

        assertThat(keys.revoke(id, WITH_NANOS.plusSeconds(1))).isTrue();
        assertThat(keys.revoke(id, WITH_NANOS.plusSeconds(2))).isFalse();
        assertThat(keys.find(id).orElseThrow().revokedAt()).isEqualTo(MICROS.plusSeconds(1));
        assertThat(keys.findActiveByHash(hash)).isEmpty();
        assertThat(keys.existsByHash(hash)).isTrue();
    }

    @Test
    void jdbcSeesJpaWritesInTheSameTransactionAndARollbackUndoesBoth() {
        UUID id = UUID.randomUUID();
        String subject = "rollback-" + id;
        tx.executeWithoutResult(status -> {
            keys.insert(id, "pm_rollback", hash(subject), "rollback", subject, Role.OWNER, "test", WITH_NANOS);
            jdbc.update("INSERT INTO audit_event (at, method, route, status) VALUES (now(), 'POST', ?, 201)", subject);
            assertThat(jdbc.queryForObject("SELECT count(*) FROM api_key WHERE id = ?", Long.class, id)).isOne();
            assertThat(keys.lockSubjectRoles(subject)).containsExactly("OWNER");
            status.setRollbackOnly();
        });
        assertThat(keys.find(id)).isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM audit_event WHERE route = ?", Long.class, subject))
                .isZero();
    }

    @Test
    void auditEventsPageInInsertionOrderWithTheirNulls() {
        UUID key = UUID.randomUUID();
        UUID dataset = UUID.randomUUID();
        String route = "/v1/mapping/" + key;
        long before = jdbc.queryForObject("SELECT coalesce(max(id), 0) FROM audit_event", Long.class);
        audit.insertAll(List.of(new AuditRepository.Entry(WITH_NANOS, null, null, null, "DELETE", route, null, null, 401),
                new AuditRepository.Entry(WITH_NANOS, "owner-x", "OWNER", key, "POST", route, dataset, "t-1", 201)));
        List<AuditEvent> mine = audit.page(before, 1000).stream().filter(e -> e.route().equals(route)).toList();
        assertThat(mine).hasSize(2);
        assertThat(mine.get(0).id()).isLessThan(mine.get(1).id());
        assertThat(mine.get(0)).isEqualTo(new AuditEvent(mine.get(0).id(), MICROS, null, null, null, "DELETE", route,
                null, null, 401));
        assertThat(mine.get(1)).isEqualTo(new AuditEvent(mine.get(1).id(), MICROS, "owner-x", "OWNER", key, "POST",
                route, dataset, "t-1", 201));
        assertThat(audit.page(mine.get(0).id(), 1)).extracting(AuditEvent::id).containsExactly(
                jdbc.queryForObject("SELECT min(id) FROM audit_event WHERE id > ?", Long.class, mine.get(0).id()));
    }
}
