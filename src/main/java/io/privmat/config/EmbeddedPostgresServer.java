package io.privmat.config;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.StringUtils;

/**
 * The one embedded PostgreSQL of this JVM and who is using it. Every application context that
 * points at it holds a lease ({@link EmbeddedPostgresConfiguration}) from before its DataSource is
 * created until after its DataSource is closed; the server stops when the last lease is released,
 * so it is always the last thing to go (docs/reliability.md).
 *
 * <p>zonky's own JVM shutdown hook is not registered: it stopped the server concurrently with
 * Spring's shutdown, under in-flight uploads and running jobs. Instead one hook of ours waits for
 * the contexts (closed by Spring's hooks) to release their leases, at most {@link #EXIT_WAIT}, and
 * then stops the server, so that no postmaster outlives the JVM.
 */
final class EmbeddedPostgresServer {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresServer.class);

    /** Longest wait at JVM exit for contexts to close (Spring's shutdown is bounded well below this). */
    static final Duration EXIT_WAIT = Duration.ofMinutes(2);

    private static final Object LOCK = new Object();
    private static @Nullable EmbeddedPostgres server;
    private static int leases;
    private static boolean hookRegistered;

    private EmbeddedPostgresServer() {}

    /** The running server, started on first use. */
    static EmbeddedPostgres start(@Nullable String dataDir) {
        synchronized (LOCK) {
            if (server == null) {
                try {
                    EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                            .setPGStartupWait(Duration.ofSeconds(60))
                            .setRegisterShutdownHook(false)
                            .setServerConfig("max_connections", "100")
                            .setServerConfig("fsync", "on")
                            // zonky defaults to synchronous_commit=off, which can lose committed ledger
                            // entries in a crash; every commit waits for its WAL flush (docs/reliability.md).
                            .setServerConfig("synchronous_commit", "on");
                    if (StringUtils.hasText(dataDir)) {
                        // Absolute: a relative directory (the dev profile's .privmat-data) is the working
                        // directory's, whatever directory PostgreSQL's own processes run in.
                        builder.setDataDirectory(Path.of(dataDir).toAbsolutePath()).setCleanDataDirectory(false);
                    }
                    server = builder.start();
                } catch (IOException e) {
                    throw new UncheckedIOException("could not start the embedded PostgreSQL; set "
                            + "SPRING_DATASOURCE_URL to use an external server", e);
                }
                if (!hookRegistered) {
                    hookRegistered = true;
                    Runtime.getRuntime().addShutdownHook(new Thread(EmbeddedPostgresServer::stopAtExit,
                            "privmat-embedded-postgres-stop"));
                }
            }
            return server;
        }
    }

    /** A context starts using the server. */
    static void acquire() {
        synchronized (LOCK) {
            if (server == null) {
                throw new IllegalStateException("the embedded PostgreSQL is not running");
            }
            leases++;
        }
    }

    /** A context has closed its DataSource; the last one stops the server. */
    static void release() {
        synchronized (LOCK) {
            leases = Math.max(0, leases - 1);
            if (leases == 0) {
                stop();
            }
            LOCK.notifyAll();
        }
    }

    private static void stopAtExit() {
        synchronized (LOCK) {
            long deadline = System.nanoTime() + EXIT_WAIT.toNanos();
            while (leases > 0 && server != null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    log.warn("{} application context(s) did not close in time; stopping the embedded PostgreSQL",
                            leases);
                    break;
                }
                try {
                    LOCK.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            stop();
        }
    }

    private static void stop() {
        if (server != null) {
            try {
                server.close();
                log.info("embedded PostgreSQL stopped");
            } catch (IOException e) {
                log.warn("embedded PostgreSQL did not stop cleanly: {}", e.getClass().getName());
            }
            server = null;
        }
    }
}
