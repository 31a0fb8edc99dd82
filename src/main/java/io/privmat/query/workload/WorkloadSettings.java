package io.privmat.query.workload;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Stored workloads ({@code privmat.workloads.*}; docs/reliability.md, "Free work and storage").
 *
 * @param maxBytesPerCaller stored bytes (DENSE or SPARSE, as stored) the workloads of one subject may
 *     reference in all; content shared with others counts in full for each (409 beyond)
 * @param maxPerCaller workloads one subject may hold (409 beyond)
 */
@ConfigurationProperties("privmat.workloads")
public record WorkloadSettings(
        @DefaultValue("256MB") DataSize maxBytesPerCaller,
        @DefaultValue("1000") int maxPerCaller) {

    public WorkloadSettings {
        if (maxBytesPerCaller.toBytes() < 0 || maxPerCaller < 0) {
            throw new IllegalArgumentException("privmat.workloads quotas must not be negative");
        }
    }
}
