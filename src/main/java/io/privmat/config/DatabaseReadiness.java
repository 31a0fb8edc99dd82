package io.privmat.config;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Readiness of the request pool (health contributor {@code database}, in the readiness group): UP
 * only if a connection can be borrowed and answers within {@code privmat.readiness.connection-wait}
 * (default 1 s). A replica whose pool is exhausted, or whose database is down, then leaves the load
 * balancer instead of answering requests after a long wait (docs/reliability.md).
 */
@Component("databaseHealthIndicator")
class DatabaseReadiness implements HealthIndicator {

    private final DataSource dataSource;
    private final long waitMillis;

    DatabaseReadiness(DataSource dataSource, @Value("${privmat.readiness.connection-wait:1s}") Duration wait) {
        this.dataSource = dataSource;
        this.waitMillis = Math.max(1, wait.toMillis());
    }

    @Override
    public Health health() {
        Health.Builder health = ConnectionProbe.within(dataSource, waitMillis) ? Health.up() : Health.down()
                .withDetail("reason", "no connection within " + waitMillis + " ms");
        try {
            if (dataSource.isWrapperFor(HikariDataSource.class)) {
                HikariDataSource pool = dataSource.unwrap(HikariDataSource.class);
                var mx = pool.getHikariPoolMXBean();
                health.withDetail("pool", String.valueOf(pool.getPoolName())).withDetail("max", pool.getMaximumPoolSize());
                if (mx != null) {
                    health.withDetail("active", mx.getActiveConnections()).withDetail("idle", mx.getIdleConnections())
                            .withDetail("waiting", mx.getThreadsAwaitingConnection());
                }
            }
        } catch (java.sql.SQLException e) {
            // Figures are optional.
        }
        return health.build();
    }
}
