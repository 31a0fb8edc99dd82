package io.privmat.config;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
                            // One server per JVM: a test JVM keeps several Spring contexts alive, each with
                            // its request pool (10) and job pool (4); 100 was exhausted ("too many clients").
                            .setServerConfig("max_connections", "250")
                            .setServerConfig("fsync", "on")
                            // zonky defaults to synchronous_commit=off, which can lose committed ledger
                            // entries in a crash; every commit waits for its WAL flush (docs/reliability.md).
                            .setServerConfig("synchronous_commit", "on");
                    if (StringUtils.hasText(dataDir)) {
                        // Absolute: a relative directory (the dev profile's .privmat-data) is the working
                        // directory's, whatever directory PostgreSQL's own processes run in.
                        Path dir = Path.of(dataDir).toAbsolutePath();
                        long orphan = stopOrphan(dir);
                        if (orphan > 0) {
                            log.warn("stopped the embedded PostgreSQL (pid {}) that a killed run left on {}", orphan, dir);
                        }
                        builder.setDataDirectory(dir).setCleanDataDirectory(false);
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

    /**
     * Stops a PostgreSQL left running on {@code dataDir} by a JVM that was killed (kill -9: no
     * shutdown hook ran, and a postmaster outlives its JVM), which would otherwise keep every later
     * start on the same directory from starting its own. Only a server no running JVM uses: zonky
     * holds a lock on {@code epg-lock} in the directory for as long as its JVM runs.
     *
     * @return the stopped server's process id, or -1 if there was none to stop
     */
    static long stopOrphan(Path dataDir) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.isReadable(pidFile)) {
            return -1;
        }
        Optional<ProcessHandle> postmaster;
        try {
            long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).strip());
            postmaster = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false));
        } catch (IOException | RuntimeException unreadable) {
            return -1; // a stale or partly written file: PostgreSQL itself deals with it
        }
        if (postmaster.isEmpty()) {
            return -1;
        }
        try (FileChannel channel = FileChannel.open(dataDir.resolve("epg-lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock lock = channel.tryLock()) {
            if (lock == null) {
                return -1; // another running JVM's server: not ours to stop
            }
            ProcessHandle process = postmaster.get();
            process.destroy(); // SIGTERM, a smart shutdown: its clients died with their JVM
            try {
                process.onExit().get(30, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                process.destroyForcibly();
                process.onExit().get(30, TimeUnit.SECONDS);
            }
            return process.pid();
        } catch (OverlappingFileLockException inThisJvm) {
            return -1;
        } catch (IOException | ExecutionException | TimeoutException e) {
            log.warn("could not stop the PostgreSQL a killed run left on {}: {}", dataDir, e.toString());
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
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
