package io.privmat.query.execution;

import io.privmat.dataset.DatasetRows;
import io.privmat.dataset.EdgeChunk;
import io.privmat.dataset.MatrixChunk;
import io.privmat.job.JobContext;
import io.privmat.job.JobView;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.EdgeSource;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.linalg.CompensatedSums;
import io.privmat.mechanism.linalg.GramAccumulator;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The stored chunks of a dataset as the statistics a mechanism reads. Job progress is reported from
 * public values only: where the row count is public (REPLACE_ONE matrices) as rows read over n; where
 * it is private (ADD_REMOVE matrices, and a graph's edge count) only at the boundaries of the public
 * number of passes, so no polled value depends on n (docs/adr/0005-mechanism-catalogue.md). Reading
 * spans progress [0, {@value #READ_SHARE}].
 */
final class StoredDataAccess implements DataAccess {

    static final double READ_SHARE = JobView.READ_SHARE;
    /** Largest share of the maximum heap that decoded rows held between passes may take. */
    static final double HELD_SHARE_OF_HEAP = 0.25;

    private final UUID datasetId;
    private final DatasetRows rows;
    private final JobContext context;
    private final PublicFacts facts;

    StoredDataAccess(UUID datasetId, DatasetRows rows, JobContext context, PublicFacts facts) {
        this.datasetId = datasetId;
        this.rows = rows;
        this.context = context;
        this.facts = facts;
    }

    /** Progress after {@code seen} rows of pass {@code pass} of {@code passes}: public values only. */
    private void progress(int pass, int passes, long seen) {
        double within = facts.publicRows() == null ? 0 : Math.min(1, (double) seen / Math.max(1, facts.publicRows()));
        context.progress(READ_SHARE * (pass + within) / passes);
    }

    /**
     * The stored ratings; progress only at the boundaries of passes (the mechanisms read a public
     * number of passes; the user count is private except under RATING).
     */
    @Override
    public RatingsSource ratings() {
        RatingsSource source = rows.ratings(datasetId);
        return new RatingsSource() {
            @Override
            public int items() {
                return source.items();
            }

            @Override
            public void forEachUser(UserVisitor visitor) {
                source.forEachUser(visitor);
                progress(1, 1, 0);
            }
        };
    }

    @Override
    public double[] columnSums() {
        CompensatedSums sums = new CompensatedSums(facts.cols());
        long[] seen = {0};
        rows.forEachMatrixChunk(datasetId, (MatrixChunk chunk) -> {
            chunk.forEachEntry((row, col, value) -> sums.add(col, value));
            seen[0] += chunk.rowCount();
            progress(0, 1, seen[0]);
        });
        return sums.result();
    }

    @Override
    public Gram gram(boolean withSums) {
        int d = facts.cols();
        GramAccumulator gram = new GramAccumulator(d);
        double[] sums = new double[withSums ? d : 0];
        readAhead(block -> {
            double[] dense = block.rows();
            int count = block.count();
            gram.addRows(dense, 0, count);
            if (withSums) {
                for (int r = 0; r < count; r++) {
                    for (int j = 0; j < d; j++) {
                        sums[j] += dense[r * d + j];
                    }
                }
            }
            progress(0, 1, gram.rows());
        });
        return new Gram(gram.result(), sums);
    }

    /**
     * The rows in stored chunks, {@code passes} times. Each stored pass is read by {@link ChunkReader}
     * one chunk ahead of the mechanism. When the mechanism reads more than once and the row count is
     * public, the first pass's dense blocks are kept for the later ones if the matrix takes at
     * most {@link #HELD_SHARE_OF_HEAP} of the maximum heap (public values only: m, d and the JVM's
     * setting), so PostgreSQL is read once; they are dropped after the last declared pass
     * (docs/benchmarks.md, "Randomized response end to end").
     */
    @Override
    public RowStream rows(int passes) {
        int[] pass = {0};
        List<Block> held = holds(passes) ? new ArrayList<>() : null;
        boolean[] complete = {false};
        return visitor -> {
            long[] seen = {0};
            int current = Math.min(pass[0], passes - 1);
            Consumer<Block> each = block -> {
                visitor.block(block.rows(), block.count(), seen[0]);
                seen[0] += block.count();
                progress(current, passes, seen[0]);
            };
            if (held != null && complete[0]) {
                held.forEach(each);
            } else {
                if (held != null) {
                    held.clear(); // a pass that failed part-way kept some
                }
                readAhead(block -> {
                    if (held != null) {
                        held.add(block);
                    }
                    each.accept(block);
                });
                complete[0] = held != null;
            }
            pass[0]++;
            if (held != null && pass[0] >= passes) {
                held.clear();
                complete[0] = false;
            }
        };
    }

    /** A stored chunk's rows, dense row-major. */
    private record Block(double[] rows, int count) {}

    /**
     * The stored chunks as dense blocks, in order; chunk i + 1 is read, decoded and densified on
     * {@link ChunkReader}'s thread while the job works on chunk i. A held pass keeps these blocks, so
     * a later pass neither reads nor densifies again.
     */
    private void readAhead(Consumer<Block> work) {
        ChunkReader.<Block>read(consumer -> rows.forEachMatrixChunk(datasetId,
                chunk -> consumer.accept(new Block(chunk.toDense(), chunk.rowCount()))), work);
    }

    /** Whether {@link #rows} keeps the dense blocks between passes (from public values only). */
    private boolean holds(int passes) {
        return holds(passes, facts.publicRows(), facts.cols(), Runtime.getRuntime().maxMemory());
    }

    @Override
    public boolean holdsRows(int passes) {
        return holds(passes);
    }

    /**
     * The rule of {@link #holds(int)}: more than one pass, a public row count m, and m·d float64 values
     * within {@link #HELD_SHARE_OF_HEAP} of the maximum heap. Its arguments are all public.
     */
    static boolean holds(int passes, Long publicRows, int cols, long maxHeap) {
        return passes > 1 && publicRows != null
                && (double) publicRows * cols * Double.BYTES <= maxHeap * HELD_SHARE_OF_HEAP;
    }

    @Override
    public double[] histogram() {
        double[] counts = rows.histogramCounts(datasetId);
        progress(0, 1, 0);
        return counts;
    }

    @Override
    public EdgeSource edges() {
        return visitor -> rows.forEachEdgeChunk(datasetId, (EdgeChunk chunk) -> {
            for (int i = 0; i < chunk.count(); i++) {
                visitor.edge(chunk.u()[i], chunk.v()[i], chunk.weight()[i]);
            }
            progress(0, 1, 0);
        });
    }
}
