package io.privmat.mechanism.catalog;

/**
 * A ratings matrix of users × {@link #items()} items with an observed set Ω, read user by user.
 *
 * <p>Contract: every call of {@link #forEachUser} visits the same users, in the same order, with
 * strictly increasing user ids (a dense index assigned by storage, not a label), and each user at
 * most once. A user's ratings may come in any item order; the arrays may be reused by the source
 * after {@code visit} returns (visitors copy what they keep). Missing entries are not zeros: an
 * item a user did not rate is simply absent. A user with no ratings may be visited with
 * {@code count = 0}. Mechanisms read the source a fixed, public number of times (stated per
 * mechanism), never a data-dependent number.
 */
public interface RatingsSource {

    /** The public number of items n (the item universe declared at creation). */
    int items();

    /** One pass over the users. */
    void forEachUser(UserVisitor visitor);

    /** Receives one user's observed ratings. */
    @FunctionalInterface
    interface UserVisitor {
        /**
         * @param user the user's id (strictly increasing within a pass)
         * @param items item indices in [0, n), the first {@code count} entries are valid
         * @param ratings the ratings of those items, same positions
         * @param count the number of ratings of this user (0 allowed)
         */
        void visit(int user, int[] items, double[] ratings, int count);
    }
}
