package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.UserRatings;
import java.io.Serializable;
import java.util.Arrays;

/**
 * Users as an engine holds them between passes: a block of users in compressed-row form, each with
 * its canonical ratings (items ascending, centred) and the statistic's state (one value per rating).
 * A block is a few primitive arrays whatever the number of users, so an engine caches, serialises
 * and spills it cheaply (docs/scale-out.md, "EXTERNAL ratings"). Never changed in place:
 * {@link #advanced} returns a new block, so a re-run of a pass starts from the same state.
 */
public final class UserState implements Serializable {

    private static final long serialVersionUID = 2L;

    private final int[] offsets;
    private final int[] items;
    private final double[] centred;
    private final double[] state;

    private UserState(int[] offsets, int[] items, double[] centred, double[] state) {
        this.offsets = offsets;
        this.items = items;
        this.centred = centred;
        this.state = state;
    }

    /** One user in canonical form, with a zero state. */
    static UserState of(UserRatings user) {
        return new UserState(new int[] {0, user.count()}, user.items(), user.centred(), new double[user.count()]);
    }

    /** The users after {@code statistic}'s step (these users when it has none). */
    public UserState advanced(UserStatistic statistic) {
        if (!statistic.advances()) {
            return this;
        }
        double[] next = state.clone();
        for (int u = 0; u + 1 < offsets.length; u++) {
            statistic.advance(items, centred, offsets[u], offsets[u + 1], next);
        }
        return new UserState(offsets, items, centred, next);
    }

    /** Adds every user's contribution to {@code out}, user by user. */
    public void contribute(UserStatistic statistic, ExactSums out) {
        for (int u = 0; u + 1 < offsets.length; u++) {
            statistic.contribute(items, centred, offsets[u], offsets[u + 1], state, out);
            out.endUser();
        }
    }

    int[] items() {
        return items;
    }

    double[] centred() {
        return centred;
    }

    /** The number of ratings kept. */
    public int count() {
        return items.length;
    }

    /** The number of users. */
    public int users() {
        return offsets.length - 1;
    }

    /** Appends bounded users into blocks. */
    public static final class Builder {
        private final RatingsDomain domain;
        private int[] offsets = new int[65];
        private int[] items = new int[1024];
        private double[] centred = new double[1024];
        private int users;

        public Builder(RatingsDomain domain) {
            this.domain = domain;
        }

        /** Appends {@code user} in canonical form (nothing when it kept no rating). */
        public Builder add(BoundedUser user) {
            UserRatings r = user.canonical(domain);
            int count = r.count();
            if (count == 0) {
                return this;
            }
            int nnz = offsets[users];
            if (users + 1 == offsets.length) {
                offsets = Arrays.copyOf(offsets, 2 * offsets.length);
            }
            if (nnz + count > items.length) {
                int size = Math.max(nnz + count, 2 * items.length);
                items = Arrays.copyOf(items, size);
                centred = Arrays.copyOf(centred, size);
            }
            System.arraycopy(r.items(), 0, items, nnz, count);
            System.arraycopy(r.centred(), 0, centred, nnz, count);
            offsets[++users] = nnz + count;
            return this;
        }

        /** The number of ratings appended since the last {@link #build}. */
        public int ratings() {
            return offsets[users];
        }

        /** The users appended so far as one block (zero state); the builder starts empty again. */
        public UserState build() {
            int nnz = offsets[users];
            UserState out = new UserState(Arrays.copyOf(offsets, users + 1), Arrays.copyOf(items, nnz),
                    Arrays.copyOf(centred, nnz), new double[nnz]);
            users = 0;
            return out;
        }
    }
}
