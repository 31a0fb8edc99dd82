package io.privmat.dataset;

import io.privmat.privacy.Budget;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A dataset's metadata. Shape fields are null until the data is uploaded.
 *
 * @param owner the subject (API key subject) that created the dataset
 * @param rowNormBound public L2 bound of a matrix row (null for graphs)
 * @param rows matrix rows, graph vertices, a histogram's records, or the users of a ratings dataset
 * @param cols matrix columns, graph vertices, a histogram's cells, or the items n of a ratings dataset
 * @param nnz non-zero entries, graph edges, a histogram's non-empty cells, or the stored ratings |Ω|
 * @param clippedRows rows scaled down to the bound at ingest (always 0 for graphs)
 * @param schema the public structure declared at creation (histograms), or null
 * @param droppedRatings RATINGS: ratings beyond the per-user cap dropped at upload (owner only), else null
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
        @Nullable DatasetSchema schema,
        @Nullable List<String> columnLabels,
        @Nullable Long droppedRatings) {}
