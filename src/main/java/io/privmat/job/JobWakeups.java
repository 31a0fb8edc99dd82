package io.privmat.job;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.stereotype.Component;

/** Wakes this replica's idle workers when a job is enqueued here (others find it by polling). */
@Component
public class JobWakeups {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition queued = lock.newCondition();
    private long generation;

    public void signal() {
        lock.lock();
        try {
            generation++;
            queued.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until signalled or the timeout passes. */
    public void await(long millis) throws InterruptedException {
        lock.lock();
        try {
            long seen = generation;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            while (generation == seen) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                queued.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }
}
