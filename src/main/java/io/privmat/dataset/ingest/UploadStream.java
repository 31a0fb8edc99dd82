package io.privmat.dataset.ingest;

import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The body of one upload as it arrives: counts bytes and enforces the upload limits on every read
 * (docs/reliability.md) — 413 once more than the size limit has arrived, 408 once the whole body
 * has taken longer than the time limit or a rate window has brought less than the minimum rate
 * (and when the server's socket read timeout fires), and 503 when the service is shutting down and
 * the upload's grace is over. Each refusal happens inside the upload's transaction, or before it,
 * so nothing is stored.
 *
 * <p>The rate is the client's: bytes over the time the server spent waiting for them inside
 * {@code read}. The server's own time between reads (waiting for a connection, writing a chunk, a
 * loaded machine) and the read that returns end-of-stream are not charged to the client; a window
 * closes once the server has waited {@code rate-window} in reads that brought data.
 */
final class UploadStream extends FilterInputStream {

    private final long limit;
    private final long startNanos;
    private final long maxNanos;
    private final long minRate;
    private final long windowNanos;
    private final BooleanSupplier aborting;
    private final LongSupplier nanoTime;
    private long count;
    private long windowWaited;
    private long windowBytes;

    UploadStream(InputStream in, IngestSettings settings, BooleanSupplier aborting) {
        this(in, settings, aborting, System::nanoTime);
    }

    /** With a clock in nanoseconds ({@link System#nanoTime()} in the service; a fake one in tests). */
    UploadStream(InputStream in, IngestSettings settings, BooleanSupplier aborting, LongSupplier nanoTime) {
        super(in);
        this.nanoTime = nanoTime;
        this.limit = settings.maxUploadSize().toBytes();
        this.maxNanos = settings.maxUploadDuration().toNanos();
        this.minRate = settings.minUploadRate().toBytes();
        this.windowNanos = settings.rateWindow().toNanos();
        this.aborting = aborting;
        this.startNanos = nanoTime.getAsLong();
    }

    long count() {
        return count;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        check();
        long before = nanoTime.getAsLong();
        int n;
        try {
            n = super.read(b, off, len);
        } catch (IOException e) {
            throw translate(e);
        }
        if (n > 0) {
            count += n;
            if (count > limit) {
                throw tooLarge(limit);
            }
            checkRate(n, nanoTime.getAsLong() - before);
        }
        check();
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        byte[] buffer = new byte[(int) Math.min(8192, Math.max(0, n))];
        long skipped = 0;
        while (skipped < n) {
            int r = read(buffer, 0, (int) Math.min(buffer.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    private void check() {
        if (aborting.getAsBoolean()) {
            throw shuttingDown();
        }
        long now = nanoTime.getAsLong();
        if (now - startNanos > maxNanos) {
            throw tooSlow("The upload took longer than " + seconds(maxNanos) + " s to arrive "
                    + "(privmat.ingest.max-upload-duration); nothing was stored.");
        }
    }

    /** Adds one read that brought {@code n} bytes after {@code waited} ns; checks a completed window. */
    private void checkRate(int n, long waited) {
        windowBytes += n;
        windowWaited += Math.max(0, waited);
        if (windowWaited >= windowNanos) {
            // Bytes per second of waiting, compared without division.
            if (windowBytes * 1_000_000_000L < minRate * windowWaited) {
                throw tooSlow("The upload arrived slower than " + minRate + " bytes per second over "
                        + seconds(windowNanos) + " s (privmat.ingest.min-upload-rate); nothing was stored.");
            }
            windowWaited = 0;
            windowBytes = 0;
        }
    }

    private RuntimeException translate(IOException e) {
        if (aborting.getAsBoolean()) {
            return shuttingDown();
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return tooSlow("The upload stopped sending for longer than the server's read timeout; "
                        + "nothing was stored.");
            }
        }
        return new java.io.UncheckedIOException(e);
    }

    private static long seconds(long nanos) {
        return Math.max(1, nanos / 1_000_000_000L);
    }

    static PrivmatException tooLarge(long limit) {
        return new PrivmatException(ProblemType.PAYLOAD_TOO_LARGE,
                "The upload exceeds the limit of " + limit + " bytes (privmat.ingest.max-upload-size).",
                Map.of("limitBytes", limit));
    }

    private static PrivmatException tooSlow(String detail) {
        return new PrivmatException(ProblemType.REQUEST_TIMEOUT, detail, Map.of());
    }

    static PrivmatException shuttingDown() {
        return new PrivmatException(ProblemType.SERVICE_UNAVAILABLE, "This replica is shutting down; the upload "
                + "was aborted and nothing was stored. Retry it.", Map.of("retryAfterSeconds", 5L));
    }
}
