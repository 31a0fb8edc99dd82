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
 */
@ConfigurationProperties("privmat.jobs")
public record JobSettings(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("0") int workerThreads,
        @DefaultValue("200ms") Duration pollInterval,
        @DefaultValue("2s") Duration heartbeatInterval,
        @DefaultValue("30s") Duration leaseTimeout,
        @DefaultValue("5s") Duration reaperInterval,
        @DefaultValue("3") int maxAttempts) {

    public int effectiveWorkerThreads() {
        return workerThreads > 0 ? workerThreads : Runtime.getRuntime().availableProcessors();
    }
}
