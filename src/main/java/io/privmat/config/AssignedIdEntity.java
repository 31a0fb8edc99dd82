package io.privmat.config;

import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.PostLoad;
import jakarta.persistence.PostPersist;
import jakarta.persistence.Transient;
import java.util.UUID;
import org.springframework.data.domain.Persistable;

/**
 * An entity whose UUID id the service assigns: it says itself whether it is new
 * ({@link Persistable}), so that saving a new one is one INSERT, not a SELECT and an INSERT
 * (docs/adr/0010-jdbc-and-jpa.md, "Mapping notes").
 */
@MappedSuperclass
public abstract class AssignedIdEntity implements Persistable<UUID> {

    @Id
    private UUID id;

    @Transient
    private boolean isNew;

    /** For JPA. */
    @SuppressWarnings("NullAway.Init")
    protected AssignedIdEntity() {}

    /** A new entity, not stored yet. */
    protected AssignedIdEntity(UUID id) {
        this.id = id;
        this.isNew = true;
    }

    @Override
    public UUID getId() {
        return id;
    }

    @Override
    public boolean isNew() {
        return isNew;
    }

    @PostLoad
    @PostPersist
    void stored() {
        isNew = false;
    }
}
