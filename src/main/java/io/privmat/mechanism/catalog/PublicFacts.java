package io.privmat.mechanism.catalog;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.privacy.AccountingMode;
import org.jspecify.annotations.Nullable;

/**
 * Everything a plan may depend on about a dataset: only its public facts. The row count is present
 * only where it is public (REPLACE_ONE matrices; a graph's declared vertex count), so a mechanism
 * cannot make its noise or clamping depend on a private n.
 *
 * @param cols d for a matrix; the vertex count for a graph; the number of cells of a histogram
 * @param publicRows n (a histogram's record count) when it is public, else null
 * @param domain a histogram's declared attributes, else null
 * @param stream a stream's declared block structure, else null (a stream's row count is never a
 *     fact: it grows, and under TIME blocks it is private)
 * @param ratings a ratings dataset's declared items, range, cap and relation, else null (then cols is
 *     the item count n, rowNormBound the bound L = (hi − lo)/2·√s on a user's centred ratings, and the
 *     user count m is a fact only under RATING, where Ω is public)
 */
public record PublicFacts(DataShape shape, int cols, @Nullable Long publicRows, double rowNormBound,
        NeighbouringRelation relation, AccountingMode mode, @Nullable HistogramDomain domain,
        @Nullable StreamLayout stream, @Nullable RatingsFacts ratings) {

    /**
     * The smallest row norm bound a dataset of rows accepts, 10⁻¹⁰⁰. Below about 10⁻¹⁵⁰, B² (every Gram
     * sensitivity) is subnormal or 0: grids were clamped (a charge that did not match the noise), plans
     * threw (500) and releases threw or returned NaN after the charge (eigen- and orbit sampling, Hardt–Roth,
     * Wishart). 10⁻¹⁰⁰ keeps B², B²/n and their noise grids (2⁻¹²·Δ/√p) far inside the normal doubles.
     *
     * <p>Also the declared minimum of an analyst's clip of the rows entering a release (DP_ALS's
     * {@code clip}, PRIVATE_FRANK_WOLFE's {@code gradientClip}): their sensitivities are the clip squared
     * too, so the noise plan refuses a clip below about 10⁻¹⁵⁰ anyway (PrivacyFloors.scaleTooSmall, a
     * 400 naming {@code bound}); declaring 10⁻¹⁰⁰ says in the contract what is accepted.
     */
    public static final double MIN_ROW_NORM_BOUND = 1e-100;

    public PublicFacts {
        if (cols < 1) {
            throw new IllegalArgumentException("cols must be ≥ 1");
        }
        if (relation == NeighbouringRelation.ADD_REMOVE && shape != DataShape.GRAPH && publicRows != null) {
            throw new IllegalArgumentException("under ADD_REMOVE the row count is private");
        }
        if ((shape == DataShape.HISTOGRAM) != (domain != null)) {
            throw new IllegalArgumentException("a histogram, and only a histogram, has a domain");
        }
        if (domain != null && domain.cells() != cols) {
            throw new IllegalArgumentException("a histogram's cells are the product of its domain's sizes");
        }
        if ((shape == DataShape.STREAM) != (stream != null)) {
            throw new IllegalArgumentException("a stream, and only a stream, has a block layout");
        }
        if (stream != null) {
            if (publicRows != null) {
                throw new IllegalArgumentException("a stream has no fixed row count");
            }
            stream.parameters(cols, rowNormBound, relation); // checks d, B and the layout together
        }
        if ((shape == DataShape.RATINGS) != (ratings != null)) {
            throw new IllegalArgumentException("a ratings dataset, and only one, has ratings facts");
        }
        if (ratings != null) {
            if (cols != ratings.domain().items() || rowNormBound != ratings.domain().rowBound()
                    || relation != ratings.rowRelation()) {
                throw new IllegalArgumentException("ratings facts: cols must be n, the bound L, the relation "
                        + ratings.rowRelation());
            }
            if ((publicRows != null) != (ratings.relation() == RatingsRelation.RATING)) {
                throw new IllegalArgumentException("the user count is a fact under RATING only");
            }
        }
    }

    /** Facts of a matrix, a graph, a histogram or a stream (no ratings). */
    public PublicFacts(DataShape shape, int cols, @Nullable Long publicRows, double rowNormBound,
            NeighbouringRelation relation, AccountingMode mode, @Nullable HistogramDomain domain,
            @Nullable StreamLayout stream) {
        this(shape, cols, publicRows, rowNormBound, relation, mode, domain, stream, null);
    }

    /** Facts of a ratings dataset; {@code users} is m, given only under RATING (where Ω is public). */
    public static PublicFacts ratings(RatingsFacts ratings, @Nullable Long users, AccountingMode mode) {
        return new PublicFacts(DataShape.RATINGS, ratings.domain().items(), users, ratings.domain().rowBound(),
                ratings.rowRelation(), mode, null, null, ratings);
    }

    /** Facts of a matrix, a graph or a histogram (no stream layout). */
    public PublicFacts(DataShape shape, int cols, @Nullable Long publicRows, double rowNormBound,
            NeighbouringRelation relation, AccountingMode mode, @Nullable HistogramDomain domain) {
        this(shape, cols, publicRows, rowNormBound, relation, mode, domain, null);
    }

    /** Facts of a stream: d (or the vertex count), B (√2 for edge streams), relation, mode and layout. */
    public static PublicFacts stream(int cols, double rowNormBound, NeighbouringRelation relation, AccountingMode mode,
            StreamLayout layout) {
        return new PublicFacts(DataShape.STREAM, cols, null, rowNormBound, relation, mode, null, layout);
    }

    /** Facts of a matrix or a graph (no declared domain). */
    public PublicFacts(DataShape shape, int cols, @Nullable Long publicRows, double rowNormBound,
            NeighbouringRelation relation, AccountingMode mode) {
        this(shape, cols, publicRows, rowNormBound, relation, mode, null, null);
    }

    /** n, for mechanisms that need it public; refused (400) otherwise. */
    public int requirePublicRows(String mechanism) {
        if (publicRows == null) {
            throw PlanningException.invalid("mechanism", "a mechanism for private n", mechanism
                    + " releases one row per record and needs a public row count (REPLACE_ONE); this dataset is "
                    + relation);
        }
        if (publicRows > Integer.MAX_VALUE - 8) {
            // A public count, so refusing is decided before any charge or data access.
            throw new PlanningException(PlanningException.Reason.DATASET_TOO_LARGE, mechanism + " releases one row "
                    + "per record and holds at most 2^31 - 9 of them; this dataset has " + publicRows + " rows",
                    java.util.Map.of("rows", publicRows, "maxRows", Integer.MAX_VALUE - 8));
        }
        return (int) (long) publicRows;
    }
}
