package io.privmat.security;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Counts requests the audit filter has yet to record, and on shutdown waits (at most 10 s) until
 * they are recorded. It stops after the web server (whose graceful phase lets requests finish, and
 * whose stop aborts the rest), and before the connection pools and the database close, so that a
 * request cut short by shutdown is still audited with the status it got (docs/reliability.md).
 */
@Component
class AuditDrain implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AuditDrain.class);
    private static final long WAIT_SECONDS = 10;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private int inFlight;
    private volatile boolean running;

    void enter() {
        lock.lock();
        try {
            inFlight++;
        } finally {
            lock.unlock();
        }
    }

    void leave() {
        lock.lock();
        try {
            inFlight--;
            if (inFlight <= 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        lock.lock();
        try {
            long left = TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (inFlight > 0 && left > 0) {
                left = idle.awaitNanos(left);
            }
            if (inFlight > 0) {
                log.warn("{} request(s) still unaudited at shutdown", inFlight);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        // Below the web server's stop (graceful phase − 1024).
        return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE - 2048;
    }
}
