package io.privmat.security.jdbc;

import io.privmat.security.Role;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** Spring Data repository of {@link ApiKeyEntity}; used through {@link ApiKeyRepository}. */
public interface ApiKeyEntities extends JpaRepository<ApiKeyEntity, UUID> {

    boolean existsByKeyHash(byte[] keyHash);

    long countByRoleAndRevokedAtIsNull(Role role);

    @Query("select distinct k.role from ApiKeyEntity k where k.subject = :subject")
    List<Role> rolesOf(@Param("subject") String subject);

    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update ApiKeyEntity k set k.revokedAt = :at where k.id = :id and k.revokedAt is null")
    int revoke(@Param("id") UUID id, @Param("at") Instant at);
}
