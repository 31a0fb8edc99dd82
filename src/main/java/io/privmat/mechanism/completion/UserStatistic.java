package io.privmat.mechanism.completion;

import java.io.Serializable;

/**
 * One pass of a completion mechanism over the users: every user's contribution is a function of
 * public values (the parameters, earlier noisy releases) and that user's own canonical ratings,
 * quantised and added as integers into {@link ExactSums}, so the sum is the same whoever adds it, in
 * whatever order — in the service over held ratings, or on Spark executors (docs/ratings.md,
 * "Exact per-user sums"). A statistic may carry per-user state from pass to pass (private
 * Frank–Wolfe's predictions on the user's observed items): {@link #advance} moves it with the
 * previous release's broadcast before {@link #contribute} reads it. Serializable: an engine ships it
 * to where the ratings are. Never draws noise.
 */
public interface UserStatistic extends Serializable {

    /** The number of integer entries of the sum. */
    int size();

    /** Whether {@link #advance} changes the state (otherwise it is never called). */
    default boolean advances() {
        return false;
    }

    /**
     * Moves one user's state (positions [from, to) of {@code state}, one value per observed rating)
     * with the previous release's broadcast.
     *
     * @param items the user's items, ascending, positions [from, to)
     * @param centred the user's centred ratings at the same positions
     */
    default void advance(int[] items, double[] centred, int from, int to, double[] state) {}

    /** Adds one user's quantised contribution to {@code out} (at most one term per entry). */
    void contribute(int[] items, double[] centred, int from, int to, double[] state, ExactSums out);

    /** The sum as the mechanism reads it (scaled back from the integers). */
    double[] finish(ExactSums sums);
}
