package io.privmat.job;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Job engine settings ({@code privmat.jobs.*}).
 *
 * @param enabled run workers in this replica (false: this replica only admits and serves)
 * @param workerThreads concurrent jobs per replica; 0 means one per available core
 * @param pollInterval how often an idle worker looks for queued jobs
 * @param heartbeatInterval how often a worker renews the lease of its running jobs
 * @param leaseTimeout a running job whose heartbeat is older than this is reaped
 * @param reaperInterval how often the reaper looks for dead workers' jobs
 * @param maxAttempts claims of one job (before data access) before it fails and is refunded
 * @param poolSize connections of the job engine's own pool (heartbeats, the reaper, claims and every
 *     job-state and ledger transition of a worker), separate from the pool that serves requests and
 *     reads data, so that neither uploads nor slow reads can starve them (docs/reliability.md)
 * @param connectionTimeout longest wait for a connection of that pool; a small fraction of the lease,
 *     so that a failed write is retried several times within it
 * @param shutdownGrace on shutdown, how long jobs that are already reading data may run on before
 *     they are failed with their charge kept (jobs not yet reading go back to the queue at once)
 */
@ConfigurationProperties("privmat.jobs")
public record JobSettings(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("0") int workerThreads,
        @DefaultValue("200ms") Duration pollInterval,
        @DefaultValue("2s") Duration heartbeatInterval,
        @DefaultValue("30s") Duration leaseTimeout,
        @DefaultValue("5s") Duration reaperInterval,
        @DefaultValue("3") int maxAttempts,
        @DefaultValue("4") int poolSize,
        @DefaultValue("2s") Duration connectionTimeout,
        @DefaultValue("20s") Duration shutdownGrace) {

    public JobSettings {
        if (poolSize < 2) {
            throw new IllegalArgumentException("privmat.jobs.pool-size must be at least 2 (heartbeats and transitions)");
        }
        if (connectionTimeout.toMillis() < 250) {
            throw new IllegalArgumentException("privmat.jobs.connection-timeout must be at least 250ms");
        }
        // A write that waits for a connection must leave room for retries before the lease runs out.
        if (connectionTimeout.multipliedBy(4).compareTo(leaseTimeout) > 0) {
            throw new IllegalArgumentException("privmat.jobs.connection-timeout (" + connectionTimeout
                    + ") must be at most a quarter of privmat.jobs.lease-timeout (" + leaseTimeout + ")");
        }
        if (heartbeatInterval.multipliedBy(3).compareTo(leaseTimeout) > 0) {
            throw new IllegalArgumentException("privmat.jobs.heartbeat-interval (" + heartbeatInterval
                    + ") must be at most a third of privmat.jobs.lease-timeout (" + leaseTimeout + ")");
        }
    }

    public int effectiveWorkerThreads() {
        return workerThreads > 0 ? workerThreads : Runtime.getRuntime().availableProcessors();
    }

    /** Until when, after a successful heartbeat (or a claim), this replica may still act on the job. */
    public Duration leaseMargin() {
        return leaseTimeout.minus(leaseTimeout.dividedBy(10));
    }
}
