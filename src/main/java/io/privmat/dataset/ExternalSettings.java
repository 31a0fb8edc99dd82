package io.privmat.dataset;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * EXTERNAL dataset settings ({@code privmat.external.*}).
 *
 * @param allowedLocations directories a declared location must lie in (e.g. {@code s3a://lake/privmat/},
 *     {@code /data/}); empty (the default): no EXTERNAL dataset can be declared, so that an owner
 *     cannot point the service at files it can read but the owner should not
 */
@ConfigurationProperties("privmat.external")
public record ExternalSettings(@DefaultValue({}) List<String> allowedLocations) {

    /**
     * Whether the location lies in an allowed directory: it starts with a prefix ending in {@code /},
     * or is a prefix written without it or lies under it ({@code s3a://lake/privmat} allows
     * {@code s3a://lake/privmat/x}, not {@code s3a://lake/privmat-other/x}). Blank prefixes allow nothing.
     */
    public boolean allows(String location) {
        if (allowedLocations == null) {
            return false;
        }
        for (String prefix : allowedLocations) {
            if (prefix == null || prefix.isBlank()) {
                continue;
            }
            if (prefix.endsWith("/") ? location.startsWith(prefix)
                    : location.equals(prefix) || location.startsWith(prefix + "/")) {
                return true;
            }
        }
        return false;
    }
}
