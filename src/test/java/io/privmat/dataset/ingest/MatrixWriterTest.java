package io.privmat.dataset.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privmat.dataset.MatrixChunk;
import io.privmat.dataset.storage.ChunkCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Chunks written on the upload's second thread: same content as rows in, failures reach the parser. */
class MatrixWriterTest {

    private static final int COLS = 3;

    private record Stored(int chunkNo, long firstRow, int rows, String encoding, long nnz, byte[] payload) {}

    private static MatrixWriter.ChunkStore recording(List<Stored> stored) {
        return (no, first, rows, encoding, nnz, payload) -> {
            byte[] copy = new byte[payload.remaining()];
            payload.get(copy);
            stored.add(new Stored(no, first, rows, encoding, nnz, copy));
        };
    }

    @Test
    void chunksHoldTheClippedRowsInOrder() {
        List<Stored> stored = new ArrayList<>();
        UploadStats stats;
        try (ChunkPipeline pipeline = ChunkPipeline.threaded()) {
            // 2 rows per chunk: 5 rows make 3 chunks, the last one short
            MatrixWriter writer = new MatrixWriter(recording(stored), pipeline, COLS, 1.0, 2 * COLS * 8);
            double[] row = new double[COLS];
            for (int r = 0; r < 5; r++) {
                row[0] = r;
                row[1] = r == 3 ? 0 : 0.5;
                row[2] = 0;
                writer.denseRow(row);
            }
            stats = writer.finish("CSV", 123);
        }
        assertThat(stats.rows()).isEqualTo(5);
        assertThat(stats.clippedRows()).isEqualTo(4); // rows 1 to 4 are longer than 1
        assertThat(stored).extracting(Stored::chunkNo).containsExactly(0, 1, 2);
        assertThat(stored).extracting(Stored::firstRow).containsExactly(0L, 2L, 4L);
        assertThat(stored).extracting(Stored::rows).containsExactly(2, 2, 1);
        int r = 0;
        for (Stored s : stored) {
            double[] dense = ChunkCodec.decodeMatrix(s.firstRow(), s.rows(), COLS, s.encoding(), s.nnz(), s.payload())
                    .toDense();
            for (int i = 0; i < s.rows(); i++, r++) {
                double x = r;
                double y = r == 3 ? 0 : 0.5;
                double scale = Math.min(1, 1 / Math.hypot(x, y));
                assertThat(Math.sqrt(dense[i * COLS] * dense[i * COLS] + dense[i * COLS + 1] * dense[i * COLS + 1]))
                        .as("row %d norm", r).isLessThanOrEqualTo(1.0);
                assertThat(dense[i * COLS]).as("row %d", r).isCloseTo(x * scale, within(1e-12));
                assertThat(dense[i * COLS + 1]).as("row %d", r).isCloseTo(y * scale, within(1e-12));
                assertThat(dense[i * COLS + 2]).isZero();
            }
        }
        assertThat(r).isEqualTo(5);
    }

    @Test
    void aFailedWriteReachesTheParserAndNothingIsWrittenAfterIt() {
        List<Integer> written = new ArrayList<>();
        MatrixWriter.ChunkStore failingThird = (no, first, rows, encoding, nnz, payload) -> {
            if (no == 2) {
                throw new IllegalStateException("disk full");
            }
            written.add(no);
        };
        assertThatThrownBy(() -> {
            try (ChunkPipeline pipeline = ChunkPipeline.threaded()) {
                MatrixWriter writer = new MatrixWriter(failingThird, pipeline, COLS, 1.0, COLS * 8);
                for (int r = 0; r < 100; r++) {
                    writer.denseRow(new double[] {0.1, 0.2, 0.3});
                }
                writer.finish("CSV", 0);
            }
        }).isInstanceOf(IllegalStateException.class).hasMessage("disk full");
        assertThat(written).containsExactly(0, 1);
    }

    @Test
    void aParserFailureWaitsForTheWriteInFlight() throws Exception {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        MatrixWriter.ChunkStore slow = (no, first, rows, encoding, nnz, payload) -> {
            writing.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            finished.set(true);
        };
        Thread releaser = new Thread(() -> {
            try {
                writing.await(10, TimeUnit.SECONDS);
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            release.countDown();
        });
        releaser.start();
        assertThatThrownBy(() -> {
            try (ChunkPipeline pipeline = ChunkPipeline.threaded()) {
                MatrixWriter writer = new MatrixWriter(slow, pipeline, COLS, 1.0, COLS * 8);
                writer.denseRow(new double[] {0.1, 0.2, 0.3}); // one full chunk: its write starts
                assertThat(writing.await(10, TimeUnit.SECONDS)).isTrue();
                throw InvalidDataException.at(2, 1, "not a decimal number");
            }
        }).isInstanceOf(InvalidDataException.class);
        // close() returned only after the write in flight had ended: the rollback never races a write
        assertThat(finished).isTrue();
        releaser.join();
    }

    @Test
    void inlinePipelineWritesOnTheCallingThread() {
        List<String> threads = new ArrayList<>();
        try (ChunkPipeline pipeline = ChunkPipeline.inline()) {
            MatrixWriter writer = new MatrixWriter((no, first, rows, encoding, nnz, payload) ->
                    threads.add(Thread.currentThread().getName()), pipeline, COLS, Double.NaN, COLS * 8);
            writer.denseRow(new double[] {5, 0, 0});
            assertThat(threads).containsExactly(Thread.currentThread().getName());
            assertThat(writer.finish("CSV", 0).clippedRows()).isZero();
        }
    }

    @Test
    void sparseChunksEncodeIntoTheReusedBuffer() {
        ByteBuffer into = ByteBuffer.allocate(64);
        double[] dense = {0, 2, 0, 0, 0, 0};
        ByteBuffer out = ChunkCodec.encodeSparse(dense, 2, COLS, 1, into);
        assertThat(out.remaining()).isEqualTo(2 * 4 + 12);
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        MatrixChunk chunk = ChunkCodec.decodeMatrix(0, 2, COLS, "SPARSE", 1, bytes);
        assertThat(chunk.values()).containsExactly(2.0);
    }
}
