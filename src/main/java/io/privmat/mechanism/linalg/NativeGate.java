package io.privmat.mechanism.linalg;

import java.util.concurrent.TimeUnit;

/**
 * Keeps native BLAS/LAPACK calls and the end of the process apart.
 *
 * <p>OpenBLAS's exit handler ({@code gotoblas_quit}, run by {@code exit()} after the JVM's shutdown)
 * joins its worker threads while holding its thread server's lock. A call still running on another
 * thread at that moment waits for the same lock, and the process never exits — seen twice here: a
 * background warm-up's {@code dsyevd} during a test JVM's exit, which then ignored SIGTERM until
 * killed. Every native call passes this gate; at the end of the process the gate closes: calls in
 * flight finish (waited for, bounded), later calls wait for good (their threads stop with the
 * process, which was exiting anyway).
 *
 * <p>The gate closes from a JVM shutdown hook, after every {@link #hold() hold} was released — the
 * service holds the gate from start until its application context has stopped, so jobs finishing in
 * their shutdown grace still compute normally — or after {@link #MAX_HOLD_WAIT_SECONDS} at most.
 */
public final class NativeGate {

    /** Longest the shutdown hook waits for the holders (a service's graceful stop) before closing. */
    static final long MAX_HOLD_WAIT_SECONDS = 120;
    /** Longest it then waits for native calls in flight to return. */
    static final long MAX_DRAIN_SECONDS = 20;

    /** The process's gate, closed by a shutdown hook. */
    private static final NativeGate PROCESS = new NativeGate();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> PROCESS.atExit(MAX_HOLD_WAIT_SECONDS,
                MAX_DRAIN_SECONDS), "privmat-native-gate"));
    }

    private final Object lock = new Object();
    private int inFlight;
    private int holds;
    private boolean closed;

    NativeGate() {}

    /** Before a native call: waits for good once the process's gate is closed. */
    static void enter() {
        PROCESS.enterGate();
    }

    /** After a native call (in a finally block). */
    static void exit() {
        PROCESS.exitGate();
    }

    /** Keeps the process's gate open at exit until {@link #release()} (or the bounded wait ends). */
    public static void hold() {
        PROCESS.holdGate();
    }

    public static void release() {
        PROCESS.releaseGate();
    }

    void enterGate() {
        synchronized (lock) {
            boolean interrupted = false;
            while (closed) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    interrupted = true; // the process is exiting; keep this thread out of native code
                }
            }
            inFlight++;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    void exitGate() {
        synchronized (lock) {
            if (--inFlight == 0) {
                lock.notifyAll();
            }
        }
    }

    void holdGate() {
        synchronized (lock) {
            holds++;
        }
    }

    void releaseGate() {
        synchronized (lock) {
            holds = Math.max(0, holds - 1);
            lock.notifyAll();
        }
    }

    /**
     * Closes the gate and waits until no native call is in flight; true when none is left within the
     * time. Used at the end of the process only: a closed gate never opens again.
     */
    boolean closeAndDrain(long timeout, TimeUnit unit) {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        synchronized (lock) {
            closed = true;
            while (inFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return inFlight == 0;
                }
            }
            return true;
        }
    }

    /** Waits for the holders (bounded), then closes and drains (bounded); true when nothing was left running. */
    boolean atExit(long holdSeconds, long drainSeconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(holdSeconds);
        synchronized (lock) {
            while (holds > 0 && System.nanoTime() < deadline) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, deadline - System.nanoTime());
                } catch (InterruptedException e) {
                    break;
                }
            }
        }
        boolean drained = closeAndDrain(drainSeconds, TimeUnit.SECONDS);
        if (!drained) {
            // No logging framework here (pure Java); stderr reaches the service's log at exit.
            System.err.println("privmat: a native BLAS call was still running " + drainSeconds
                    + " s after shutdown; the process may hang in OpenBLAS's exit handler");
        }
        return drained;
    }
}
