package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsSource;

/**
 * Where the completion mechanisms' per-user passes run: over ratings held in the service
 * ({@link #of}'s default) or where an engine holds them (Spark executors for an
 * EXTERNAL ratings dataset, docs/scale-out.md). Every pass visits every user once, advances the
 * users' state when the statistic has one, and returns the exact sum of their contributions; the
 * number of passes is the mechanism's public plan.
 */
public interface UserPasses extends AutoCloseable {

    /** One pass: Σ over users of {@code statistic}'s contributions, as {@link UserStatistic#finish} reads it. */
    double[] pass(UserStatistic statistic);

    /**
     * Ends the passes of one run (the mechanisms close them in {@code try}-with-resources, also when
     * a pass failed): an engine drops what it cached between passes. Never throws.
     */
    @Override
    default void close() {}

    /**
     * The completion mechanisms' per-user passes over {@code source} (docs/ratings.md, "Exact per-user
     * sums"): an {@link Engine}'s own, where it holds the ratings (only the sums come back); otherwise
     * the ratings are read once ({@link RatingsSource#forEachUser}, validated against {@code domain})
     * and held in memory, O(|Ω|), for every pass.
     */
    static UserPasses of(RatingsSource source, RatingsDomain domain) {
        return source instanceof Engine engine ? engine.passes(domain) : new HeldPasses(RatingsMatrix.load(source, domain));
    }

    /** A ratings source whose engine runs the per-user passes where the ratings are. */
    interface Engine extends RatingsSource {
        UserPasses passes(RatingsDomain domain);
    }
}
