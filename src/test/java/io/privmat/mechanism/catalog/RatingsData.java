package io.privmat.mechanism.catalog;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.privacy.AccountingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A small ratings dataset as a {@link DataAccess}, for the mechanism contract tests: users' item
 * lists (ascending, distinct) and their ratings in the test domain.
 */
public record RatingsData(List<int[]> userItems, List<double[]> userRatings) implements DataAccess {

    /** 6 items, ratings 1..5, at most 3 per user (2s ≤ n, so two users at the cap can be disjoint). */
    public static final RatingsDomain DOMAIN = new RatingsDomain(6, 1, 5, 3);

    /** The facts of a test ratings dataset: USER under REPLACE_ONE, USER_ADD_REMOVE under ADD_REMOVE. */
    static PublicFacts facts(NeighbouringRelation relation, AccountingMode mode) {
        return PublicFacts.ratings(new RatingsFacts(DOMAIN, relation == NeighbouringRelation.ADD_REMOVE
                ? RatingsRelation.USER_ADD_REMOVE : RatingsRelation.USER), null, mode);
    }

    /** The facts of a test ratings dataset under RATING: Ω, hence the user count, is public. */
    public static PublicFacts ratingFacts(AccountingMode mode, int users) {
        return PublicFacts.ratings(new RatingsFacts(DOMAIN, RatingsRelation.RATING), (long) users, mode);
    }

    public static RatingsData random(SplittableRandom random, int users) {
        List<int[]> items = new ArrayList<>();
        List<double[]> ratings = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            int[] row = randomUser(random);
            items.add(row);
            ratings.add(randomRatings(random, row.length));
        }
        return new RatingsData(items, ratings);
    }

    static int[] randomUser(SplittableRandom random) {
        int count = 1 + random.nextInt(DOMAIN.perUserCap());
        int[] all = {0, 1, 2, 3, 4, 5};
        for (int i = all.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = all[i];
            all[i] = all[j];
            all[j] = t;
        }
        int[] row = Arrays.copyOf(all, count);
        Arrays.sort(row);
        return row;
    }

    static double[] randomRatings(SplittableRandom random, int count) {
        double[] r = new double[count];
        for (int k = 0; k < count; k++) {
            r[k] = DOMAIN.lo() + random.nextDouble() * (DOMAIN.hi() - DOMAIN.lo());
        }
        return r;
    }

    /** A random dataset of {@code users} users and a neighbour; every third pair is adversarial. */
    static DataAccess[] pair(NeighbouringRelation relation, SplittableRandom random, int users, int trial) {
        RatingsData x = random(random, users);
        boolean adversarial = trial % 3 == 0;
        int s = DOMAIN.perUserCap();
        int[] top = new int[s];
        double[] high = new double[s];
        double[] low = new double[s];
        for (int k = 0; k < s; k++) {
            top[k] = k;
            high[k] = DOMAIN.hi();
            low[k] = DOMAIN.lo();
        }
        if (relation == NeighbouringRelation.ADD_REMOVE) {
            int[] other = randomUser(random);
            return new DataAccess[] {x, adversarial ? x.withUser(top, high)
                    : x.withUser(other, randomRatings(random, other.length))};
        }
        int i = random.nextInt(users);
        if (adversarial) {
            return new DataAccess[] {x.replaced(i, top, high), x.replaced(i, top, low)};
        }
        int[] other = randomUser(random);
        return new DataAccess[] {x, x.replaced(i, other, randomRatings(random, other.length))};
    }

    /**
     * RATING: a random dataset and a neighbour with one observed rating changed (Ω unchanged); every
     * third pair is adversarial (the top of the range against the bottom).
     */
    static DataAccess[] ratingPair(SplittableRandom random, int users, int trial) {
        double after = trial % 3 == 0 ? DOMAIN.lo() : randomRatings(random, 1)[0];
        double before = trial % 3 == 0 ? DOMAIN.hi() : Double.NaN;
        return changedRating(random(random, users), random, before, after);
    }

    /** {@code x} with one random observed rating set to {@code before} (kept when NaN), and to {@code after}. */
    static DataAccess[] changedRating(RatingsData x, SplittableRandom random, double before, double after) {
        int i = random.nextInt(x.users());
        int p = random.nextInt(x.userItems().get(i).length);
        double[] b = x.userRatings().get(i).clone();
        if (!Double.isNaN(before)) {
            b[p] = before;
        }
        double[] a = b.clone();
        a[p] = after;
        int[] items = x.userItems().get(i);
        return new DataAccess[] {x.replaced(i, items, b), x.replaced(i, items, a)};
    }

    /** A random base of {@code users} users and its neighbour by a declared change. */
    static DataAccess[] apply(NeighbouringChange change, SplittableRandom random, int users) {
        RatingsData x = random(random, users);
        if (change instanceof NeighbouringChange.ChangedRating c) {
            return changedRating(x, random, c.before(), c.after());
        }
        if (change instanceof NeighbouringChange.AddedUser a) {
            return new DataAccess[] {x, x.withUser(a.items(), a.ratings())};
        }
        NeighbouringChange.ReplacedUser r = (NeighbouringChange.ReplacedUser) change;
        int i = random.nextInt(users);
        return new DataAccess[] {x.replaced(i, r.beforeItems(), r.beforeRatings()),
                x.replaced(i, r.afterItems(), r.afterRatings())};
    }

    RatingsData withUser(int[] items, double[] ratings) {
        List<int[]> i = new ArrayList<>(this.userItems);
        List<double[]> r = new ArrayList<>(this.userRatings);
        i.add(items.clone());
        r.add(ratings.clone());
        return new RatingsData(i, r);
    }

    RatingsData replaced(int user, int[] items, double[] ratings) {
        List<int[]> i = new ArrayList<>(this.userItems);
        List<double[]> r = new ArrayList<>(this.userRatings);
        i.set(user, items.clone());
        r.set(user, ratings.clone());
        return new RatingsData(i, r);
    }

    int users() {
        return userItems.size();
    }

    @Override
    public RatingsSource ratings() {
        int m = userItems.size();
        int[] users = new int[m];
        int[] offsets = new int[m + 1];
        for (int u = 0; u < m; u++) {
            users[u] = u;
            offsets[u + 1] = offsets[u] + userItems.get(u).length;
        }
        int[] all = new int[offsets[m]];
        double[] values = new double[offsets[m]];
        for (int u = 0; u < m; u++) {
            System.arraycopy(userItems.get(u), 0, all, offsets[u], userItems.get(u).length);
            System.arraycopy(userRatings.get(u), 0, values, offsets[u], userRatings.get(u).length);
        }
        return new InMemoryRatings(DOMAIN.items(), users, offsets, all, values);
    }

    @Override
    public double[] columnSums() {
        throw new UnsupportedOperationException("ratings");
    }

    @Override
    public Gram gram(boolean withSums) {
        throw new UnsupportedOperationException("ratings");
    }

    @Override
    public RowStream rows(int passes) {
        throw new UnsupportedOperationException("ratings");
    }

    @Override
    public EdgeSource edges() {
        throw new UnsupportedOperationException("ratings");
    }
}
