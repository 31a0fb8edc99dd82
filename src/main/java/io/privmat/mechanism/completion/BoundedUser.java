package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.UserRatings;

import java.io.Serializable;
import java.util.Arrays;

/**
 * One user's ratings from a source that is not validated at upload (an EXTERNAL ratings dataset,
 * docs/ratings.md "EXTERNAL ratings"), bounded by a public rule that reads no order: a triple whose
 * item is outside [0, n) or whose rating is not a finite number is ignored; a rating outside
 * [min, max] is clamped into it; of a repeated item the smallest rating is kept; of more than s items
 * the s smallest item ids are kept. The result is a function of the user's multiset of triples, so
 * it does not depend on how the triples are split or merged (partitions, map-side combining, task
 * re-runs), and it always satisfies {@link RatingsDomain#canonical}: nothing about a user's values
 * can fail a pass. Memory O(s) per user whatever the source holds.
 */
public final class BoundedUser implements Serializable {

    private static final long serialVersionUID = 1L;

    private final int items;
    private final int cap;
    private final double lo;
    private final double hi;
    private int[] item = new int[4];
    private double[] rating = new double[4];
    private int count;
    private boolean compact = true;

    public BoundedUser(RatingsDomain domain) {
        this.items = domain.items();
        this.cap = domain.perUserCap();
        this.lo = domain.lo();
        this.hi = domain.hi();
    }

    /** Adds one triple of this user (ignored when the item or the rating is not valid; see the class comment). */
    public BoundedUser add(int itemId, double value) {
        if (itemId < 0 || itemId >= items || !Double.isFinite(value)) {
            return this;
        }
        if (count == item.length) {
            if (count >= 2 * cap) {
                compact();
            }
            if (count == item.length) {
                int size = (int) Math.min(Integer.MAX_VALUE - 16L, 2L * item.length);
                item = Arrays.copyOf(item, size);
                rating = Arrays.copyOf(rating, size);
            }
        }
        item[count] = itemId;
        rating[count] = value < lo ? lo : (value > hi ? hi : value);
        count++;
        compact = false;
        return this;
    }

    /** Adds another part of the same user's triples. */
    public BoundedUser merge(BoundedUser other) {
        other.compact();
        for (int k = 0; k < other.count; k++) {
            add(other.item[k], other.rating[k]);
        }
        return this;
    }

    /** Sorts by item, keeps the smallest rating of a repeated item and the s smallest items. */
    private void compact() {
        if (compact) {
            return;
        }
        long[] keyed = new long[count];
        for (int k = 0; k < count; k++) {
            keyed[k] = ((long) item[k] << 32) | k;
        }
        Arrays.sort(keyed);
        int[] items2 = new int[Math.min(count, cap)];
        double[] ratings2 = new double[items2.length];
        int kept = 0;
        for (int k = 0; k < count; k++) {
            int it = (int) (keyed[k] >>> 32);
            double r = rating[(int) keyed[k]];
            if (kept > 0 && items2[kept - 1] == it) {
                ratings2[kept - 1] = Math.min(ratings2[kept - 1], r);
            } else if (kept < items2.length) {
                items2[kept] = it;
                ratings2[kept++] = r;
            } else {
                break;
            }
        }
        item = Arrays.copyOf(items2, Math.max(4, kept));
        rating = Arrays.copyOf(ratings2, Math.max(4, kept));
        count = kept;
        compact = true;
    }

    /**
     * Writes the kept ratings — items ascending, each once, ratings clamped (not centred) — into
     * {@code items} and {@code ratings} (each of at least s entries) and returns how many. Added to
     * another {@code BoundedUser} of the same domain they are kept as they are, so an engine may bound
     * parts of a user's triples where they are read and merge the parts later (the rule is a function
     * of the multiset: the parts' kept ratings bound to the same user as all the triples).
     */
    public int kept(int[] items, double[] ratings) {
        compact();
        System.arraycopy(item, 0, items, 0, count);
        System.arraycopy(rating, 0, ratings, 0, count);
        return count;
    }

    /** Forgets every triple, so that an engine reuses this object for its next user. */
    public void clear() {
        count = 0;
        compact = true;
    }

    /** Whether the user kept at least one rating. */
    public boolean isEmpty() {
        compact();
        return count == 0;
    }

    /** The user in canonical form (items ascending, centred, clamped), with a zero state. */
    public UserState user(RatingsDomain domain) {
        return UserState.of(canonical(domain));
    }

    /** The user's kept ratings in canonical form (items ascending, centred, clamped to {@code domain}). */
    UserRatings canonical(RatingsDomain domain) {
        compact();
        return domain.canonical(-1, -1, item, rating, count);
    }
}
