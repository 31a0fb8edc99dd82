package io.privmat.dataset;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * EXTERNAL dataset settings ({@code privmat.external.*}).
 *
 * @param allowedLocations prefixes a declared location must start with (e.g. {@code s3a://lake/privmat/},
 *     {@code /data/}); empty (the default): no EXTERNAL dataset can be declared, so that an owner
 *     cannot point the service at files it can read but the owner should not
 */
@ConfigurationProperties("privmat.external")
public record ExternalSettings(@DefaultValue({}) List<String> allowedLocations) {}
