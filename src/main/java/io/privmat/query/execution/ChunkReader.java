package io.privmat.query.execution;

import io.privmat.concurrent.HandOff;
import java.util.function.Consumer;

/**
 * Reads a dataset's stored chunks on a thread of its own, one chunk ahead of the job that uses them:
 * while the job works on chunk i (noise, a Gram update), PostgreSQL sends and the reader decodes
 * chunk i + 1. The chunks reach the job's thread in their stored order, so what the job computes is
 * unchanged; at most three chunks (being decoded, queued, in use) exist at once. Whatever the reader
 * throws is rethrown on the job's thread; if the job's work throws, the reader stops after its current
 * chunk and is joined before the exception propagates, so no read outlives the job's pass. The
 * hand-off is {@link HandOff#fromSecondThread}'s (the uploads' writer thread uses the same one).
 * docs/benchmarks.md, "Randomized response end to end".
 */
final class ChunkReader {

    private ChunkReader() {}

    /** A source of chunks: calls its consumer once per chunk, in order, on the calling thread. */
    @FunctionalInterface
    interface Source<T> {
        void forEach(Consumer<T> consumer);
    }

    /** Runs {@code source} on a reader thread and hands each chunk to {@code work} on this thread. */
    static <T> void read(Source<T> source, Consumer<T> work) {
        HandOff.<T>fromSecondThread("privmat-chunk-reader", "reading chunks", 1, source::forEach, work);
    }
}
