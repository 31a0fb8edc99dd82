package io.privmat.dataset.storage;

import io.privmat.dataset.Grant;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A row of {@code dataset_grant} (schema: Flyway, {@code V004__create_security.sql}): an analyst
 * allowed to query a dataset. Its key is the pair (dataset, analyst); the row goes when the
 * dataset goes (foreign key, ON DELETE CASCADE), so the entity does not map the dataset itself.
 */
@Entity
@Table(name = "dataset_grant")
@IdClass(DatasetGrantEntity.Key.class)
public class DatasetGrantEntity {

    /** The composite key. */
    public static class Key implements Serializable {

        private static final long serialVersionUID = 1L;

        @SuppressWarnings("NullAway.Init")
        private UUID datasetId;

        @SuppressWarnings("NullAway.Init")
        private String analyst;

        /** For JPA. */
        protected Key() {}

        public Key(UUID datasetId, String analyst) {
            this.datasetId = datasetId;
            this.analyst = analyst;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && datasetId.equals(k.datasetId) && analyst.equals(k.analyst);
        }

        @Override
        public int hashCode() {
            return Objects.hash(datasetId, analyst);
        }
    }

    @Id
    @Column(name = "dataset_id")
    private UUID datasetId;

    @Id
    private String analyst;

    private String grantedBy;

    private Instant grantedAt;

    /** For JPA. */
    @SuppressWarnings("NullAway.Init")
    protected DatasetGrantEntity() {}

    public Grant toGrant() {
        return new Grant(analyst, grantedBy, grantedAt);
    }
}
