package io.privmat.dataset.web;

import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigDecimal;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Body of {@code POST /v1/datasets}. */
@Schema(name = "CreateDatasetRequest", example = "{\"name\": \"ratings-2026\", \"kind\": \"MATRIX\", "
        + "\"rowNormBound\": 1.0, \"budget\": {\"epsilon\": 1, \"delta\": 1e-6}}")
public record CreateDatasetRequest(
        @Schema(description = "Display name, 1–200 characters", requiredMode = Schema.RequiredMode.REQUIRED,
                example = "ratings-2026") @Nullable String name,
        @Schema(description = "MATRIX (rows are privacy units), GRAPH (edges are privacy units), HISTOGRAM "
                + "(counts of records over declared attributes; one record is the privacy unit), STREAM (rows or "
                + "edge events appended in batches and never stored; answered by standing subscriptions) or EXTERNAL "
                + "(a matrix whose rows stay in Parquet or CSV where the owner keeps them, queried like a MATRIX; or, "
                + "with a ratings declaration, user,item,rating triples there, queried like RATINGS) or "
                + "RATINGS (sparse users × items ratings uploaded as user,item,rating triples; one user's ratings or "
                + "one rating is the privacy unit)",
                allowableValues = {"MATRIX", "GRAPH", "HISTOGRAM", "STREAM", "EXTERNAL", "RATINGS"},
                requiredMode = Schema.RequiredMode.REQUIRED)
                @Nullable String kind,
        @Schema(description = "Neighbouring relation; default REPLACE_ONE (n public). ADD_REMOVE keeps n private.",
                allowableValues = {"REPLACE_ONE", "ADD_REMOVE"}, defaultValue = "REPLACE_ONE") @Nullable String neighbouring,
        @Schema(description = "Public L2 bound of a matrix row, in [1e-100, 1e12] (rescale the rows for a smaller "
                + "one); rows are clipped to it at upload (or append). "
                + "Required for MATRIX, EXTERNAL matrices and matrix STREAMs, not allowed for GRAPH and edge STREAMs "
                + "(edge weights must lie in [0, 1]) nor for RATINGS and EXTERNAL ratings.",
                example = "1.0") @Nullable Double rowNormBound,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) @Nullable BudgetRequest budget,
        @Schema(description = "GRAPH (required) and edge STREAM: the public vertex universe, declared by the "
                + "owner. The upload may use only these labels; a declared vertex without edges is a valid vertex. "
                + "It is never derived from the edges, which would reveal which vertices have edges.")
                @Nullable VerticesRequest vertices,
        @Schema(description = "HISTOGRAM only (required there): the attributes of a record and their public "
                + "domains. The histogram's cells are the product of the domains (at most 1048576), first "
                + "attribute slowest.") @Nullable List<AttributeRequest> attributes,
        @Schema(description = "STREAM only (required there): the public block structure. A matrix stream gives "
                + "columns and rowNormBound; an edge stream gives vertices instead (its edge events have weights in "
                + "[0, 1]).") @Nullable StreamRequest stream,
        @Schema(description = "EXTERNAL only (required there): where the rows are and which columns form a row "
                + "(with ratings: the user, item and rating columns, no rows, no vector). privmat never copies them "
                + "(docs/scale-out.md).") @Nullable ExternalRequest external,
        @Schema(description = "RATINGS (required there) and EXTERNAL ratings: the public item universe, rating "
                + "range, per-user cap and relation (USER only for EXTERNAL; docs/ratings.md).")
                @Nullable RatingsRequest ratings) {

    /** Body without a ratings declaration. */
    public CreateDatasetRequest(@Nullable String name, @Nullable String kind, @Nullable String neighbouring,
            @Nullable Double rowNormBound, @Nullable BudgetRequest budget, @Nullable VerticesRequest vertices,
            @Nullable List<AttributeRequest> attributes, @Nullable StreamRequest stream,
            @Nullable ExternalRequest external) {
        this(name, kind, neighbouring, rowNormBound, budget, vertices, attributes, stream, external, null);
    }

    /** Body without an external declaration. */
    public CreateDatasetRequest(@Nullable String name, @Nullable String kind, @Nullable String neighbouring,
            @Nullable Double rowNormBound, @Nullable BudgetRequest budget, @Nullable VerticesRequest vertices,
            @Nullable List<AttributeRequest> attributes, @Nullable StreamRequest stream) {
        this(name, kind, neighbouring, rowNormBound, budget, vertices, attributes, stream, null, null);
    }

    /** Body without a vertex declaration or attributes. */
    public CreateDatasetRequest(@Nullable String name, @Nullable String kind, @Nullable String neighbouring,
            @Nullable Double rowNormBound, @Nullable BudgetRequest budget) {
        this(name, kind, neighbouring, rowNormBound, budget, null, null, null);
    }

    /** Body without a stream declaration. */
    public CreateDatasetRequest(@Nullable String name, @Nullable String kind, @Nullable String neighbouring,
            @Nullable Double rowNormBound, @Nullable BudgetRequest budget, @Nullable VerticesRequest vertices,
            @Nullable List<AttributeRequest> attributes) {
        this(name, kind, neighbouring, rowNormBound, budget, vertices, attributes, null, null, null);
    }

    /**
     * An EXTERNAL dataset's source: a location an engine (Apache Spark) reads, its format, the columns
     * forming a row, and n under REPLACE_ONE.
     */
    @Schema(name = "ExternalRequest", example = "{\"location\": \"s3a://lake/privmat/ratings/\", \"format\": \"PARQUET\", "
            + "\"columns\": [\"a\", \"b\", \"c\"], \"rows\": 1000000}")
    public record ExternalRequest(
            @Schema(description = "A Parquet file or directory, or a CSV file or directory with a header line: a "
                    + "local path or a URI the engine reads (hdfs://, s3a://, gs://, abfss://, file:); it must lie in "
                    + "a directory the service allows (privmat.external.allowed-locations) and be a plain path (no "
                    + "'..' segment, none of \\ { } [ ] * ?). Shown to the owner only.",
                    requiredMode = Schema.RequiredMode.REQUIRED, example = "s3a://lake/privmat/ratings/")
                    @Nullable String location,
            @Schema(description = "PARQUET or CSV. CSV: every line after a file's header is one row (the privacy "
                    + "unit is a line: values must hold no newline — free text belongs in PARQUET); only the declared "
                    + "fields are kept, up to 4096 bytes each (longer: missing); gzip, bzip2 or deflate by suffix; no "
                    + "line fails a pass. A matrix under REPLACE_ONE: PARQUET only (docs/scale-out.md)",
                    allowableValues = {"PARQUET", "CSV"},
                    requiredMode = Schema.RequiredMode.REQUIRED) @Nullable String format,
            @Schema(description = "The d numeric columns forming a row, in order (distinct ignoring case, 1–200 "
                    + "characters, at most 65536). A row with a missing or non-finite value is read as the zero row.",
                    requiredMode = Schema.RequiredMode.REQUIRED) @Nullable List<String> columns,
            @Schema(description = "REPLACE_ONE (required there): n, the number of rows, declared by the owner and "
                    + "public; a job whose pass meets another count fails and keeps its charge. ADD_REMOVE: absent (n "
                    + "is private and never counted for display).", example = "1000000") @Nullable Long rows,
            @Schema(description = "PARQUET only, optional: the vector layout. The one column holding each row as "
                    + "d float64 values — a Parquet list of doubles, or a binary of 8·d bytes, little-endian — "
                    + "instead of the d scalar columns; columns then only names the row's entries (and gives d). "
                    + "A row whose vector is missing, of another length, or holds a missing or non-finite value is "
                    + "read as the zero row (docs/scale-out.md).", example = "features") @Nullable String vector) {

        /** A source of d scalar columns. */
        public ExternalRequest(@Nullable String location, @Nullable String format, @Nullable List<String> columns,
                @Nullable Long rows) {
            this(location, format, columns, rows, null);
        }
    }

    /**
     * A RATINGS dataset's public declaration: the item universe (labels, or only its size n, then the
     * labels are "0" … "n − 1"), the rating range, the per-user cap s and the relation.
     */
    @Schema(name = "RatingsRequest", example = "{\"items\": 400, \"min\": 1, \"max\": 5, \"perUserCap\": 80}")
    public record RatingsRequest(
            @Schema(description = "n, the number of items, in [1, 1048576]; the item labels are then \"0\" … "
                    + "\"n − 1\". Give items or itemLabels (or both, agreeing)", example = "400") @Nullable Integer items,
            @Schema(description = "The item labels in id order (distinct, 1–200 characters, at most 1048576); "
                    + "public, like the rest of the declaration") @Nullable List<String> itemLabels,
            @Schema(description = "The smallest rating (finite)", requiredMode = Schema.RequiredMode.REQUIRED,
                    example = "1") @Nullable Double min,
            @Schema(description = "The largest rating (finite, above min)", requiredMode =
                    Schema.RequiredMode.REQUIRED, example = "5") @Nullable Double max,
            @Schema(description = "s, the most ratings one user contributes, in [1, n]: a user's ratings beyond "
                    + "the first s in upload order are dropped (counted in droppedRatings, owner only)",
                    requiredMode = Schema.RequiredMode.REQUIRED, example = "80") @Nullable Integer perUserCap,
            @Schema(description = "USER (default: one user's ratings is the privacy unit; with ADD_REMOVE a user "
                    + "is added or removed) or RATING (one rating is the unit and which users rated which items is "
                    + "public; REPLACE_ONE only)", allowableValues = {"USER", "RATING"}, defaultValue = "USER")
                    @Nullable String relation) {}

    /**
     * A stream's public block structure: blocks of blockRows rows (in arrival order) or of blockSeconds
     * seconds (from the stream's creation), a window of windowBlocks completed blocks, a horizon of
     * horizonBlocks blocks after which the stream takes no more rows, and optionally periodBlocks, the
     * period after which its budget renews.
     */
    @Schema(name = "StreamRequest", example = "{\"columns\": 3, \"blockRows\": 100, \"windowBlocks\": 10, "
            + "\"horizonBlocks\": 1000}")
    public record StreamRequest(
            @Schema(description = "Matrix streams: d, the row width, in [1, 5000]", example = "3") @Nullable Integer columns,
            @Schema(description = "b: rows (edge events) per block, in [1, 2^30]; exactly one of blockRows and "
                    + "blockSeconds", example = "100") @Nullable Integer blockRows,
            @Schema(description = "Block length in seconds, in [1, 31622400]: blocks close at public times "
                    + "(creation + i·blockSeconds), empty ones too; the rows per block stay private")
                    @Nullable Long blockSeconds,
            @Schema(description = "w: completed blocks per window, in [1, 1048576]", requiredMode =
                    Schema.RequiredMode.REQUIRED, example = "10") @Nullable Integer windowBlocks,
            @Schema(description = "T: the most blocks the stream releases, in [1, 2^40]; no cost depends on it",
                    requiredMode = Schema.RequiredMode.REQUIRED, example = "1000") @Nullable Long horizonBlocks,
            @Schema(description = "P: the budget renews every P blocks, in [1, 10^9]: the dataset's budget is then per "
                    + "period (blocks [kP, (k+1)P)) and a subscription is charged once for each period it reads. "
                    + "Absent: the budget never renews. Streams blocked by row count (blockRows) only for now: refused on "
                    + "TIME streams (docs/accounting.md §13)") @Nullable Long periodBlocks) {}

    /** One attribute of a histogram's records: its name and its domain, by size, by labels, or both. */
    @Schema(name = "AttributeRequest", example = "{\"name\": \"region\", \"labels\": [\"north\", \"south\"]}")
    public record AttributeRequest(
            @Schema(description = "1–200 characters, distinct", requiredMode = Schema.RequiredMode.REQUIRED,
                    example = "age") @Nullable String name,
            @Schema(description = "Values are coded 0 … size − 1; optional when labels are given", example = "16")
                    @Nullable Integer size,
            @Schema(description = "Names of the values in code order (distinct, 1–200 characters); uploads may use "
                    + "a label or its code") @Nullable List<String> labels) {}

    /** A graph's declared vertex universe: either a count (labels "0" … "count − 1") or the labels. */
    @Schema(name = "VerticesRequest")
    public record VerticesRequest(
            @Schema(description = "Labels \"0\" … \"count − 1\"; in [1, 1000000]", example = "1500")
                    @Nullable Integer count,
            @Schema(description = "Distinct labels, 1–1000 characters each, at most 1000000") @Nullable
                    List<String> labels) {}

    /** The dataset's total privacy budget. */
    @Schema(name = "BudgetRequest")
    public record BudgetRequest(
            @Schema(description = "Total epsilon, in (0, 100]", requiredMode = Schema.RequiredMode.REQUIRED,
                    example = "1.0") @Nullable BigDecimal epsilon,
            @Schema(description = "Total delta: (0, 0.01] for ZCDP and GDP, [0, 0.01] for BASIC, 0 for PURE",
                    requiredMode = Schema.RequiredMode.REQUIRED, example = "1e-6") @Nullable BigDecimal delta,
            @Schema(description = "Accounting mode; default ZCDP", allowableValues = {"ZCDP", "BASIC", "PURE", "GDP"},
                    defaultValue = "ZCDP")
                    @Nullable String accounting,
            @Schema(description = "ZCDP only: share of delta reserved for (epsilon, delta)-only mechanisms, "
                    + "in [0, 1); default 0.1") @Nullable BigDecimal approxDeltaFraction) {}
}
