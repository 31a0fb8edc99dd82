package io.privmat.dataset.storage;

import java.time.Instant;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

/** Spring Data repository of {@link DeletedDatasetEntity}; used through {@link DatasetRepository}. */
public interface DeletedDatasets extends JpaRepository<DeletedDatasetEntity, UUID> {

    /** Keeps the first tombstone of an id (one native statement, as for grants: no check-then-persist). */
    @Transactional
    @Modifying
    @Query(value = "INSERT INTO deleted_dataset (id, owner, deleted_at) VALUES (:id, :owner, :at) "
            + "ON CONFLICT DO NOTHING", nativeQuery = true)
    int insertIfAbsent(@Param("id") UUID id, @Param("owner") String owner, @Param("at") Instant at);
}
