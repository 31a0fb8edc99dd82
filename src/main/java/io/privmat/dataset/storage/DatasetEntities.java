package io.privmat.dataset.storage;

import io.privmat.dataset.DatasetStatus;
import java.time.Instant;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

/**
 * Spring Data repository of {@link DatasetEntity}; used through {@link DatasetRepository}. The
 * updates run in the caller's transaction (an upload's, a deletion's), which also writes rows with
 * JDBC: they flush pending entity changes first and clear the persistence context after, so that
 * no entity read earlier in that transaction hides what they changed.
 */
public interface DatasetEntities extends JpaRepository<DatasetEntity, UUID> {

    long countByOwner(String owner);

    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update DatasetEntity d set d.status = :status, d.rows = :rows, d.cols = :cols, d.nnz = :nnz, "
            + "d.clippedRows = :clipped, d.sourceFormat = :format, d.storage = :storage, d.uploadBytes = :bytes, "
            + "d.uploadedAt = :at where d.id = :id")
    int markUploaded(@Param("id") UUID id, @Param("status") DatasetStatus status, @Param("rows") long rows,
            @Param("cols") long cols, @Param("nnz") long nnz, @Param("clipped") long clipped,
            @Param("format") String format, @Param("storage") String storage, @Param("bytes") long bytes,
            @Param("at") Instant at);

    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update DatasetEntity d set d.columnLabels = :labels where d.id = :id")
    int setColumnLabels(@Param("id") UUID id, @Param("labels") String[] labels);

    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update DatasetEntity d set d.droppedRatings = :dropped where d.id = :id")
    int setDroppedRatings(@Param("id") UUID id, @Param("dropped") long dropped);

    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("delete from DatasetEntity d where d.id = :id")
    int deleteDataset(@Param("id") UUID id);
}
