package io.privmat.stream;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Stream settings ({@code privmat.streams.*}).
 *
 * @param schedulerEnabled close due TIME blocks from this replica (every replica may; they lock each
 *     stream's row and skip one another's)
 * @param tick how often the scheduler looks for TIME blocks whose end has passed
 * @param maxAppendValues most values (rows × d) one append may carry; edge streams: most edge events
 * @param stateCacheSize memory for the subscriptions' window states kept between blocks (a state
 *     not in the cache is read from PostgreSQL)
 */
@ConfigurationProperties("privmat.streams")
public record StreamSettings(
        @DefaultValue("true") boolean schedulerEnabled,
        @DefaultValue("1s") Duration tick,
        @DefaultValue("16777216") long maxAppendValues,
        @DefaultValue("1GB") DataSize stateCacheSize) {}
