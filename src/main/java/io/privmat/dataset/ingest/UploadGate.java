package io.privmat.dataset.ingest;

import com.zaxxer.hikari.HikariDataSource;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Admission of uploads in this replica: at most {@code privmat.ingest.max-concurrent-uploads} at
 * once (503 with {@code Retry-After} beyond), a number kept below the request pool's size so that
 * uploads can never hold every connection (docs/reliability.md). On shutdown (in the phase of the
 * web server's graceful shutdown, after readiness went REFUSING) no new upload is admitted, uploads
 * in progress get {@code privmat.ingest.shutdown-grace} to finish, and the rest are aborted at their
 * next read: their transaction rolls back, so nothing is half-written.
 */
@Component
public class UploadGate implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(UploadGate.class);

    /** Retry-After of a refused upload. */
    static final long RETRY_AFTER_SECONDS = 5;

    private final IngestSettings settings;
    private final int limit;
    private final Semaphore permits;
    private volatile boolean running;
    private volatile boolean closed;
    private volatile boolean aborting;

    public UploadGate(IngestSettings settings, DataSource dataSource) throws SQLException {
        this.settings = settings;
        this.limit = settings.maxConcurrentUploads();
        if (dataSource.isWrapperFor(HikariDataSource.class)) {
            int pool = dataSource.unwrap(HikariDataSource.class).getMaximumPoolSize();
            if (limit >= pool) {
                throw new IllegalStateException("privmat.ingest.max-concurrent-uploads (" + limit + ") must be below "
                        + "spring.datasource.hikari.maximum-pool-size (" + pool + "): each upload holds a connection "
                        + "while it writes, and requests need the others");
            }
        }
        this.permits = new Semaphore(limit);
    }

    /** A place for one upload, released when closed. */
    public final class Permit implements AutoCloseable {
        private boolean released;

        private Permit() {}

        @Override
        public void close() {
            if (!released) {
                released = true;
                permits.release();
            }
        }
    }

    /** Whether uploads still in progress must stop now (shutdown, after the grace). */
    boolean aborting() {
        return aborting;
    }

    /** Admits one upload, or answers 503 (too many at once, or shutting down). */
    public Permit enter() {
        if (closed) {
            throw UploadStream.shuttingDown();
        }
        if (!permits.tryAcquire()) {
            throw new PrivmatException(ProblemType.TOO_MANY_UPLOADS, "This replica already receives " + limit
                    + " uploads (privmat.ingest.max-concurrent-uploads); retry later.",
                    Map.of("retryAfterSeconds", RETRY_AFTER_SECONDS));
        }
        return new Permit();
    }

    /** Uploads in progress (for tests and health). */
    public int inProgress() {
        return limit - permits.availablePermits();
    }

    /** Opens the gate, also again after a stop (a paused test context is restarted). */
    @Override
    public void start() {
        closed = false;
        aborting = false;
        running = true;
    }

    @Override
    public void stop(Runnable callback) {
        closed = true;
        running = false;
        Thread drain = new Thread(() -> {
            try {
                drain();
            } finally {
                callback.run();
            }
        }, "privmat-upload-shutdown");
        drain.setDaemon(true);
        drain.start();
    }

    @Override
    public void stop() {
        closed = true;
        running = false;
        drain();
    }

    private void drain() {
        try {
            if (inProgress() > 0) {
                log.info("{} upload(s) in progress get up to {} to finish", inProgress(), settings.shutdownGrace());
            }
            if (permits.tryAcquire(limit, settings.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS)) {
                permits.release(limit);
                return;
            }
            aborting = true;
            log.warn("{} upload(s) still in progress after the grace: aborting them (nothing is stored)", inProgress());
            if (permits.tryAcquire(limit, 10, TimeUnit.SECONDS)) {
                permits.release(limit);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE;
    }
}
