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
 */
@ConfigurationProperties("privmat.security")
public record SecuritySettings(
        @DefaultValue("50") int requestsPerSecond,
        @DefaultValue("200") int burst,
        @DefaultValue("1MB") DataSize maxJsonBody) {}
