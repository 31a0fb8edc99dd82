package io.privmat.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * A PostgreSQL server owned by the fault suite, separate from the shared embedded one so that tests
 * may stop and restart it (same port, same data directory: a real restart, as in production) and
 * other JVMs may share it. Started once per JVM; its data directory is under {@code target/}.
 */
public final class FaultDatabase {

    private static FaultDatabase instance;

    private final Path dataDir;
    private final int port;
    private EmbeddedPostgres server;

    private FaultDatabase(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
    }

    /** The running server (started on first use); sets {@code privmat.fault.jdbc-url} for test contexts. */
    public static synchronized FaultDatabase get() {
        if (instance == null) {
            try {
                Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "fault-pg");
                int port;
                try (ServerSocket socket = new ServerSocket(0)) {
                    port = socket.getLocalPort();
                }
                instance = new FaultDatabase(dir, port);
                instance.start();
                instance.createDatabase("fault");
                System.setProperty("privmat.fault.jdbc-url", instance.jdbcUrl("fault"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return instance;
    }

    public synchronized void start() {
        if (server != null) {
            return;
        }
        try {
            server = EmbeddedPostgres.builder().setDataDirectory(dataDir).setCleanDataDirectory(false).setPort(port)
                    .setPGStartupWait(Patience.of(Duration.ofSeconds(60))).setServerConfig("synchronous_commit", "on")
                    .setServerConfig("max_connections", "100").start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the server (fast shutdown: open connections are terminated, as in a restart). */
    public synchronized void stop() {
        if (server != null) {
            try {
                server.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server = null;
        }
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://localhost:" + port + "/" + database + "?user=postgres";
    }

    public void createDatabase(String database) {
        try (Connection c = java.sql.DriverManager.getConnection(jdbcUrl("postgres"))) {
            try (var rs = c.createStatement().executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database + "'")) {
                if (!rs.next()) {
                    c.createStatement().execute("CREATE DATABASE " + database);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
