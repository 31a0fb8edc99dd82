package io.privmat.mechanism.completion;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.InMemoryRatings;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.RatingsSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The claims an engine relies on, without one: the per-user sums are the same integers however the
 * users are split and merged ({@link ExactSums}), the in-process passes give the same statistic as
 * users summed one by one in any order, and {@link BoundedUser} reduces a user's triples to the same
 * user whatever their order and split, keeping what the public rule says.
 */
class ExactPassesTest {

    static final RatingsDomain DOMAIN = new RatingsDomain(9, 1, 5, 4);

    /** Seeded users of 1..4 distinct items, ratings anywhere in [1, 5]. */
    static List<UserState> users(int m, long seed) {
        return bounded(m, seed).stream().map(b -> b.user(DOMAIN)).toList();
    }

    static List<BoundedUser> bounded(int m, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<BoundedUser> out = new ArrayList<>();
        for (int u = 0; u < m; u++) {
            BoundedUser b = new BoundedUser(DOMAIN);
            int k = 1 + random.nextInt(4);
            for (int i = 0; i < k; i++) {
                b.add(random.nextInt(9), random.nextDouble(1, 5));
            }
            out.add(b);
        }
        return out;
    }

    /** A block of users (as an engine caches them) sums to the same integers as its users one by one. */
    @Test
    void aBlockOfUsersSumsLikeItsUsersOneByOne() {
        UserState.Builder builder = new UserState.Builder(DOMAIN);
        for (BoundedUser b : bounded(200, 9)) {
            builder.add(b);
        }
        builder.add(new BoundedUser(DOMAIN).add(9, 3)); // kept nothing: not a user of the block
        UserState block = builder.build();
        List<UserState> users = users(200, 9);
        assertThat(block.users()).isEqualTo(200);
        assertThat(block.count()).isEqualTo(users.stream().mapToInt(UserState::count).sum());
        UserStatistic gram = new RatingsGramStatistic(DOMAIN);
        assertThat(sum(List.of(block), gram).same(sum(users, gram))).isTrue();
        assertThat(builder.build().users()).isZero(); // the builder starts empty again
    }

    static ExactSums sum(List<UserState> users, UserStatistic statistic) {
        ExactSums out = new ExactSums(statistic.size());
        for (UserState u : users) {
            u.contribute(statistic, out);
        }
        return out;
    }

    @Test
    void sumsAreTheSameIntegersForAnySplitAndMergeOrder() {
        List<UserState> users = users(500, 3);
        UserStatistic gram = new RatingsGramStatistic(DOMAIN);
        ExactSums whole = sum(users, gram);
        Random shuffle = new Random(4);
        for (int trial = 0; trial < 5; trial++) {
            List<UserState> order = new ArrayList<>(users);
            Collections.shuffle(order, shuffle);
            int parts = 2 + trial;
            List<ExactSums> pieces = new ArrayList<>();
            for (int p = 0; p < parts; p++) {
                pieces.add(sum(order.subList(p * order.size() / parts, (p + 1) * order.size() / parts), gram));
            }
            Collections.shuffle(pieces, shuffle);
            ExactSums merged = pieces.get(0);
            for (int p = 1; p < parts; p++) {
                merged = pieces.get(p).merge(merged);
            }
            assertThat(merged.same(whole)).as("trial " + trial).isTrue();
        }
        // Not vacuous: another set of users sums to other integers.
        assertThat(sum(users(500, 5), gram).same(whole)).isFalse();
    }

