package io.privmat.mechanism.catalog;

import java.util.Arrays;

/**
 * A {@link RatingsSource} over arrays in compressed-row form: user u = users[k] has the ratings at
 * positions offsets[k] .. offsets[k + 1] − 1 of items/ratings. Not validated here (the mechanisms
 * validate what they read). For tests, and for callers that already hold ratings in memory.
 */
public final class InMemoryRatings implements RatingsSource {

    private final int n;
    private final int[] users;
    private final int[] offsets;
    private final int[] items;
    private final double[] ratings;

    public InMemoryRatings(int items, int[] users, int[] offsets, int[] itemIndices, double[] ratings) {
        if (offsets.length != users.length + 1 || offsets[0] != 0 || offsets[users.length] > itemIndices.length
                || itemIndices.length != ratings.length) {
            throw new IllegalArgumentException("inconsistent compressed-row arrays");
        }
        for (int k = 0; k < users.length; k++) {
            if (offsets[k + 1] < offsets[k]) {
                throw new IllegalArgumentException("offsets must not decrease");
            }
        }
        this.n = items;
        this.users = users;
        this.offsets = offsets;
        this.items = itemIndices;
        this.ratings = ratings;
    }

    @Override
    public int items() {
        return n;
    }

    public int users() {
        return users.length;
    }

    @Override
    public void forEachUser(UserVisitor visitor) {
        for (int k = 0; k < users.length; k++) {
            int from = offsets[k];
            int to = offsets[k + 1];
            visitor.visit(users[k], Arrays.copyOfRange(items, from, to), Arrays.copyOfRange(ratings, from, to),
                    to - from);
        }
    }
}
