package io.privmat.query.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.dataset.DatasetRows;
import io.privmat.dataset.EdgeChunk;
import io.privmat.dataset.MatrixChunk;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.privacy.AccountingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * How a job reads stored rows: chunks arrive in stored order from a reader one chunk ahead
 * ({@link ChunkReader}), failures on either side end the pass with the failure and without a
 * reader left running, and a multi-pass read keeps the first pass's chunks only when the row count
 * is public (docs/benchmarks.md, "Randomized response end to end").
 */
class StoredDataAccessReadTest {

    private static final int D = PublicProgressTest.D;

    /** {@link PublicProgressTest.Stored} (chunks of 10 rows) counting its matrix reads. */
    private static final class Counting implements DatasetRows {
        final AtomicInteger reads = new AtomicInteger();
        final PublicProgressTest.Stored stored;

        Counting(int chunks) {
            stored = new PublicProgressTest.Stored(chunks);
        }

        @Override
        public void forEachMatrixChunk(UUID datasetId, Consumer<MatrixChunk> consumer) {
            reads.incrementAndGet();
            stored.forEachMatrixChunk(datasetId, consumer);
        }

        @Override
        public void forEachEdgeChunk(UUID datasetId, Consumer<EdgeChunk> consumer) {
            stored.forEachEdgeChunk(datasetId, consumer);
        }

        @Override
        public double[] histogramCounts(UUID datasetId) {
            return stored.histogramCounts(datasetId);
        }

        @Override
        public RatingsSource ratings(UUID datasetId) {
            return stored.ratings(datasetId);
        }

        @Override
        public List<String> ratingsUsers(UUID datasetId) {
            return stored.ratingsUsers(datasetId);
        }

        @Override
        public OptionalInt ratingsUserIndex(UUID datasetId, String userLabel) {
            return stored.ratingsUserIndex(datasetId, userLabel);
        }
    }

    /** Every block of every pass: (firstRow, count, first value). */
    private static List<List<Double>> passes(RowStream stream, int passes) {
        List<List<Double>> seen = new ArrayList<>();
        for (int p = 0; p < passes; p++) {
            List<Double> blocks = new ArrayList<>();
            stream.forEachBlock((block, count, first) -> {
                blocks.add((double) first);
                blocks.add((double) count);
                blocks.add(block[0]);
            });
            seen.add(blocks);
        }
        return seen;
    }

    @Test
    void laterPassesReuseTheChunksWhenTheRowCountIsPublic() {
        Counting rows = new Counting(7);
        PublicFacts replace = new PublicFacts(DataShape.MATRIX, D, 70L, 1, NeighbouringRelation.REPLACE_ONE,
                AccountingMode.ZCDP);
        StoredDataAccess data = new StoredDataAccess(UUID.randomUUID(), rows, new PublicProgressTest.Recorder(), replace);
        RowStream stream = data.rows(2);
        List<List<Double>> seen = passes(stream, 2);
        assertThat(seen.get(0)).hasSize(21).isEqualTo(seen.get(1));
        assertThat(seen.get(0).subList(0, 3)).containsExactly(0.0, 10.0, 0.1);
        assertThat(rows.reads).hasValue(1);
        // Past the declared passes the chunks are dropped: a further pass reads again.
        passes(stream, 1);
        assertThat(rows.reads).hasValue(2);
    }

