package io.privmat.strategy;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Strategy computation and caching ({@code privmat.strategies.*}; docs/reliability.md, "Free work and
 * storage"). A caller is an API key, a tenant its subject (every key of one owner or analyst).
 *
 * @param cacheBytes strategies kept in memory per replica, in bytes
 * @param threads background computations run at once per replica
 * @param queue computations waiting per replica, all callers together (503 beyond)
 * @param maxQueuedPerCaller computations one key may have waiting (429 beyond)
 * @param maxQueuedPerTenant computations one subject may have waiting (429 beyond)
 * @param maxRunningPerCaller computations of one key running at once; the queue serves callers round
 *     robin and skips one at its limit
 * @param maxRunningPerTenant computations of one subject running at once
 * @param maxComputeTime wall-clock limit of one computation: it is cancelled beyond (CANCELLED,
 *     reason TIME_LIMIT); with {@code referenceRate} it is also the operations budget a computation is
 *     planned for (an optimisation is capped at it; one whose smallest useful run exceeds it
 *     is refused with 422 before it is queued)
 * @param referenceRate floating-point operations per second one computation is assumed to get while it
 *     runs (the estimate's unit); lower is safer. Default: what two shared cores achieved under a load
 *     of 10–15
 * @param cpuShare the share of wall-clock time a background computation may run: after each
 *     iteration it pauses so that its running time stays within this share (requests and paid jobs
 *     get the rest); its operations budget is {@code maxComputeTime × cpuShare × referenceRate}
 * @param maxMemory memory one computation may use, as estimated from its sizes (422 beyond); at most a
 *     third of the maximum heap whatever is set
 * @param inlineMaxTime a small computation asked for by a quote or submission runs on the request's
 *     thread for at most this long, then moves to the queue (409 strategy-not-ready)
 * @param maxInline small computations running on request threads at once per replica; beyond, they go
 *     to the queue
 * @param maxInlinePerCaller small computations of one key running on request threads at once
 * @param retryAfter the Retry-After of a 503 (queue full) or 429 (a caller's quota)
 * @param retention a stored strategy no plan has read for this long is deleted (unless an estimate
 *     release names it)
 * @param maxStoredBytes stored strategies that no release names are kept within this many bytes,
 *     least recently used deleted first
 * @param pruneInterval how often the pruning job runs (0: never)
 * @param timeLimitRetry how long a computation cancelled at its time limit is remembered on a replica
 *     (requests for it get 422 strategy-failed meanwhile); after it, the next request queues it again
 *     (a slow replica, not the task, may have been the cause)
 */
@ConfigurationProperties("privmat.strategies")
public record StrategySettings(
        @DefaultValue("268435456") long cacheBytes,
        @DefaultValue("1") int threads,
        @DefaultValue("32") int queue,
        @DefaultValue("2") int maxQueuedPerCaller,
        @DefaultValue("4") int maxQueuedPerTenant,
        @DefaultValue("1") int maxRunningPerCaller,
        @DefaultValue("1") int maxRunningPerTenant,
        @DefaultValue("10m") Duration maxComputeTime,
        @DefaultValue("2e9") double referenceRate,
        @DefaultValue("0.5") double cpuShare,
        @DefaultValue("512MB") DataSize maxMemory,
        @DefaultValue("10s") Duration inlineMaxTime,
        @DefaultValue("2") int maxInline,
        @DefaultValue("1") int maxInlinePerCaller,
        @DefaultValue("5s") Duration retryAfter,
        @DefaultValue("30d") Duration retention,
        @DefaultValue("1GB") DataSize maxStoredBytes,
        @DefaultValue("1h") Duration pruneInterval,
        @DefaultValue("30m") Duration timeLimitRetry) {

    public StrategySettings {
        if (threads < 1 || queue < 0 || maxQueuedPerCaller < 0 || maxQueuedPerTenant < 0 || maxRunningPerCaller < 1
                || maxRunningPerTenant < 1 || maxInline < 0 || maxInlinePerCaller < 0) {
            throw new IllegalArgumentException("privmat.strategies: threads and running limits must be at least 1, "
                    + "queue and inline limits not negative");
        }
        if (!(cpuShare > 0) || cpuShare > 1) {
            throw new IllegalArgumentException("privmat.strategies.cpu-share must be in (0, 1]");
        }
        if (maxComputeTime.isNegative() || maxComputeTime.isZero() || !(referenceRate > 0)
                || Double.isInfinite(referenceRate) || maxMemory.toBytes() <= 0) {
            throw new IllegalArgumentException("privmat.strategies: max-compute-time, reference-rate and max-memory "
                    + "must be positive");
        }
    }

    /** Memory one computation may use: {@code maxMemory}, at most a third of the maximum heap. */
    long memoryLimit() {
        return Math.min(maxMemory.toBytes(), Runtime.getRuntime().maxMemory() / 3);
    }
}
