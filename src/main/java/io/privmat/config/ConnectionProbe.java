package io.privmat.config;

import java.sql.Connection;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;

/**
 * Whether a pooled connection can be had quickly: borrows one on a probe thread and gives up
 * (interrupting the wait) after a bound that is independent of the pool's own, longer, timeout.
 * Readiness probes use it, so that they report the truth within a second (docs/reliability.md).
 */
public final class ConnectionProbe {

    private static final ExecutorService PROBES = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "privmat-pool-probe");
        t.setDaemon(true);
        return t;
    });

    private ConnectionProbe() {}

    /** True if a connection was borrowed, found valid and returned within {@code waitMillis}. */
    public static boolean within(DataSource dataSource, long waitMillis) {
        Future<Boolean> probe = PROBES.submit(() -> {
            try (Connection c = dataSource.getConnection()) {
                return c.isValid((int) Math.max(1, (waitMillis + 999) / 1000));
            }
        });
        try {
            return probe.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // HikariCP gives up an interrupted wait; a connection obtained meanwhile is closed by the probe.
            probe.cancel(true);
            return false;
        } catch (ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
