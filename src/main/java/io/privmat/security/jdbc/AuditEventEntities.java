package io.privmat.security.jdbc;

import java.util.List;
import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.JpaRepository;

/** Spring Data repository of {@link AuditEventEntity}; used through {@link AuditRepository}. */
public interface AuditEventEntities extends JpaRepository<AuditEventEntity, Long> {

    /** Events after an id, oldest first. */
    List<AuditEventEntity> findByIdGreaterThanOrderByIdAsc(long afterId, Limit limit);
}
