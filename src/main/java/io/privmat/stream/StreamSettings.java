package io.privmat.stream;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Stream settings ({@code privmat.streams.*}).
 *
 * @param schedulerEnabled close due TIME blocks from this replica (every replica may; they take
 *     each stream's row lock in turn). TIME blocks are released by a scheduler only: at least one
 *     replica must run it
 * @param tick how often the scheduler looks for TIME blocks whose end has passed
 * @param releaseDelay D: a TIME block's releases are shown (to everyone) from start + (i + 1)·s + D
 *     on, never earlier, whenever they were computed; it must exceed the tick, the lock timeout
 *     and the time to compute a block's releases, or releases are late (docs/mechanisms/windows.md,
 *     "Timing")
 * @param lockTimeout how long the scheduler waits for a stream's row lock held by an append or
 *     another replica before it tries again at the next tick
 * @param maxAppendValues most values (rows × d) one append may carry; edge streams: most edge events
 * @param stateCacheSize memory for the subscriptions' window states kept between blocks (a state
 *     not in the cache is read from PostgreSQL)
 */
@ConfigurationProperties("privmat.streams")
public record StreamSettings(
        @DefaultValue("true") boolean schedulerEnabled,
        @DefaultValue("1s") Duration tick,
        @DefaultValue("30s") Duration releaseDelay,
        @DefaultValue("10s") Duration lockTimeout,
        @DefaultValue("16777216") long maxAppendValues,
        @DefaultValue("1GB") DataSize stateCacheSize) {

    public StreamSettings {
        if (releaseDelay.isNegative() || lockTimeout.isNegative() || lockTimeout.isZero()) {
            throw new IllegalArgumentException("privmat.streams.release-delay must be >= 0 and "
                    + "privmat.streams.lock-timeout > 0");
        }
    }
}
