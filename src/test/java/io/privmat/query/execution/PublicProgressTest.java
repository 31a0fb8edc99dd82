package io.privmat.query.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.DatasetRows;
import io.privmat.dataset.EdgeChunk;
import io.privmat.dataset.MatrixChunk;
import io.privmat.job.Job;
import io.privmat.job.JobContext;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.privacy.AccountingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Job progress must be a function of public values only. Under ADD_REMOVE the row count n is
 * private, and a graph's edge count is: the same public facts with a different number of stored
 * chunks must report exactly the same progress values (before, a polled value gave n to the unit:
 * 0.95·rowsSeen/n with a public rows-per-chunk).
 */
class PublicProgressTest {

    static final int D = 3;

    /** Stored rows in chunks of 10, and a recorder of what a job would publish as progress. */
    record Stored(int chunks) implements DatasetRows {
        @Override
        public void forEachMatrixChunk(UUID datasetId, Consumer<MatrixChunk> consumer) {
            for (int c = 0; c < chunks; c++) {
                double[] values = new double[10 * D];
                java.util.Arrays.fill(values, 0.1);
                consumer.accept(new MatrixChunk(10L * c, 10, D, false, null, null, values));
            }
        }

        @Override
        public void forEachEdgeChunk(UUID datasetId, Consumer<EdgeChunk> consumer) {
            for (int c = 0; c < chunks; c++) {
                consumer.accept(new EdgeChunk(c, 1, new int[] {0}, new int[] {1}, new double[] {1}));
            }
        }

        @Override
        public double[] histogramCounts(UUID datasetId) {
            return new double[] {chunks};
        }

        @Override
        public RatingsSource ratings(UUID datasetId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<String> ratingsUsers(UUID datasetId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.util.OptionalInt ratingsUserIndex(UUID datasetId, String userLabel) {
            throw new UnsupportedOperationException();
        }
    }

    static final class Recorder implements JobContext {
        final List<Double> values = new ArrayList<>();

        @Override
        public Job job() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void progress(double fraction) {
            values.add(fraction);
        }

        List<Double> distinct() {
            return values.stream().distinct().toList();
        }
    }

    static List<Double> run(int chunks, PublicFacts facts, String what) {
        Recorder r = new Recorder();
        StoredDataAccess data = new StoredDataAccess(UUID.randomUUID(), new Stored(chunks), r, facts);
        switch (what) {
            case "sums" -> data.columnSums();
            case "gram" -> data.gram(true);
            case "rows" -> {
                var stream = data.rows(3);
                for (int pass = 0; pass < 3; pass++) {
                    stream.forEachBlock((block, count, first) -> { });
                }
            }
            default -> data.edges().forEachEdge((u, v, w) -> { });
        }
        return r.distinct();
    }

    @Test
    void privateRowCountNeverShowsInProgress() {
        PublicFacts addRemove = new PublicFacts(DataShape.MATRIX, D, null, 1, NeighbouringRelation.ADD_REMOVE,
                AccountingMode.ZCDP);
        for (String what : List.of("sums", "gram", "rows")) {
            assertThat(run(5, addRemove, what)).as(what).isEqualTo(run(23, addRemove, what));
        }
        // Multi-pass jobs still show which public pass they are in.
        assertThat(run(5, addRemove, "rows")).containsExactly(0.0, 0.3, 0.6);
    }

    @Test
    void edgeCountNeverShowsInProgress() {
        PublicFacts graph = new PublicFacts(DataShape.GRAPH, 50, 50L, 1, NeighbouringRelation.REPLACE_ONE,
                AccountingMode.ZCDP);
        assertThat(run(4, graph, "edges")).isEqualTo(run(40, graph, "edges"));
    }

    @Test
    void publicRowCountStillGivesFineProgress() {
        PublicFacts replace = new PublicFacts(DataShape.MATRIX, D, 50L, 1, NeighbouringRelation.REPLACE_ONE,
                AccountingMode.ZCDP);
        assertThat(run(5, replace, "sums")).hasSize(5).last().isEqualTo(0.9);
    }
}