    /**
     * Whether the rows are held between passes (and so whether randomized response draws its noise
     * once, holding its noisy rows instead) is a function of public values only: the passes, the
     * public row count, d and the maximum heap; two datasets with the same public facts and different
     * rows get the same answer.
     */
    @Test
    void holdingTheRowsIsDecidedFromPublicValuesOnly() {
        long heap = 4L * 70 * D * Double.BYTES; // a quarter of it is exactly 70 rows of D float64
        assertThat(StoredDataAccess.holds(2, 70L, D, heap)).isTrue();
        assertThat(StoredDataAccess.holds(2, 71L, D, heap)).isFalse();
        assertThat(StoredDataAccess.holds(2, 70L, D, heap - 1)).isFalse();
        assertThat(StoredDataAccess.holds(1, 70L, D, heap)).as("one pass holds nothing").isFalse();
        assertThat(StoredDataAccess.holds(2, null, D, Long.MAX_VALUE)).as("a private row count").isFalse();
        PublicFacts replace = new PublicFacts(DataShape.MATRIX, D, 70L, 1, NeighbouringRelation.REPLACE_ONE,
                AccountingMode.ZCDP);
        for (int chunks : new int[] {1, 7}) {
            StoredDataAccess data = new StoredDataAccess(UUID.randomUUID(), new Counting(chunks),
                    new PublicProgressTest.Recorder(), replace);
            assertThat(data.holdsRows(2)).isEqualTo(StoredDataAccess.holds(2, 70L, D, Runtime.getRuntime().maxMemory()))
                    .isTrue();
            assertThat(data.holdsRows(1)).isFalse();
        }
    }

    @Test
    void everyPassReadsWhenTheRowCountIsPrivate() {
        Counting rows = new Counting(7);
        PublicFacts addRemove = new PublicFacts(DataShape.MATRIX, D, null, 1, NeighbouringRelation.ADD_REMOVE,
                AccountingMode.ZCDP);
        StoredDataAccess data = new StoredDataAccess(UUID.randomUUID(), rows, new PublicProgressTest.Recorder(),
                addRemove);
        List<List<Double>> seen = passes(data.rows(2), 2);
        assertThat(seen.get(0)).hasSize(21).isEqualTo(seen.get(1));
        assertThat(rows.reads).hasValue(2);
    }

    private static MatrixChunk chunk(int c) {
        return new MatrixChunk(c, 1, 1, false, null, null, new double[] {c});
    }

    @Test
    void chunksArriveInStoredOrder() {
        List<Double> got = new ArrayList<>();
        ChunkReader.<MatrixChunk>read(consumer -> {
            for (int c = 0; c < 200; c++) {
                consumer.accept(chunk(c));
            }
        }, chunk -> got.add(chunk.values()[0]));
        assertThat(got).hasSize(200);
        for (int c = 0; c < 200; c++) {
            assertThat(got.get(c)).isEqualTo(c);
        }
    }

    @Test
    void theReadersFailureIsRethrownOnTheJobsThread() {
        IllegalStateException failure = new IllegalStateException("read failed");
        List<Double> got = new ArrayList<>();
        assertThatThrownBy(() -> ChunkReader.<MatrixChunk>read(consumer -> {
            consumer.accept(chunk(0));
            consumer.accept(chunk(1));
            throw failure;
        }, chunk -> got.add(chunk.values()[0]))).isSameAs(failure);
        assertThat(got).containsExactly(0.0, 1.0);
    }

    @Test
    void theJobsFailureStopsTheReaderBeforeItPropagates() throws InterruptedException {
        AtomicInteger produced = new AtomicInteger();
        Thread[] readerThread = new Thread[1];
        IllegalArgumentException failure = new IllegalArgumentException("cancelled");
        assertThatThrownBy(() -> ChunkReader.<MatrixChunk>read(consumer -> {
            readerThread[0] = Thread.currentThread();
            for (int c = 0; c < 1_000_000; c++) {
                produced.incrementAndGet();
                consumer.accept(chunk(c));
            }
        }, chunk -> {
            if (chunk.values()[0] == 2) {
                throw failure;
            }
        })).isSameAs(failure);
        // Joined: no read goes on after the pass ended, and it stopped within a few chunks.
        assertThat(readerThread[0].isAlive()).isFalse();
        int after = produced.get();
        assertThat(after).isLessThanOrEqualTo(6);
        Thread.sleep(100);
        assertThat(produced).hasValue(after);
    }
}
