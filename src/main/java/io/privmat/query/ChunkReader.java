package io.privmat.query;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Reads a dataset's stored chunks on a thread of its own, one chunk ahead of the job that uses them:
 * while the job works on chunk i (noise, a Gram update), PostgreSQL sends and the reader decodes
 * chunk i + 1. The chunks reach the job's thread in their stored order, so what the job computes is
 * unchanged; at most three chunks (being decoded, queued, in use) exist at once. Whatever the reader
 * throws is rethrown on the job's thread; if the job's work throws, the reader stops after its current
 * chunk and is joined before the exception propagates, so no read outlives the job's pass.
 * docs/benchmarks.md, "Randomized response end to end".
 */
final class ChunkReader {

    /** How long the reader waits for room in the queue before checking whether the job stopped. */
    private static final long OFFER_MILLIS = 50;

    private ChunkReader() {}

    /** A source of chunks: calls its consumer once per chunk, in order, on the calling thread. */
    @FunctionalInterface
    interface Source<T> {
        void forEach(Consumer<T> consumer);
    }

    /** The end of the chunks, or the reader's failure. */
    private record End(Throwable failure) {}

    /** Stops the reader when the job no longer takes chunks. */
    private static final class Abandoned extends RuntimeException {
        Abandoned() {
            super("the pass was abandoned", null, false, false);
        }
    }

    /** Runs {@code source} on a reader thread and hands each chunk to {@code work} on this thread. */
    static <T> void read(Source<T> source, Consumer<T> work) {
        BlockingQueue<Object> queue = new ArrayBlockingQueue<>(1);
        boolean[] stopped = {false};
        Thread reader = new Thread(() -> {
            Throwable failure = null;
            try {
                source.forEach(chunk -> hand(queue, chunk, stopped));
            } catch (Abandoned e) {
                return;
            } catch (RuntimeException | Error e) {
                failure = e;
            }
            try {
                hand(queue, new End(failure), stopped);
            } catch (Abandoned e) {
                // The job stopped taking chunks: nobody waits for the end.
            }
        }, "privmat-chunk-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            while (true) {
                Object next = take(queue);
                if (next instanceof End end) {
                    rethrow(end.failure());
                    return;
                }
                @SuppressWarnings("unchecked")
                T chunk = (T) next;
                work.accept(chunk);
            }
        } catch (RuntimeException | Error e) {
            synchronized (stopped) {
                stopped[0] = true;
            }
            queue.clear();
            join(reader);
            throw e;
        }
    }

    private static void hand(BlockingQueue<Object> queue, Object item, boolean[] stopped) {
        try {
            while (!queue.offer(item, OFFER_MILLIS, TimeUnit.MILLISECONDS)) {
                synchronized (stopped) {
                    if (stopped[0]) {
                        throw new Abandoned();
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Abandoned();
        }
        synchronized (stopped) {
            if (stopped[0]) {
                throw new Abandoned();
            }
        }
    }

    private static Object take(BlockingQueue<Object> queue) {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading chunks", e);
        }
    }

    private static void join(Thread reader) {
        boolean interrupted = false;
        while (true) {
            try {
                reader.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void rethrow(Throwable failure) {
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
    }
}
