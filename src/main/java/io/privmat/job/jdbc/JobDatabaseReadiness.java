package io.privmat.job.jdbc;

import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Readiness of the job engine's pool (health contributor {@code jobDatabase}, in the readiness
 * group): UP only if one of its connections can be had within {@code privmat.readiness.connection-wait}.
 */
@Component("jobDatabaseHealthIndicator")
class JobDatabaseReadiness implements HealthIndicator {

    private final JobDatabase database;
    private final long waitMillis;

    JobDatabaseReadiness(JobDatabase database, @Value("${privmat.readiness.connection-wait:1s}") Duration wait) {
        this.database = database;
        this.waitMillis = Math.max(1, wait.toMillis());
    }

    @Override
    public Health health() {
        Health.Builder health = database.connectionWithin(waitMillis) ? Health.up()
                : Health.down().withDetail("reason", "no connection within " + waitMillis + " ms");
        JobDatabase.Figures figures = database.figures();
        health.withDetail("pool", figures.pool()).withDetail("max", figures.max());
        if (figures.usage() != null) {
            health.withDetail("active", figures.usage().active()).withDetail("idle", figures.usage().idle())
                    .withDetail("waiting", figures.usage().waiting());
        }
        return health.build();
    }
}
