package io.privmat.dataset.web;

import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.ExternalSchema;
import io.privmat.dataset.Neighbouring;
import io.privmat.dataset.RatingsSchema;
import io.privmat.problem.PrivmatException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Validates an EXTERNAL dataset's declaration (required for EXTERNAL, refused for other kinds). The
 * allowed location prefixes are checked by the service, which knows its configuration.
 */
final class ExternalDeclaration {

    private ExternalDeclaration() {}

    static @Nullable ExternalSchema validate(DatasetKind kind, CreateDatasetRequest.@Nullable ExternalRequest e,
            Neighbouring neighbouring, @Nullable RatingsSchema ratings) {
        if (kind != DatasetKind.EXTERNAL) {
            if (e != null) {
                throw PrivmatException.invalidParameter("external", "absent", "external applies to an EXTERNAL only");
            }
            return null;
        }
        if (e == null) {
            throw PrivmatException.invalidParameter("external", "an object", "an EXTERNAL dataset needs its source: "
                    + "{\"location\": …, \"format\": \"PARQUET\" | \"CSV\", \"columns\": [...], \"rows\": n (REPLACE_ONE), "
                    + "\"vector\": column (optional, PARQUET)}");
        }
        // Every check runs on the location as stored (stripped): "/allowed/.. " must not pass as a name.
        String location = e.location() == null ? null : e.location().strip();
        if (location == null || location.isBlank() || location.length() > ExternalSchema.MAX_LOCATION
                || location.chars().anyMatch(Character::isISOControl)) {
            throw PrivmatException.invalidParameter("external.location", "1–" + ExternalSchema.MAX_LOCATION
                    + " characters", "external.location is required (a path or URI, 1–" + ExternalSchema.MAX_LOCATION
                    + " characters, no control characters)");
        }
        // A prefix check must not be escapable: no ".." segment, and nothing the engine's file
        // listing would expand as a pattern or an escape (allowed/{../x,y}, allowed/\\.\\./x).
        if (!ExternalSchema.plainLocation(location)) {
            throw PrivmatException.invalidParameter("external.location", "a plain path",
                    "external.location must be a plain path: no '..' segment and none of "
                            + ExternalSchema.PATTERN_CHARACTERS.chars().mapToObj(ch -> "'" + (char) ch + "'")
                                    .collect(Collectors.joining(" ")));
        }
        ExternalSchema.Format format;
        try {
            format = ExternalSchema.Format.valueOf(e.format() == null ? "" : e.format().strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException x) {
            throw PrivmatException.invalidParameter("external.format", "PARQUET | CSV",
                    "external.format is required: PARQUET or CSV");
        }
        List<String> columns = e.columns();
        if (columns == null || columns.isEmpty() || columns.size() > ExternalSchema.MAX_COLUMNS) {
            throw PrivmatException.invalidParameter("external.columns", "1 to " + ExternalSchema.MAX_COLUMNS
                    + " names", "external.columns must list 1 to " + ExternalSchema.MAX_COLUMNS + " column names");
        }
        // Distinct ignoring case: the engine resolves a column name ignoring case, so "A" and "a" would
        // be one ambiguous column, failing every pass after its charge.
        Set<String> seen = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < columns.size(); i++) {
            String c = columns.get(i);
            if (c == null || c.isEmpty() || c.length() > ExternalSchema.MAX_NAME
                    || c.chars().anyMatch(Character::isISOControl)) {
                throw PrivmatException.invalidParameter("external.columns[" + i + "]", "1–" + ExternalSchema.MAX_NAME
                        + " characters", "external.columns[" + i + "] must have 1–" + ExternalSchema.MAX_NAME
                        + " characters");
            }
            if (!seen.add(c)) {
                throw PrivmatException.invalidParameter("external.columns[" + i + "]", "distinct names",
                        "external.columns[" + i + "] repeats an earlier column (names are compared ignoring case)");
            }
        }
        Long rows = e.rows();
        if (ratings != null) {
            return ratings(e, location.strip(), format, columns, ratings);
        }
        if (neighbouring == Neighbouring.REPLACE_ONE) {
            // n is public under REPLACE_ONE: the owner declares it; it is never counted and shown.
            if (rows == null || rows < 1 || rows > ExternalSchema.MAX_ROWS) {
                throw PrivmatException.invalidParameter("external.rows", "[1, " + ExternalSchema.MAX_ROWS + "]",
                        "under REPLACE_ONE the owner declares n: external.rows is required and must be in [1, "
                                + ExternalSchema.MAX_ROWS + "] but was " + rows);
            }
        } else if (rows != null) {
            throw PrivmatException.invalidParameter("external.rows", "absent", "under ADD_REMOVE n is private: "
                    + "external.rows must be absent");
        }
        String vector = e.vector();
        if (vector != null) {
            if (format != ExternalSchema.Format.PARQUET) {
                throw PrivmatException.invalidParameter("external.vector", "absent for CSV",
                        "external.vector (one column holding the row as d float64) needs format PARQUET");
            }
            if (vector.isEmpty() || vector.length() > ExternalSchema.MAX_NAME
                    || vector.chars().anyMatch(Character::isISOControl)) {
                throw PrivmatException.invalidParameter("external.vector", "1–" + ExternalSchema.MAX_NAME
                        + " characters", "external.vector must name one column (1–" + ExternalSchema.MAX_NAME
                        + " characters, no control characters)");
            }
        }
        if (neighbouring == Neighbouring.REPLACE_ONE && format == ExternalSchema.Format.CSV) {
            // Under REPLACE_ONE a pass that meets another row count than n fails the job. A CSV row is
            // a line, and a value written with a newline inside quotes is two lines, so one replaced
            // row could decide that failure; a Parquet row is a row whatever it holds.
            throw PrivmatException.invalidParameter("external.format", "PARQUET under REPLACE_ONE",
                    "under REPLACE_ONE an EXTERNAL matrix must be PARQUET: a CSV row is a line, and a value "
                            + "holding a newline is several, so the count could differ between neighbouring datasets");
        }
        return new ExternalSchema(location.strip(), format, columns, rows, vector);
    }

    /**
     * EXTERNAL ratings: three columns (user, item, rating), no row count (the number of users is
     * private under USER) and no vector layout.
     */
    private static ExternalSchema ratings(CreateDatasetRequest.ExternalRequest e, String location,
            ExternalSchema.Format format, List<String> columns, RatingsSchema ratings) {
        if (columns.size() != 3) {
            throw PrivmatException.invalidParameter("external.columns", "[user, item, rating]",
                    "EXTERNAL ratings name three columns, in order: the user, the item and the rating");
        }
        if (e.rows() != null) {
            throw PrivmatException.invalidParameter("external.rows", "absent", "EXTERNAL ratings declare no row "
                    + "count: the number of users and of ratings is private under the USER relation");
        }
        if (e.vector() != null) {
            throw PrivmatException.invalidParameter("external.vector", "absent",
                    "external.vector applies to a matrix of rows, not to ratings");
        }
        return new ExternalSchema(location, format, columns, null, null, ratings);
    }
}
