package io.privmat.mechanism.completion;

import java.io.Serializable;

/**
 * One user as an engine holds them between passes: canonical ratings (items ascending, centred) and
 * the statistic's state (one value per rating). Never changed in place: {@link #advanced} returns a
 * new user, so a re-run of a pass starts from the same state.
 */
public final class UserState implements Serializable {

    private static final long serialVersionUID = 1L;

    private final int[] items;
    private final double[] centred;
    private final double[] state;

    UserState(int[] items, double[] centred, double[] state) {
        this.items = items;
        this.centred = centred;
        this.state = state;
    }

    /** The user after {@code statistic}'s step (this user when it has none). */
    public UserState advanced(UserStatistic statistic) {
        if (!statistic.advances()) {
            return this;
        }
        double[] next = state.clone();
        statistic.advance(items, centred, 0, items.length, next);
        return new UserState(items, centred, next);
    }

    /** Adds this user's contribution to {@code out}. */
    public void contribute(UserStatistic statistic, ExactSums out) {
        statistic.contribute(items, centred, 0, items.length, state, out);
        out.endUser();
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
}
