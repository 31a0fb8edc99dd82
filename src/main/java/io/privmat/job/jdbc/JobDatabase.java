package io.privmat.job.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.privmat.config.ConnectionProbe;
import io.privmat.job.JobSettings;
import io.privmat.ledger.BudgetService;
import java.sql.SQLException;
import java.time.Clock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The job engine's own small connection pool ({@code privmat.jobs.pool-size}, default 4), with the
 * repositories and transactions that run on it: claims, heartbeats, the reaper, "data access
 * started" with its ledger COMMIT, results, failures and refunds. The request pool serves uploads,
 * API calls and the (long) data reads of running jobs; whatever holds its connections, leases are
 * still renewed and job states still written (docs/reliability.md). Same database, URL and
 * credentials as the request pool; a short connection wait ({@code privmat.jobs.connection-timeout})
 * and a socket timeout of a third of the lease, so that no single wait outlasts the lease.
 *
 * <p>Not a {@link DataSource} bean: Spring Boot's single-DataSource auto-configuration (Flyway,
 * {@code @Transactional}, health) keeps using the request pool.
 */
@Component
public class JobDatabase implements DisposableBean {

    private final HikariDataSource pool;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final TransactionTemplate separateTx;
    private final JobRepository jobs;
    private final BudgetService budget;

    public JobDatabase(DataSource requests, JobSettings settings, Clock clock) throws SQLException {
        if (!requests.isWrapperFor(HikariDataSource.class)) {
            throw new IllegalStateException("privmat needs HikariCP as its DataSource (spring.datasource.type)");
        }
        HikariConfig config = new HikariConfig();
        requests.unwrap(HikariDataSource.class).copyStateTo(config);
        config.setPoolName("privmat-jobs");
        config.setMaximumPoolSize(settings.poolSize());
        config.setMinimumIdle(settings.poolSize());
        config.setConnectionTimeout(settings.connectionTimeout().toMillis());
        config.setValidationTimeout(Math.max(250, Math.min(1000, settings.connectionTimeout().toMillis() / 2)));
        config.setRegisterMbeans(false);
        // pgJDBC: no single statement (or connection attempt) may outlast a fraction of the lease.
        long socketSeconds = Math.max(1, settings.leaseTimeout().toSeconds() / 3);
        config.addDataSourceProperty("socketTimeout", Long.toString(socketSeconds));
        config.addDataSourceProperty("connectTimeout",
                Long.toString(Math.max(1, (settings.connectionTimeout().toMillis() + 999) / 1000)));
        config.addDataSourceProperty("ApplicationName", "privmat-jobs");
        this.pool = new HikariDataSource(config);
        this.jdbc = new JdbcTemplate(pool);
        JdbcTransactionManager transactions = new JdbcTransactionManager(pool);
        this.tx = new TransactionTemplate(transactions);
        this.separateTx = new TransactionTemplate(transactions);
        this.separateTx.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.jobs = new JobRepository(jdbc);
        this.budget = BudgetService.on(jdbc, clock);
    }

    /** Transactions on this pool. */
    public TransactionTemplate tx() {
        return tx;
    }

    /** A new transaction on this pool, whatever runs on the thread (progress from inside a data read). */
    public TransactionTemplate separateTx() {
        return separateTx;
    }

    public JobRepository jobs() {
        return jobs;
    }

    /** The ledger on this pool: call it only inside {@link #tx()}. */
    public BudgetService budget() {
        return budget;
    }

    /**
     * Whether a connection of this pool can be had within {@code waitMillis} (and answers): for the
     * readiness probe. Never waits longer than that, whatever the pool's own timeout.
     */
    public boolean connectionWithin(long waitMillis) {
        return ConnectionProbe.within(pool, waitMillis);
    }

    /**
     * The pool's sizes, for health details: its name and maximum, and its connections in use, idle
     * and awaited once the pool has started (null before).
     */
    public record Figures(String pool, int max, @Nullable Usage usage) {}

    /** Connections in use, idle, and threads waiting for one. */
    public record Usage(int active, int idle, int waiting) {}

    /** Pool figures for health details: sizes only. */
    public Figures figures() {
        var mx = pool.getHikariPoolMXBean();
        return new Figures(pool.getPoolName(), pool.getMaximumPoolSize(), mx == null ? null
                : new Usage(mx.getActiveConnections(), mx.getIdleConnections(), mx.getThreadsAwaitingConnection()));
    }

    @Override
    public void destroy() {
        pool.close();
    }
}
