package io.privmat.dataset;

import io.privmat.privacy.Budget;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A dataset's metadata. Shape fields are null until the data is uploaded.
 *
 * @param owner the subject (API key subject) that created the dataset
 * @param rowNormBound public L2 bound of a matrix row (null for graphs)
 * @param rows matrix rows, graph vertices, or a histogram's records
 * @param cols matrix columns, graph vertices, or a histogram's cells
 * @param nnz non-zero entries, graph edges, or a histogram's non-empty cells
 * @param clippedRows rows scaled down to the bound at ingest (always 0 for graphs)
 * @param schema the public structure declared at creation (histograms), or null
 */
public record Dataset(
        UUID id,
        String name,
        String owner,
        DatasetKind kind,
        Neighbouring neighbouring,
        @Nullable Double rowNormBound,
        DatasetStatus status,
        @Nullable Long rows,
        @Nullable Long cols,
        @Nullable Long nnz,
        @Nullable Long clippedRows,
        @Nullable String sourceFormat,
        @Nullable String storage,
        @Nullable Long uploadBytes,
        Budget budget,
        Instant createdAt,
        @Nullable Instant uploadedAt,
        @Nullable DatasetSchema schema) {}
