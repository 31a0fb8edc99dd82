package io.privmat.config;

import io.privmat.mechanism.catalog.MechanismCatalog;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The service's one mechanism catalogue: the values the catalogue finds on the class path
 * (docs/mechanisms/catalogue.md, "Adding a mechanism"). Services take it by constructor; no other
 * main code calls {@link MechanismCatalog#standard()} (ArchitectureTest).
 */
@Configuration(proxyBeanMethods = false)
public class MechanismCatalogConfiguration {

    @Bean
    MechanismCatalog mechanismCatalog() {
        return MechanismCatalog.standard();
    }
}
