package io.privmat.dataset.ingest;

import io.privmat.concurrent.HandOff;
import org.jspecify.annotations.Nullable;

/**
 * The second thread of one upload: it writes a chunk while the request thread parses the next
 * (docs/benchmarks.md, upload section). At most one piece of work is in flight, so memory stays
 * at two chunk buffers; a failure on either side reaches the request thread, and {@link #close()}
 * returns only once the writer is idle, so the transaction is rolled back after its last write,
 * never during one (nothing half-written). The hand-off is {@link HandOff#toSecondThread}'s (the
 * reads of stored chunks use the same one).
 */
final class ChunkPipeline implements AutoCloseable {

    private final @Nullable HandOff<Runnable> writer;

    private ChunkPipeline(@Nullable HandOff<Runnable> writer) {
        this.writer = writer;
    }

    /** Writes on a second thread. */
    static ChunkPipeline threaded() {
        return new ChunkPipeline(HandOff.toSecondThread("upload-writer", 0, Runnable::run));
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
        if (writer == null) {
            work.run();
        } else {
            writer.put(work);
        }
    }

    /**
     * Waits for the work in flight, if any, and rethrows its failure; waits through interrupts (kept),
     * since the writer uses the transaction's connection.
     */
    void await() {
        if (writer != null) {
            writer.flush();
        }
    }

    @Override
    public void close() {
        if (writer != null) {
            writer.close();
        }
    }
}
