package io.privmat.config;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * In a context whose database is the embedded server: a lease on it, which every DataSource bean
 * depends on. Spring destroys dependents first, so this context's pools close before its lease is
 * released, and the server (when no other context uses it) stops after them.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(EmbeddedPostgresEnvironmentPostProcessor.IN_USE)
class EmbeddedPostgresConfiguration {

    static final String LEASE = "privmatEmbeddedPostgresLease";

    /** Held from before the DataSource exists until after it is closed. */
    static final class Lease implements DisposableBean {
        Lease() {
            EmbeddedPostgresServer.acquire();
        }

        @Override
        public void destroy() {
            EmbeddedPostgresServer.release();
        }
    }

    @Bean(LEASE)
    Lease privmatEmbeddedPostgresLease() {
        return new Lease();
    }

    @Bean
    static BeanFactoryPostProcessor dataSourcesDependOnTheEmbeddedServer() {
        return beanFactory -> {
            for (String name : beanFactory.getBeanNamesForType(DataSource.class, true, false)) {
                if (!beanFactory.containsBeanDefinition(name)) {
                    continue;
                }
                BeanDefinition definition = beanFactory.getBeanDefinition(name);
                Set<String> dependsOn = new LinkedHashSet<>();
                if (definition.getDependsOn() != null) {
                    dependsOn.addAll(Arrays.asList(definition.getDependsOn()));
                }
                dependsOn.add(LEASE);
                definition.setDependsOn(dependsOn.toArray(String[]::new));
            }
        };
    }
}
