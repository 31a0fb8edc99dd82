package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.InvalidRatingsException;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.catalog.UserRatings;
import java.util.Arrays;

/**
 * The validated, centred ratings held in memory in compressed-row form (one pass over the
 * source): 4 + 8 bytes per rating plus 8 per user, so O(|Ω|) memory. Users keep the source's order;
 * each user's items are ascending.
 */
final class RatingsMatrix {

    private final RatingsDomain domain;
    private final int[] users;
    private final int[] offsets;
    private final int[] items;
    private final double[] values;

    private RatingsMatrix(RatingsDomain domain, int[] users, int[] offsets, int[] items, double[] values) {
        this.domain = domain;
        this.users = users;
        this.offsets = offsets;
        this.items = items;
        this.values = values;
    }

    /** One validated pass over {@code source}; throws {@link InvalidRatingsException} before any noise is drawn. */
    static RatingsMatrix load(RatingsSource source, RatingsDomain domain) {
        if (source.items() != domain.items()) {
            throw new IllegalArgumentException("the source has " + source.items() + " items, the domain declares "
                    + domain.items());
        }
        Builder b = new Builder(domain);
        source.forEachUser(b::add);
        return b.build();
    }

    private static final class Builder {
        private final RatingsDomain domain;
        private int[] users = new int[1024];
        private int[] offsets = new int[1025];
        private int[] items = new int[1 << 14];
        private double[] values = new double[1 << 14];
        private int m;
        private int nnz;
        private boolean any;
        private int lastUser;

        Builder(RatingsDomain domain) {
            this.domain = domain;
        }

        void add(int user, int[] userItems, double[] ratings, int count) {
            if (any && user <= lastUser) {
                throw new InvalidRatingsException(InvalidRatingsException.Reason.USERS_NOT_INCREASING, m, user, -1);
            }
            UserRatings r = domain.canonical(m, user, userItems, ratings, count);
            any = true;
            lastUser = user;
            if (m == users.length) {
                users = Arrays.copyOf(users, 2 * m);
                offsets = Arrays.copyOf(offsets, 2 * m + 1);
            }
            long needed = (long) nnz + r.count();
            if (needed > Integer.MAX_VALUE - 16) {
                throw new IllegalArgumentException("more than 2^31 ratings");
            }
            if (needed > items.length) {
                int size = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(needed, 2L * items.length));
                items = Arrays.copyOf(items, size);
                values = Arrays.copyOf(values, size);
            }
            System.arraycopy(r.items(), 0, items, nnz, r.count());
            System.arraycopy(r.centred(), 0, values, nnz, r.count());
            users[m] = user;
            nnz += r.count();
            m++;
            offsets[m] = nnz;
        }

        RatingsMatrix build() {
            return new RatingsMatrix(domain, Arrays.copyOf(users, m), Arrays.copyOf(offsets, m + 1),
                    Arrays.copyOf(items, nnz), Arrays.copyOf(values, nnz));
        }
    }

    RatingsDomain domain() {
        return domain;
    }

    int users() {
        return users.length;
    }

    int ratings() {
        return items.length;
    }

    int userId(int index) {
        return users[index];
    }

    int start(int index) {
        return offsets[index];
    }

    int end(int index) {
        return offsets[index + 1];
    }

    int[] items() {
        return items;
    }

    double[] values() {
        return values;
    }

    /** User {@code index} in canonical form (copies). */
    UserRatings user(int index) {
        int from = offsets[index];
        int to = offsets[index + 1];
        return new UserRatings(users[index], Arrays.copyOfRange(items, from, to), Arrays.copyOfRange(values, from, to));
    }

    /**
     * Fixed chunks of users for parallel sums: a function of the number of users only, never of the
     * machine, so sums are added in the same order everywhere (reproducible with seeded noise).
     */
    int[] chunks(int parts) {
        int m = users();
        int p = Math.max(1, Math.min(parts, m));
        int[] bounds = new int[p + 1];
        for (int c = 0; c <= p; c++) {
            bounds[c] = (int) ((long) c * m / p);
        }
        return bounds;
    }
}
