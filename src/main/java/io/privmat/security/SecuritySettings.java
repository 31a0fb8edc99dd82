package io.privmat.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Security settings ({@code privmat.security.*}). The bootstrap admin key is
 * {@code privmat.bootstrap-admin-key} (env {@code PRIVMAT_BOOTSTRAP_ADMIN_KEY}).
 *
 * @param requestsPerSecond sustained requests per second allowed per API key
 * @param burst requests a key may make at once before the rate applies
 * @param maxJsonBody largest accepted body of a non-upload request (413 beyond it)
 * @param maxWorkloadBody largest accepted body of a workload upload ({@code POST /v1/workloads}; 413
 *     beyond it): 4 194 304 float64 values (the workload limit) as .npy, 32 MiB, plus 64 KiB of header
 * @param maxFreeRequests free computations (quotes, strategy requests, free queries on releases)
 *     running at once per replica (503 beyond)
 * @param maxFreeRequestsPerKey free computations of one API key running at once (429 beyond)
 * @param maxFreeRequestsPerSubject free computations of one subject's keys running at once (429 beyond)
 */
@ConfigurationProperties("privmat.security")
public record SecuritySettings(
        @DefaultValue("50") int requestsPerSecond,
        @DefaultValue("200") int burst,
        @DefaultValue("1MB") DataSize maxJsonBody,
        @DefaultValue("32832KB") DataSize maxWorkloadBody,
        @DefaultValue("8") int maxFreeRequests,
        @DefaultValue("2") int maxFreeRequestsPerKey,
        @DefaultValue("4") int maxFreeRequestsPerSubject) {}
