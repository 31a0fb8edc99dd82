package io.privmat.dataset.storage;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * A row of {@code deleted_dataset} (schema: Flyway, {@code V016__create_deleted_dataset.sql}): the
 * tombstone of a deleted dataset, naming its owner so that the ledger stays readable to them.
 * Written only by {@link DeletedDatasets#insertIfAbsent}.
 */
@Entity
@Table(name = "deleted_dataset")
public class DeletedDatasetEntity {

    @Id
    private UUID id;

    private String owner;

    private Instant deletedAt;

    /** For JPA. */
    @SuppressWarnings("NullAway.Init")
    protected DeletedDatasetEntity() {}

    String owner() {
        return owner;
    }
}
