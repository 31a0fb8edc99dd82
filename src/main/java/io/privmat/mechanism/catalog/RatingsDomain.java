package io.privmat.mechanism.catalog;

import io.privmat.mechanism.Sensitivities;

/**
 * The public parameters of a ratings dataset, declared at creation and never derived from data:
 * the number of items n, the rating range [lo, hi], and the per-user cap s on the number of
 * ratings.
 *
 * <p><b>Centring.</b> Every mechanism works on ratings centred at the public midpoint
 * c = (lo + hi)/2, so a centred rating lies in [−h, h] with h = (hi − lo)/2, and a user's observed
 * centred vector has L2 norm at most {@link #rowBound() L} = h·√s. Centring at a public point
 * costs nothing and halves L for ratings such as 1..5 compared with the uncentred bound
 * max(|lo|, |hi|)·√s. Unobserved entries are not zeros of the data; a prediction of 0 (centred)
 * means "the midpoint".
 *
 * @param items n ≥ 1
 * @param lo the smallest rating
 * @param hi the largest rating, hi &gt; lo
 * @param perUserCap s ≥ 1: the most ratings one user may contribute
 */
public record RatingsDomain(int items, double lo, double hi, int perUserCap) {

    public RatingsDomain {
        if (items < 1) {
            throw new IllegalArgumentException("items must be >= 1");
        }
        if (!Double.isFinite(lo) || !Double.isFinite(hi) || !(hi > lo)) {
            throw new IllegalArgumentException("need finite lo < hi");
        }
        if (!Double.isFinite(hi - lo)) {
            throw new IllegalArgumentException("rating range too wide");
        }
        if (perUserCap < 1 || perUserCap > items) {
            throw new IllegalArgumentException("perUserCap must be in [1, items]");
        }
    }

    /** c = (lo + hi)/2. */
    public double centre() {
        return lo / 2 + hi / 2;
    }

    /** h = (hi − lo)/2, the largest |centred rating|. */
    public double halfRange() {
        return (hi - lo) / 2;
    }

    /** L = h·√s, the bound on a user's observed centred vector (before the sensitivity widening). */
    public double rowBound() {
        return Math.nextUp(halfRange() * Math.sqrt(perUserCap));
    }

    /** hi − lo: how far one rating can move (the RATING relation's entry change). */
    public double entryChange() {
        return Sensitivities.ratingEntryChange(lo, hi);
    }

    /** The rating scale value of a centred prediction, clamped to [lo, hi] (local post-processing). */
    public double toRating(double centred) {
        double r = centred + centre();
        return r < lo ? lo : (r > hi ? hi : r);
    }

    /**
     * Validates one user's ratings and returns them in canonical form: sorted by item, centred and
     * clamped to [−h, h] (a no-op on valid data up to the rounding of the subtraction).
     *
     * @param position the user's position in the pass, or −1 for a single user
     */
    public UserRatings canonical(long position, int user, int[] items, double[] ratings, int count) {
        if (count < 0 || count > items.length || count > ratings.length) {
            throw new InvalidRatingsException(InvalidRatingsException.Reason.MALFORMED_VISIT, position, user, -1);
        }
        if (count > perUserCap) {
            throw new InvalidRatingsException(InvalidRatingsException.Reason.TOO_MANY_RATINGS, position, user, -1);
        }
        long[] keyed = new long[count];
        for (int k = 0; k < count; k++) {
            int item = items[k];
            if (item < 0 || item >= this.items) {
                throw new InvalidRatingsException(InvalidRatingsException.Reason.UNKNOWN_ITEM, position, user, item);
            }
            double r = ratings[k];
            if (!(r >= lo && r <= hi)) {
                throw new InvalidRatingsException(InvalidRatingsException.Reason.RATING_OUT_OF_RANGE, position, user,
                        item);
            }
            keyed[k] = ((long) item << 32) | k;
        }
        java.util.Arrays.sort(keyed);
        int[] sortedItems = new int[count];
        double[] centred = new double[count];
        double c = centre();
        double h = halfRange();
        for (int k = 0; k < count; k++) {
            int item = (int) (keyed[k] >>> 32);
            if (k > 0 && item == sortedItems[k - 1]) {
                throw new InvalidRatingsException(InvalidRatingsException.Reason.DUPLICATE_ITEM, position, user, item);
            }
            sortedItems[k] = item;
            double y = ratings[(int) keyed[k]] - c;
            centred[k] = y < -h ? -h : (y > h ? h : y);
        }
        return new UserRatings(user, sortedItems, centred);
    }
}
