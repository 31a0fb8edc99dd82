package io.privmat.dataset.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/**
 * The upload-rate check measures the client's bytes over the time the server waited for them inside
 * {@code read()}: the server's own pauses between reads (waiting for a connection, writing a chunk, a
 * loaded machine) and the final read that returns end-of-stream are not the client's. A clock the
 * test advances stands for time: a read advances it by the time the client took to send, a pause
 * between reads by the server's own time.
 */
class UploadStreamTest {

    private static final long SECOND = 1_000_000_000L;

    /** The fault suite's settings: at least 1 KiB/s over each 2 s window. */
    private static IngestSettings settings() {
        return new IngestSettings(DataSize.ofGigabytes(2), DataSize.ofMegabytes(4), 100_000, DataSize.ofGigabytes(2), 4,
                2, DataSize.ofKilobytes(16), Duration.ofMinutes(15), DataSize.ofKilobytes(1), Duration.ofSeconds(2),
                Duration.ofSeconds(20), 20_000_000);
    }

    /**
     * A client that sends {@code total} bytes, {@code perRead} at a time, each read taking
     * {@code waitPerRead} of the clock; end-of-stream takes {@code waitForEnd}.
     */
    private static final class Client extends InputStream {
        private final AtomicLong clock;
        private final long total;
        private final int perRead;
        private final long waitPerRead;
        private final long waitForEnd;
        private long sent;

        Client(AtomicLong clock, long total, int perRead, long waitPerRead, long waitForEnd) {
            this.clock = clock;
            this.total = total;
            this.perRead = perRead;
            this.waitPerRead = waitPerRead;
            this.waitForEnd = waitForEnd;
        }

        @Override
        public int read() {
            throw new UnsupportedOperationException();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (sent == total) {
                clock.addAndGet(waitForEnd);
                return -1;
            }
            clock.addAndGet(waitPerRead);
            int n = (int) Math.min(Math.min(len, perRead), total - sent);
            sent += n;
            return n;
        }
    }

    private static UploadStream upload(AtomicLong clock, Client client) {
        return new UploadStream(client, settings(), () -> false, clock::get);
    }

    /** Reads to the end, the server pausing {@code pause} before every read; the bytes read. */
    private static long readAll(UploadStream upload, AtomicLong clock, long pause, int buffer) throws Exception {
        byte[] b = new byte[buffer];
        long total = 0;
        for (int n; ; total += n) {
            clock.addAndGet(pause);
            n = upload.read(b, 0, b.length);
            if (n < 0) {
                return total;
            }
        }
    }

    @Test
    void theServersPauseBeforeTheEndOfAFastSmallUploadIsNotChargedToTheClient() throws Exception {
        // The fault suite's fixture: 52 bytes in one write, received whole; the server then waits
        // 5 s (a connection from a small pool on a loaded machine) before reading on to the end.
        AtomicLong clock = new AtomicLong();
        UploadStream upload = upload(clock, new Client(clock, 52, 1 << 16, 0, 0));
        byte[] head = upload.readNBytes(16 << 10);
        assertThat(head).hasSize(52);
        clock.addAndGet(5 * SECOND);
        assertThat(upload.read(new byte[8192], 0, 8192)).isEqualTo(-1);
        assertThat(upload.read()).isEqualTo(-1); // a second end-of-stream read, as a SequenceInputStream makes
        assertThat(upload.count()).isEqualTo(52);
    }

    @Test
    void theServersPausesBetweenReadsOfAFastUploadAreNotChargedToTheClient() throws Exception {
        // 64 KiB from a client that is always ahead; the server spends 3 s between reads (writing chunks).
        AtomicLong clock = new AtomicLong();
        UploadStream upload = upload(clock, new Client(clock, 64 << 10, 8192, 1_000_000, 0));
        assertThat(readAll(upload, clock, 3 * SECOND, 8192)).isEqualTo(64 << 10);
    }

    @Test
    void waitingForTheEndOfTheStreamIsNotChargedToTheClient() throws Exception {
        // All data at once, then the end of the body 3 s later (a chunked body's last chunk).
        AtomicLong clock = new AtomicLong();
        UploadStream upload = upload(clock, new Client(clock, 100, 100, 0, 3 * SECOND));
        assertThat(readAll(upload, clock, 0, 8192)).isEqualTo(100);
    }

    @Test
    void aClientTricklingAByteEveryEightTenthsOfASecondIsRefusedAfterTheWindow() {
        // SlowUploadsFaultTest's clients; the server's pauses between reads do not excuse them.
        AtomicLong clock = new AtomicLong();
        UploadStream upload = upload(clock, new Client(clock, 1_000, 1, 800_000_000L, 0));
        assertThatThrownBy(() -> readAll(upload, clock, SECOND, 8192)).isInstanceOfSatisfying(PrivmatException.class,
                e -> {
                    assertThat(e.type()).isEqualTo(ProblemType.REQUEST_TIMEOUT);
                    assertThat(e.getMessage()).contains("slower than 1024 bytes per second over 2 s");
                });
        // Refused on the read that completed the window: the third byte, after 2.4 s of waiting.
        assertThat(upload.count()).isEqualTo(3);
    }

    @Test
    void theRateIsTheClientsBytesOverTheTimeTheServerWaitedForThem() throws Exception {
        // Just above 1 KiB/s (600 bytes every 0.5 s = 1200 B/s) for 10 s passes, with server pauses.
        AtomicLong clock = new AtomicLong();
        UploadStream above = upload(clock, new Client(clock, 12_000, 600, SECOND / 2, 0));
        assertThat(readAll(above, clock, SECOND, 8192)).isEqualTo(12_000);
        // Just below (400 bytes every 0.5 s = 800 B/s) is refused after the first window.
        AtomicLong clock2 = new AtomicLong();
        UploadStream below = upload(clock2, new Client(clock2, 12_000, 400, SECOND / 2, 0));
        assertThatThrownBy(() -> readAll(below, clock2, 0, 8192)).isInstanceOfSatisfying(PrivmatException.class,
                e -> assertThat(e.type()).isEqualTo(ProblemType.REQUEST_TIMEOUT));
        assertThat(below.count()).isEqualTo(1_600);
    }

    @Test
    void theTotalTimeLimitStillCountsWallTime() {
        // max-upload-duration (15 min) bounds the whole upload, the server's time included.
        AtomicLong clock = new AtomicLong();
        UploadStream upload = upload(clock, new Client(clock, 1 << 20, 8192, 0, 0));
        assertThatThrownBy(() -> readAll(upload, clock, 60 * SECOND, 8192)).isInstanceOfSatisfying(
                PrivmatException.class, e -> assertThat(e.getMessage()).contains("longer than 900 s"));
    }
}
