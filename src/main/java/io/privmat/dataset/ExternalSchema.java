package io.privmat.dataset;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An EXTERNAL dataset's declaration: where the rows are (a Parquet or CSV location an engine such as
 * Apache Spark reads: a local path, {@code hdfs://…}, {@code s3a://…}, …), which columns form a row,
 * in order, and — under REPLACE_ONE — the row count n the owner declares. privmat never copies the
 * rows; every statistic is computed where they are (docs/scale-out.md). The declaration is public
 * like the kind and the budget, except the location, which only the owner sees.
 *
 * <p>The row count is never counted from the data and shown: under ADD_REMOVE it is private and not
 * declared; under REPLACE_ONE it is the owner's declaration, and a job whose pass meets another
 * number of rows fails (neighbouring datasets under REPLACE_ONE have the same count, so that
 * failure is the same on both and reveals nothing about one row).
 *
 * @param location where the rows are, as the engine reads it
 * @param format PARQUET or CSV (CSV with a header line naming the columns)
 * @param columns the d column names forming a row, in order
 * @param declaredRows n under REPLACE_ONE; null under ADD_REMOVE
 * @param vector the vector layout (PARQUET only): the one column holding each row as d float64 — a
 *     Parquet list of doubles, or a binary of 8·d bytes, little-endian — instead of the d scalar
 *     columns; {@code columns} then only names the row's entries (and gives d). Null: the d scalar
 *     columns (docs/scale-out.md)
 * @param ratings EXTERNAL ratings: the RATINGS declaration (items, range, per-user cap, relation USER)
 *     of (user, item, rating) triples in the three {@code columns}, read by the completion mechanisms
 *     (docs/ratings.md, "EXTERNAL ratings"). Null: a matrix of rows
 */
public record ExternalSchema(String location, Format format, List<String> columns,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Long declaredRows,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String vector,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable RatingsSchema ratings)
        implements DatasetSchema {

    /** Most columns an EXTERNAL dataset may declare. */
    public static final int MAX_COLUMNS = 65_536;
    /** Longest column name. */
    public static final int MAX_NAME = 200;
    /** Longest location. */
    public static final int MAX_LOCATION = 2000;
    /** Largest declared row count (the engine's accumulators are exact below 2⁴¹ rows). */
    public static final long MAX_ROWS = 1L << 40;

    /**
     * Characters a location may not hold: the engines' file listing expands them as a pattern
     * ({@code {a,b}}, {@code [..]}, {@code *}, {@code ?}) or an escape ({@code \\.}), which could
     * leave an allowed prefix ({@code allowed/{../x,y}}).
     */
    public static final String PATTERN_CHARACTERS = "\\{}[]*?";

    /** Whether the location is a plain path: no pattern character, no {@code ..} segment. */
    public static boolean plainLocation(String location) {
        return location.chars().noneMatch(ch -> PATTERN_CHARACTERS.indexOf(ch) >= 0)
                && Arrays.stream(location.split("/")).noneMatch(segment -> segment.strip().equals(".."));
    }

    /** A source format. */
    public enum Format { PARQUET, CSV }

    public ExternalSchema {
        columns = List.copyOf(columns);
        if (ratings != null && (columns.size() != 3 || vector != null || declaredRows != null)) {
            throw new IllegalArgumentException("EXTERNAL ratings name three columns (user, item, rating), no vector "
                    + "and no row count");
        }
    }

    /** A matrix of rows (no ratings declaration). */
    public ExternalSchema(String location, Format format, List<String> columns, @Nullable Long declaredRows,
            @Nullable String vector) {
        this(location, format, columns, declaredRows, vector, null);
    }

    /** The layout of d scalar columns. */
    public ExternalSchema(String location, Format format, List<String> columns, @Nullable Long declaredRows) {
        this(location, format, columns, declaredRows, null, null);
    }

    /** d. */
    public int d() {
        return columns.size();
    }
}
