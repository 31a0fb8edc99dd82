package io.privmat.dataset.storage;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.DatasetStatus;
import io.privmat.dataset.Neighbouring;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Budget;
import io.privmat.config.AssignedIdEntity;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;
import org.jspecify.annotations.Nullable;

/**
 * A row of {@code dataset}: the metadata of a dataset (schema: Flyway, {@code V001__create_dataset.sql}
 * and later migrations). The declared schema is the {@code jsonb} document as stored, read and
 * written by {@link DatasetRepository} (its reading depends on the kind). {@code declared_vertices}
 * is not mapped: it is written and read with the graph's vertex labels (JDBC, {@link DatasetRepository}).
 * The id is assigned by the service ({@link AssignedIdEntity}: saving a new dataset is one INSERT).
 */
@Entity
@Table(name = "dataset")
public class DatasetEntity extends AssignedIdEntity {

    private String name;

    private String owner;

    @Enumerated(EnumType.STRING)
    private DatasetKind kind;

    @Enumerated(EnumType.STRING)
    private Neighbouring neighbouring;

    private @Nullable Double rowNormBound;

    @Enumerated(EnumType.STRING)
    private DatasetStatus status;

    private @Nullable Long rows;

    private @Nullable Long cols;

    private @Nullable Long nnz;

    private @Nullable Long clippedRows;

    private @Nullable String sourceFormat;

    private @Nullable String storage;

    private @Nullable Long uploadBytes;

    private BigDecimal budgetEpsilon;

    private BigDecimal budgetDelta;

    @Enumerated(EnumType.STRING)
    private AccountingMode accounting;

    private BigDecimal approxDeltaFraction;

    private Instant createdAt;

    private @Nullable Instant uploadedAt;

    @JdbcTypeCode(SqlTypes.JSON)
    private @Nullable String declaration;

    @JdbcTypeCode(SqlTypes.ARRAY)
    private String @Nullable [] columnLabels;

    private @Nullable Long droppedRatings;

    /** For JPA. */
    @SuppressWarnings("NullAway.Init")
    protected DatasetEntity() {}

    /** A new row; {@code declaration} is the schema's JSON document, or null. */
    DatasetEntity(Dataset d, @Nullable String declaration) {
        super(d.id());
        this.name = d.name();
        this.owner = d.owner();
        this.kind = d.kind();
        this.neighbouring = d.neighbouring();
        this.rowNormBound = d.rowNormBound();
        this.status = d.status();
        this.rows = d.rows();
        this.cols = d.cols();
        this.nnz = d.nnz();
        this.clippedRows = d.clippedRows();
        this.budgetEpsilon = d.budget().epsilon();
        this.budgetDelta = d.budget().delta();
        this.accounting = d.budget().mode();
        this.approxDeltaFraction = d.budget().approxDeltaFraction();
        this.createdAt = d.createdAt().truncatedTo(ChronoUnit.MICROS);
        this.declaration = declaration;
    }

    DatasetKind kind() {
        return kind;
    }

    @Nullable String declaration() {
        return declaration;
    }

    /** The public record, with the schema read from the stored document. */
    Dataset toDataset(io.privmat.dataset.@Nullable DatasetSchema schema) {
        return new Dataset(getId(), name, owner, kind, neighbouring, rowNormBound, status, rows, cols, nnz, clippedRows,
                sourceFormat, storage, uploadBytes, new Budget(budgetEpsilon, budgetDelta, accounting,
                approxDeltaFraction), createdAt, uploadedAt, schema, columnLabels == null ? null : List.of(columnLabels),
                droppedRatings);
    }
}