    @Test
    void heldPassesGiveTheSumOfTheUsersOneByOne() {
        List<UserState> users = users(300, 6);
        // The same users as a source (ids in order), through the default passes.
        int[] ids = new int[users.size()];
        List<Integer> items = new ArrayList<>();
        List<Double> ratings = new ArrayList<>();
        int[] offsets = new int[users.size() + 1];
        for (int u = 0; u < users.size(); u++) {
            ids[u] = u;
            UserState s = users.get(u);
            for (int p = 0; p < s.count(); p++) {
                items.add(s.items()[p]);
                ratings.add(s.centred()[p] + DOMAIN.centre());
            }
            offsets[u + 1] = items.size();
        }
        RatingsSource source = new InMemoryRatings(9, ids, offsets, items.stream().mapToInt(Integer::intValue).toArray(),
                ratings.stream().mapToDouble(Double::doubleValue).toArray());
        AlsParameters als = new AlsParameters(DOMAIN, RatingsRelation.USER, 2, 1, 0.1, 1, 0.7, 0.3);
        double[] v = new SplittableRandom(7).doubles(9 * 2, -1, 1).toArray();
        UserStatistic statistic = new AlsItemStatistic(als, v);
        double[] held = UserPasses.of(source, DOMAIN).pass(statistic);
        assertThat(held).containsExactly(statistic.finish(sum(users, statistic)));
        assertThat(held).isNotEqualTo(new double[held.length]);
    }

    @Test
    void aUsersTriplesBoundToTheSameUserWhateverTheirOrderAndSplit() {
        // Items 0…8 with a repeat, two out-of-range ratings, invalid items and ratings.
        int[] item = {7, 3, 3, 8, 0, 5, 9, -1, 2, 6};
        double[] rating = {2, 4.5, 1.5, 7, 3, -2, 4, 4, Double.NaN, 5};
        UserStatistic gram = new RatingsGramStatistic(DOMAIN);
        ExactSums expected = null;
        Random shuffle = new Random(8);
        for (int trial = 0; trial < 6; trial++) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < item.length; i++) {
                order.add(i);
            }
            Collections.shuffle(order, shuffle);
            BoundedUser left = new BoundedUser(DOMAIN);
            BoundedUser right = new BoundedUser(DOMAIN);
            for (int k = 0; k < order.size(); k++) {
                (k < trial ? left : right).add(item[order.get(k)], rating[order.get(k)]);
            }
            UserState user = (trial % 2 == 0 ? left.merge(right) : right.merge(left)).user(DOMAIN);
            // The s = 4 smallest valid items, 0, 3, 5, 6; item 3 keeps its smaller rating; −2 clamped to 1.
            assertThat(user.items()).containsExactly(0, 3, 5, 6);
            assertThat(user.centred()).containsExactly(3 - 3.0, 1.5 - 3, 1 - 3.0, 5 - 3.0);
            ExactSums one = new ExactSums(gram.size());
            user.contribute(gram, one);
            if (expected == null) {
                expected = one;
            }
            assertThat(one.same(expected)).isTrue();
        }
        assertThat(new BoundedUser(DOMAIN).add(9, 3).add(0, Double.POSITIVE_INFINITY).isEmpty()).isTrue();
    }

    /**
     * What an engine does where the triples are read: each part's kept ratings, added to one user
     * object cleared and reused, bound to the same user as all the triples at once, for every split.
     */
    @Test
    void thePartsKeptRatingsAddedToAReusedUserBoundToTheSameUser() {
        int[] item = {7, 3, 3, 8, 0, 5, 9, -1, 2, 6};
        double[] rating = {2, 4.5, 1.5, 7, 3, -2, 4, 4, Double.NaN, 5};
        BoundedUser reused = new BoundedUser(DOMAIN).add(1, 2).add(4, 3); // cleared before each use
        int[] items = new int[DOMAIN.perUserCap()];
        double[] ratings = new double[DOMAIN.perUserCap()];
        for (int split = 0; split <= item.length; split++) {
            reused.clear();
            for (int[] part : new int[][] {{0, split}, {split, item.length}}) {
                BoundedUser kept = new BoundedUser(DOMAIN);
                for (int k = part[0]; k < part[1]; k++) {
                    kept.add(item[k], rating[k]);
                }
                int count = kept.kept(items, ratings);
                assertThat(count).isLessThanOrEqualTo(DOMAIN.perUserCap());
                for (int k = 0; k < count; k++) {
                    reused.add(items[k], ratings[k]);
                }
            }
            UserState user = reused.user(DOMAIN);
            assertThat(user.items()).containsExactly(0, 3, 5, 6);
            assertThat(user.centred()).containsExactly(3 - 3.0, 1.5 - 3, 1 - 3.0, 5 - 3.0);
        }
    }
}
