package io.privmat.dataset.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.privmat.api.JsonNumbers;
import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.ExternalSchema;
import io.privmat.dataset.HistogramSchema;
import io.privmat.dataset.Neighbouring;
import io.privmat.dataset.RatingsSchema;
import io.privmat.dataset.StreamSchema;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.BlockRule;
import io.privmat.privacy.Budget;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A dataset as the API shows it. Shape fields are null until data is uploaded. */
@Schema(name = "Dataset")
public record DatasetView(
        UUID id,
        String name,
        @Schema(description = "The subject that owns the dataset") String owner,
        @Schema(allowableValues = {"MATRIX", "GRAPH", "HISTOGRAM", "STREAM", "EXTERNAL", "RATINGS"}) String kind,
        @Schema(allowableValues = {"REPLACE_ONE", "ADD_REMOVE"}) String neighbouring,
        @Schema(description = "What one privacy unit is") String privacyUnit,
        @Schema(description = "Public L2 row bound (MATRIX)") @Nullable Double rowNormBound,
        @Schema(description = "Public bound of an edge weight (GRAPH): weights lie in [0, this]") @Nullable Double edgeWeightBound,
        @Schema(allowableValues = {"EMPTY", "READY"}) String status,
        @Schema(description = "Matrix rows, graph vertices, a histogram's records, the rows (edge events) "
                + "appended to a stream, or the users m of a ratings dataset. Hidden from analysts under "
                + "ADD_REMOVE, where n is private, for streams, and for RATINGS unless the relation is RATING")
                @Nullable Long rows,
        @Schema(description = "Matrix columns, graph vertices, a histogram's cells, or the items n of a ratings "
                + "dataset") @Nullable Long cols,
        @Schema(description = "Stored non-zero entries, graph edges, non-empty cells, or stored ratings |Ω| "
                + "(owner only: data-dependent; RATINGS under the RATING relation: public)") @Nullable Long nnz,
        @Schema(description = "Rows scaled down to rowNormBound at upload (owner only: data-dependent)")
        @Nullable Long clippedRows,
        @Schema(description = "Format of the upload: CSV, TSV, MATRIX_MARKET or NPY; EXTERNAL: the declared PARQUET or CSV") @Nullable String sourceFormat,
        @Schema(description = "Storage layout: DENSE, SPARSE, MIXED (per chunk) or EDGES") @Nullable String storage,
        @Schema(description = "Bytes received in the upload") @Nullable Long uploadBytes,
        BudgetView budget,
        Instant createdAt,
        @Nullable Instant uploadedAt,
        @Schema(description = "HISTOGRAM: the declared attributes and their public domains") @Nullable
                List<Attribute> attributes,
        @Schema(description = "STREAM: the declared block structure") @Nullable StreamView stream,
        @Schema(description = "MATRIX: the column names of the uploaded CSV/TSV header, in column order (absent "
                + "without a header). Public like the shape: they name what each column measures, not a row; "
                + "results repeat them as columns") @Nullable List<String> columns,
        @Schema(description = "EXTERNAL: the declared source (its location is shown to the owner only)") @Nullable
                ExternalView external,
        @Schema(description = "RATINGS: the declared item universe, rating range, per-user cap and relation")
                @Nullable RatingsView ratings,
        @Schema(description = "RATINGS: ratings beyond perUserCap dropped at upload (owner only: data-dependent)")
                @Nullable Long droppedRatings) {

    /** A RATINGS dataset's declaration, as the API shows it (public). */
    @Schema(name = "RatingsDeclaration")
    public record RatingsView(
            @Schema(description = "n, the number of items") int items,
            @Schema(description = "The declared item labels in id order; absent when only n was declared (the "
                    + "labels are then \"0\" … \"n − 1\")") @Nullable List<String> itemLabels,
            @Schema(description = "The smallest rating") double min,
            @Schema(description = "The largest rating") double max,
            @Schema(description = "s, the most ratings kept per user") int perUserCap,
            @Schema(description = "The relation as declared", allowableValues = {"USER", "RATING"}) String relation,
            @Schema(description = "The relation mechanisms are calibrated with: USER (one user's ratings replaced), "
                    + "USER_ADD_REMOVE (a user added or removed) or RATING (one rating changed within [min, max])",
                    allowableValues = {"USER", "USER_ADD_REMOVE", "RATING"}) String calibration) {}

    /** An EXTERNAL dataset's declared source, as the API shows it. */
    @Schema(name = "ExternalSource")
    public record ExternalView(
            @Schema(description = "Where the rows are (owner only)") @Nullable String location,
            @Schema(allowableValues = {"PARQUET", "CSV"}) String format,
            @Schema(description = "The d columns forming a row, in order (public)") List<String> columns,
            @Schema(description = "n as declared by the owner (REPLACE_ONE; public); absent under ADD_REMOVE")
                    @Nullable Long declaredRows,
            @Schema(description = "The vector layout: the one Parquet column holding each row as d float64 (a list "
                    + "of doubles or 8·d little-endian bytes; public); absent: the d scalar columns")
                    @Nullable String vector) {}

    /** A stream's declared block structure, as the API shows it (public). */
    @Schema(name = "StreamDeclaration")
    public record StreamView(
            @Schema(description = "ROW_COUNT (blocks of blockRows rows) or TIME (blocks of blockSeconds seconds)",
                    allowableValues = {"ROW_COUNT", "TIME"}) String blockRule,
            @Schema(description = "Edge stream: rows are weighted edge events on the declared vertices") boolean edges,
            @Schema(description = "Rows (edge events) per block under ROW_COUNT") @Nullable Integer blockRows,
            @Schema(description = "Seconds per block under TIME, from startsAt") @Nullable Long blockSeconds,
            @Schema(description = "Completed blocks per window") int windowBlocks,
            @Schema(description = "Rows per full window under ROW_COUNT (w·b); absent under TIME, where it is "
                    + "private") @Nullable Long windowRows,
            @Schema(description = "The most blocks the stream releases") long horizonBlocks,
            @Schema(description = "Start of block 0 (the creation time)") Instant startsAt,
            @Schema(description = "P: the budget renews every P blocks (it is per period, blocks [kP, (k+1)P)); "
                    + "absent when it never renews")
                    @JsonInclude(JsonInclude.Include.NON_NULL)
                    @Nullable Long periodBlocks) {}

    /** A histogram attribute as declared. */
    @Schema(name = "HistogramAttribute")
    public record Attribute(String name, int size, @Nullable List<String> labels) {}

    /** The configured budget. */
    @Schema(name = "Budget")
    public record BudgetView(@Schema(format = "double") Double epsilon, @Schema(format = "double") Double delta,
            @Schema(allowableValues = {"ZCDP", "BASIC", "PURE", "GDP"}) String accounting,
            @Schema(format = "double") Double approxDeltaFraction) {}

    /**
     * The dataset as this caller may see it. Analysts never see data-dependent statistics (non-zeros,
     * clipped rows, storage layout, upload size), nor the row count n under ADD_REMOVE, where n is
     * itself private.
     */
    static DatasetView of(Dataset d, Caller caller) {
        Budget b = d.budget();
        boolean matrix = d.kind() == DatasetKind.MATRIX || d.kind() == DatasetKind.EXTERNAL;
        boolean histogram = d.kind() == DatasetKind.HISTOGRAM;
        boolean owner = caller.is(Role.OWNER) && d.owner().equals(caller.subject());
        boolean nPublic = d.neighbouring() == Neighbouring.REPLACE_ONE;
        String unit = matrix ? "one row (L2 norm at most rowNormBound)"
                : histogram ? "one record (adds 1 to one cell)" : "one edge (weight in [0, 1])";
        RatingsView ratingsView = null;
        // A ratings dataset's user count m and its |Ω| are public only under RATING, where Ω itself is
        // public; under USER one user's presence changes both (docs/ratings.md, "Visibility").
        boolean omegaPublic = false;
        RatingsSchema declaredRatings = d.schema() instanceof RatingsSchema rs ? rs
                : d.schema() instanceof ExternalSchema es ? es.ratings() : null;
        if (declaredRatings != null) {
            RatingsSchema r = declaredRatings;
            RatingsRelation relation = r.relation(d.neighbouring());
            omegaPublic = relation == RatingsRelation.RATING;
            unit = omegaPublic ? "one rating (its value, within [min, max]; which users rated which items is public)"
                    : relation == RatingsRelation.USER_ADD_REMOVE
                    ? "one user with all of their ratings (added or removed)"
                    : "one user's ratings (at most perUserCap, replaced by any others)";
            ratingsView = new RatingsView(r.items(), r.labels(), r.min(), r.max(), r.perUserCap(), r.declared().name(),
                    relation.name());
        }
        // A graph's vertex set is public (its edges are the private units, counted by nnz); a
        // histogram's record count is private under ADD_REMOVE like a matrix's rows.
        boolean stream = d.kind() == DatasetKind.STREAM;
        if (stream) {
            unit = d.schema() instanceof StreamSchema s && s.graph() ? "one edge event (weight in [0, 1])"
                    : "one row (L2 norm at most rowNormBound)";
            if (d.schema() instanceof StreamSchema s && s.blockRule() == BlockRule.TIME
                    && d.neighbouring() == Neighbouring.REPLACE_ONE) {
                unit += ", replaced by any other with any event time (possibly in another block)";
            }
        }
        // A stream's appended row count is the owner's: under TIME blocks it is private, and it would
        // time the owner's appends.
        boolean ratings = d.kind() == DatasetKind.RATINGS;
        Long rows = owner || (nPublic && !stream && !ratings) || d.kind() == DatasetKind.GRAPH || omegaPublic ? d.rows()
                : null;
        StreamView streamView = d.schema() instanceof StreamSchema s ? new StreamView(s.blockRule().name(), s.graph(),
                s.blockRule() == BlockRule.ROW_COUNT ? s.blockRows() : null,
                s.blockRule() == BlockRule.TIME ? s.blockSeconds() : null,
                s.windowBlocks(), s.windowRows(), s.horizonBlocks(), d.createdAt(), s.periodBlocks()) : null;
        List<Attribute> attributes = d.schema() instanceof HistogramSchema h ? h.attributes().stream()
                .map(a -> new Attribute(a.name(), a.size(), a.labels())).toList() : null;
        Long cols = d.cols(); // d (and a graph's vertex set) is public
        ExternalView externalView = d.schema() instanceof ExternalSchema e ? new ExternalView(
                owner ? e.location() : null, e.format().name(), e.columns(), e.declaredRows(), e.vector()) : null;
        return new DatasetView(d.id(), d.name(), d.owner(), d.kind().name(), d.neighbouring().name(), unit,
                d.rowNormBound(), d.kind() == DatasetKind.GRAPH ? 1.0 : null, d.status().name(), rows, cols,
                owner || omegaPublic ? d.nnz() : null, owner && !ratings ? d.clippedRows() : null,
                d.sourceFormat(), owner ? d.storage() : null, owner ? d.uploadBytes() : null,
                new BudgetView(JsonNumbers.given(b.epsilon()), JsonNumbers.given(b.delta()), b.mode().name(),
                        JsonNumbers.given(b.approxDeltaFraction())),
                d.createdAt(), d.uploadedAt(), attributes, streamView, d.columnLabels(), externalView, ratingsView,
                owner ? d.droppedRatings() : null);
    }
}
