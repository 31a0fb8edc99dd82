package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.InvalidRatingsException;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsSource;
import java.util.Arrays;

/**
 * A released global model from which a user's completed row is computed locally, from the release
 * and that user's own ratings only (the "billboard" model of joint DP). Deterministic: the same
 * release and the same ratings (in any item order) give bit-identical predictions, equal to the
 * rows the mechanism computed for that user inside the run.
 */
public sealed interface CompletionModel permits FrankWolfeRelease, SvdCompletionRelease, AlsRelease {

    /** The public parameters the model was released for. */
    RatingsDomain domain();

    /**
     * One user's completed row: n predictions on the rating scale, clamped to [lo, hi].
     *
     * @throws InvalidRatingsException if the ratings break the domain (unknown item, out of range,
     *     duplicate item, more than s ratings)
     */
    double[] predict(int[] items, double[] ratings);

    /**
     * Completed rows for every user of {@code source} (one pass), in the source's order: the owner's
     * bulk export. Memory O(n) per row; nothing is kept.
     */
    default void predictAll(RatingsSource source, PredictionSink sink) {
        if (source.items() != domain().items()) {
            throw new IllegalArgumentException("the source has " + source.items() + " items, the model "
                    + domain().items());
        }
        long[] position = {0};
        int[] last = {0};
        boolean[] any = {false};
        source.forEachUser((user, items, ratings, count) -> {
            long at = position[0]++;
            if (any[0] && user <= last[0]) {
                throw new InvalidRatingsException(InvalidRatingsException.Reason.USERS_NOT_INCREASING, at, user, -1);
            }
            if (count < 0 || count > items.length || count > ratings.length) {
                throw new InvalidRatingsException(InvalidRatingsException.Reason.MALFORMED_VISIT, at, user, -1);
            }
            any[0] = true;
            last[0] = user;
            double[] row;
            try {
                row = predict(Arrays.copyOf(items, count), Arrays.copyOf(ratings, count));
            } catch (InvalidRatingsException e) {
                throw new InvalidRatingsException(e.reason(), at, user, e.item());
            }
            sink.row(user, row);
        });
    }
}
