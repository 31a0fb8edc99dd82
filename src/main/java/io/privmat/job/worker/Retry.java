package io.privmat.job.worker;

import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries with exponential backoff until a deadline: for writes that must survive a short database
 * outage (a PostgreSQL restart, a dropped connection) within a job's lease. Logs failure types only.
 */
final class Retry {

    private static final Logger log = LoggerFactory.getLogger(Retry.class);

    /** Sleeps for the given milliseconds (tests replace it). */
    interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private Retry() {}

    /**
     * Runs {@code action} until it succeeds, sleeping {@code firstBackoffMs}, twice that, … (at most
     * {@code maxBackoffMs}) between attempts. A failure that {@code retryable} refuses is thrown at
     * once; otherwise the last failure is thrown when the next attempt would start after
     * {@code deadlineNanos} ({@link System#nanoTime()}), or when the thread is interrupted.
     */
    static <T> T until(String what, Supplier<T> action, long deadlineNanos, long firstBackoffMs, long maxBackoffMs,
            Sleeper sleeper, Predicate<Throwable> retryable) {
        long backoff = firstBackoffMs;
        for (int attempt = 1; ; attempt++) {
            RuntimeException failure;
            try {
                T result = action.get();
                if (attempt > 1) {
                    log.info("{} succeeded on attempt {}", what, attempt);
                }
                return result;
            } catch (RuntimeException e) {
                failure = e;
            }
            if (!retryable.test(failure)) {
                throw failure;
            }
            log.warn("{} attempt {} failed: {}", what, attempt, failure.getClass().getName());
            if (System.nanoTime() + backoff * 1_000_000L > deadlineNanos) {
                throw failure;
            }
            try {
                sleeper.sleep(backoff);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw failure;
            }
            backoff = Math.min(backoff * 2, maxBackoffMs);
        }
    }
}
