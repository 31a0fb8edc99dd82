package io.privmat.dataset.storage;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

/** Spring Data repository of {@link DatasetGrantEntity}; used through {@link DatasetRepository}. */
public interface DatasetGrants extends JpaRepository<DatasetGrantEntity, DatasetGrantEntity.Key> {

    List<DatasetGrantEntity> findByDatasetIdOrderByGrantedAtAscAnalystAsc(UUID datasetId);

    boolean existsByDatasetIdAndAnalyst(UUID datasetId, String analyst);

    long countByAnalyst(String analyst);

    /**
     * Grants unless the grant exists (then keeps who granted it and when). One native statement:
     * a check-then-persist would let two concurrent grants collide on the primary key.
     */
    @Transactional
    @Modifying
    @Query(value = "INSERT INTO dataset_grant (dataset_id, analyst, granted_by, granted_at) "
            + "VALUES (:datasetId, :analyst, :grantedBy, :grantedAt) ON CONFLICT DO NOTHING", nativeQuery = true)
    int insertIfAbsent(@Param("datasetId") UUID datasetId, @Param("analyst") String analyst,
            @Param("grantedBy") String grantedBy, @Param("grantedAt") Instant grantedAt);

    @Transactional
    @Modifying
    @Query("delete from DatasetGrantEntity g where g.datasetId = :datasetId and g.analyst = :analyst")
    int deleteGrant(@Param("datasetId") UUID datasetId, @Param("analyst") String analyst);
}
