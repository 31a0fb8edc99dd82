package io.privmat.mechanism.completion;

/**
 * Where the completion mechanisms' per-user passes run: over ratings held in the service
 * ({@link RatingsSource#passes}'s default) or where an engine holds them (Spark executors for an
 * EXTERNAL ratings dataset, docs/scale-out.md). Every pass visits every user once, advances the
 * users' state when the statistic has one, and returns the exact sum of their contributions; the
 * number of passes is the mechanism's public plan.
 */
public interface UserPasses {

    /** One pass: Σ over users of {@code statistic}'s contributions, as {@link UserStatistic#finish} reads it. */
    double[] pass(UserStatistic statistic);
}
