package io.privmat.concurrent;

import java.util.ArrayDeque;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The two-thread hand-off of one pass: one side produces items, the other consumes them in order,
 * one of the two on a second thread, with at most {@code ahead} items handed over beyond the one
 * the consumer is working on (a producer's put waits for room; the consumer finishes an item by
 * asking for the next). A failure on either side reaches the owner's thread, and the owner never
 * leaves while the second thread is still busy with the pass. Two shapes:
 * <ul>
 * <li>{@link #toSecondThread}: the owner produces, a second thread does {@code work} on each item
 *     ({@code ahead} 0: the owner prepares item i + 1 while item i is worked on). The work's failure
 *     is thrown by the owner's next {@link #put}, {@link #flush} or {@link #close}; the owner waits
 *     for the second thread through interrupts (keeping them), since that thread may hold resources
 *     of the owner's (a transaction's connection).</li>
 * <li>{@link #fromSecondThread}: a second thread produces, the owner does {@code work} on each item.
 *     The producer's failure is thrown on the owner's thread after the items produced before it; if
 *     the owner's work throws, the producer is stopped (its next put throws {@link Abandoned}) and
 *     joined before the exception propagates, so no production outlives the pass.</li>
 * </ul>
 *
 * @param <T> an item (not null)
 */
public final class HandOff<T> implements AutoCloseable {

    /** Thrown to a producer whose consumer stopped taking: it unwinds the producer. */
    public static final class Abandoned extends RuntimeException {
        Abandoned() {
            super("the pass was abandoned", null, false, false);
        }
    }

    private final int ahead;
    private final String what;
    private final ArrayDeque<T> queue = new ArrayDeque<>();
    /** Items put and not yet finished by the consumer: queued, and the one it holds. */
    private int unfinished;
    private boolean holding;
    private boolean ended;
    private @Nullable Throwable producerFailure;
    private @Nullable Throwable consumerFailure;
    private boolean stopped;

    private HandOff(int ahead, String what) {
        this.ahead = ahead;
        this.what = what;
    }

    /**
     * Starts a second thread that does {@code work} on each item the owner {@link #put}s, in order;
     * the owner {@link #close}s it.
     *
     * @param ahead how many items may wait beyond the one being worked on
     */
    public static <T> HandOff<T> toSecondThread(String threadName, int ahead, Consumer<T> work) {
        HandOff<T> handOff = new HandOff<>(ahead, "handing over " + threadName);
        start(threadName, () -> {
            for (T item = handOff.take(); item != null; item = handOff.take()) {
                try {
                    work.accept(item);
                } catch (Throwable e) {
                    handOff.fail(e);
                }
            }
        });
        return handOff;
    }

    /**
     * Runs {@code source} on a second thread and does {@code work} on each item it produces, on this
     * thread, in order; returns when the source has ended and its last item is worked on.
     *
     * @param source produces the items by calling its consumer, in order, on the second thread
     * @param what what the pass does, for an interrupt's failure ("reading chunks")
     * @throws RuntimeException (or Error) the source's failure, or the work's
     * @throws IllegalStateException when this thread is interrupted while it waits for an item
     */
    public static <T> void fromSecondThread(String threadName, String what, int ahead, Consumer<Consumer<T>> source,
            Consumer<T> work) {
        HandOff<T> handOff = new HandOff<>(ahead, what);
        Thread producer = start(threadName, () -> {
            Throwable failure = null;
            try {
                source.accept(handOff::put);
            } catch (Abandoned e) {
                return;
            } catch (RuntimeException | Error e) {
                failure = e;
            }
            handOff.end(failure);
        });
        try {
            for (T item = handOff.take(); item != null; item = handOff.take()) {
                work.accept(item);
            }
        } catch (RuntimeException | Error e) {
            handOff.stop();
            join(producer);
            throw e;
        }
    }

    /**
     * Hands an item to the consumer once there is room, waiting through interrupts (kept).
     *
     * @throws Abandoned when the consumer stopped taking
     * @throws RuntimeException (or Error) the consumer's failure on an earlier item, thrown once
     */
    public synchronized void put(T item) {
        boolean interrupted = false;
        try {
            while (unfinished > ahead && !stopped && consumerFailure == null) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (stopped) {
                throw new Abandoned();
            }
            rethrowConsumerFailure();
            queue.add(item);
            unfinished++;
            notifyAll();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits, through interrupts (kept), until the consumer has finished every item put.
     *
     * @throws RuntimeException (or Error) the consumer's failure, thrown once
     */
    public synchronized void flush() {
        boolean interrupted = false;
        try {
            while (unfinished > 0) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            rethrowConsumerFailure();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@link #flush()}, then ends the second thread of {@link #toSecondThread} (also when flush throws). */
    @Override
    public void close() {
        try {
            flush();
        } finally {
            end(null);
        }
    }

    /** The next item (finishing the one held), or null at the end; throws the producer's failure. */
    private synchronized @Nullable T take() {
        if (holding) {
            holding = false;
            unfinished--;
            notifyAll();
        }
        while (queue.isEmpty() && !ended) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while " + what, e);
            }
        }
        T next = queue.poll();
        if (next != null) {
            holding = true;
            return next;
        }
        if (producerFailure != null) {
            throw unchecked(producerFailure);
        }
        return null;
    }

    /** The consumer's work on the item it holds failed. */
    private synchronized void fail(Throwable failure) {
        consumerFailure = failure;
        if (holding) {
            holding = false;
            unfinished--;
        }
        notifyAll();
    }

    /** The producer has no more items (after a failure if not null). */
    private synchronized void end(@Nullable Throwable failure) {
        ended = true;
        producerFailure = failure;
        notifyAll();
    }

    /** The consumer takes no more: what is queued is dropped and the producer's next put throws. */
    private synchronized void stop() {
        stopped = true;
        queue.clear();
        notifyAll();
    }

    private void rethrowConsumerFailure() {
        Throwable failure = consumerFailure;
        if (failure != null) {
            consumerFailure = null;
            throw unchecked(failure);
        }
    }

    private static RuntimeException unchecked(Throwable failure) {
        if (failure instanceof RuntimeException e) {
            return e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(failure);
    }

    private static Thread start(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Joins the thread, waiting through interrupts (kept). */
    private static void join(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
