package io.privmat.dataset.ingest;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;

/**
 * The second thread of one upload: it writes a chunk while the request thread parses the next
 * (docs/benchmarks.md, upload section). At most one piece of work is in flight, so memory stays
 * at two chunk buffers; a failure on either side reaches the request thread, and {@link #close()}
 * returns only once the writer is idle, so the transaction is rolled back after its last write,
 * never during one (nothing half-written).
 */
final class ChunkPipeline implements AutoCloseable {

    private final @Nullable ExecutorService writer;
    private @Nullable Future<?> inFlight;

    private ChunkPipeline(@Nullable ExecutorService writer) {
        this.writer = writer;
    }

    /** Writes on a second thread. */
    static ChunkPipeline threaded() {
        return new ChunkPipeline(Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "upload-writer");
            thread.setDaemon(true);
            return thread;
        }));
    }

    /**
     * Writes on the calling thread: for parsers that use the transaction's connection themselves
     * while they emit rows (Matrix Market reads its staged entries back through a cursor).
     */
    static ChunkPipeline inline() {
        return new ChunkPipeline(null);
    }

    /** Waits for the previous work (rethrowing its failure), then starts {@code work} on the writer thread. */
    void submit(Runnable work) {
        await();
        if (writer == null) {
            work.run();
        } else {
            inFlight = writer.submit(work);
        }
    }

    /** Waits for the work in flight, if any, and rethrows its failure. */
    void await() {
        Future<?> work = inFlight;
        if (work == null) {
            return;
        }
        inFlight = null;
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    work.get();
                    return;
                } catch (InterruptedException e) {
                    // The writer uses the transaction's connection: wait for it whatever happens.
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    if (cause instanceof Error error) {
                        throw error;
                    }
                    throw new IllegalStateException(cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        try {
            await();
        } finally {
            if (writer != null) {
                writer.shutdown();
            }
        }
    }
}
