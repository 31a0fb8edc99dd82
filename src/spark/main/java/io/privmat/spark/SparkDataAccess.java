package io.privmat.spark;

import io.privmat.dataset.EngineRun;
import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.EdgeSource;
import io.privmat.mechanism.catalog.GramOperator;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.linalg.FixedPointGram;
import io.privmat.mechanism.linalg.FixedPointWeightedSums;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.RuntimeConfig;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.ColumnarToRowExec;
import org.apache.spark.sql.execution.InputAdapter;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.jspecify.annotations.Nullable;

/**
 * An EXTERNAL dataset's statistics computed by Spark, for one job. Every statistic is one Spark pass
 * over the source (the power methods: one pass per iteration), run with public parameters only
 * ({@link PartitionStatistics}); the service receives sums, checks their shape and finiteness — and,
 * under REPLACE_ONE, that the pass met exactly the declared n rows — and the plan then adds the noise
 * with the service's sampler. Progress is reported at pass boundaries only (passes done over passes
 * planned, like the stored path where n is private), polled while a pass runs so that a cancelled job
 * cancels its Spark jobs.
 */
final class SparkDataAccess implements DataAccess {

    /** Reading spans progress [0, READ_SHARE], as on the stored path. */
    static final double READ_SHARE = 0.9;

    private final SparkEngine engine;
    private final ExternalSchema schema;
    private final PublicFacts facts;
    private final EngineRun context;
    private final String group;

    SparkDataAccess(SparkEngine engine, ExternalSchema schema, PublicFacts facts, EngineRun context) {
        if (facts.cols() != schema.d()) {
            throw new IllegalStateException("the plan's d differs from the declaration's");
        }
        this.engine = engine;
        this.schema = schema;
        this.facts = facts;
        this.context = context;
        this.group = "privmat-job-" + context.id();
    }

    private static JavaRDD<InternalRow> rows(SparkEngine.Source source) {
        JavaRDD<InternalRow> direct = source.direct();
        return direct != null ? direct : source.frame().queryExecution().toRdd().toJavaRDD();
    }

    /**
     * The vector layout's binary column as Spark's columnar batches, when the source's physical plan is
     * a columnar scan of that one column under nothing but the conversion to rows (Parquet's vectorised
     * reader, the default): Spark's own scan, the same files, partitions and rows as {@link #rows},
     * without turning each row into an {@code UnsafeRow} (a copy of its 8·d bytes). Null otherwise
     * (another layout, a scan Spark does not vectorise, any other plan): then read as rows. The Gram
     * and the column sums read such a source with {@link ParquetVectors} instead, when it plans one.
     *
     * <p>Batches of {@link #batchRows} rows instead of Spark's 4 096: the reader decodes a batch, then
     * the task reads it back, and a batch of about 2 MB is still in the cache when it does (4 096 rows
     * of 6 272 bytes are 26 MB; measured, docs/scale-out.md "Where a pass's time goes"). The size is
     * Spark's session setting, which the scan reads once, when this method builds it: it is set for
     * that moment and put back, one scan at a time (a scan another thread builds meanwhile without
     * this method may get either size; only its speed differs).
     */
    static @Nullable JavaRDD<ColumnarBatch> binaryBatches(SparkEngine.Source source, int d) {
        StructType type = source.frame().schema();
        if (type.fields().length != 1 || !(type.fields()[0].dataType() instanceof BinaryType)) {
            return null;
        }
        SparkPlan plan = belowConversion(source, SparkPlan::supportsColumnar);
        if (plan == null || plan.output().size() != 1 || !(plan.output().head().dataType() instanceof BinaryType)) {
            return null;
        }
        RuntimeConfig conf = source.frame().sparkSession().conf();
        // One scan at a time sets and puts back the size: two interleaved would leave the session at
        // the batch size for good (the second saving the first's setting as the one to restore).
        synchronized (BATCH_LOCK) {
            String before = conf.get(BATCH_SIZE);
            conf.set(BATCH_SIZE, Integer.toString(batchRows(d)));
            try {
                return plan.executeColumnar().toJavaRDD();
            } finally {
                conf.set(BATCH_SIZE, before);
            }
        }
    }

    /**
     * The first node of the source's physical plan that {@code found} accepts, below nothing but
     * whole-stage code generation and the conversion to rows; null when another node comes first.
     */
    static @Nullable SparkPlan belowConversion(SparkEngine.Source source, java.util.function.Predicate<SparkPlan> found) {
        SparkPlan plan = source.frame().queryExecution().executedPlan();
        while (!found.test(plan)) {
            if (plan instanceof WholeStageCodegenExec w) {
                plan = w.child();
            } else if (plan instanceof ColumnarToRowExec c) {
                plan = c.child();
            } else if (plan instanceof InputAdapter a) {
                plan = a.child();
            } else {
                return null;
            }
        }
        return plan;
    }

    private static final String BATCH_SIZE = "spark.sql.parquet.columnarReaderBatchSize";
    private static final Object BATCH_LOCK = new Object();

    /** Rows per columnar batch of d-double vectors: a power of two near 2 MiB of values, 16 to 4 096. */
    static int batchRows(int d) {
        return Integer.highestOneBit(Math.max(16, Math.min(4096, (1 << 21) / Math.max(1, 8 * d))));
    }

    private JavaSparkContext spark() {
        return JavaSparkContext.fromSparkContext(engine.session().sparkContext());
    }

    /**
     * Runs one Spark pass under this job's group, polling the job's state meanwhile: a cancelled or
     * reaped job cancels its Spark jobs and stops. Progress before the pass: done/planned.
     */
    private <T> T pass(int done, int planned, Supplier<T> action) {
        return pass(engine, context, group, READ_SHARE * done / planned, READ_SHARE * (done + 1) / planned, action);
    }

    /** One pass of job group {@code group}: progress {@code at} while it runs, {@code after} once done. */
    static <T> T pass(SparkEngine engine, EngineRun context, String group, double at, double after,
            Supplier<T> action) {
        context.progress(at);
        SparkContext sc = engine.session().sparkContext();
        CompletableFuture<T> future = CompletableFuture.supplyAsync(() -> {
            sc.setJobGroup(group, "privmat statistic pass", true);
            try {
                return action.get();
            } finally {
                sc.clearJobGroup();
            }
        }, engine.passThreads());
        try {
            while (true) {
                try {
                    T result = future.get(500, TimeUnit.MILLISECONDS);
                    context.progress(after);
                    return result;
                } catch (TimeoutException e) {
                    try {
                        context.progress(at);
                    } catch (RuntimeException stopped) {
                        sc.cancelJobGroupAndFutureJobs(group);
                        throw stopped;
                    }
                }
            }
        } catch (InterruptedException e) {
            sc.cancelJobGroupAndFutureJobs(group);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while Spark ran a pass", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException r ? r : new IllegalStateException("a Spark pass failed", cause);
        }
    }

    /** Fixed-point sums of every row in one pass. */
    private FixedPointGram sums(boolean withGram) {
        int d = facts.cols();
        double bound = facts.rowNormBound();
        FixedPointGram.State state = pass(0, 1, () -> {
            SparkEngine.Source source = engine.source(schema);
            ParquetVectors.Plan direct = ParquetVectors.plan(source);
            try {
                return sums(source, direct, d, bound, withGram);
            } finally {
                if (direct != null) {
                    direct.conf().destroy();
                }
            }
        });
        if (state.d() != d || state.sums().length != d || state.sumsHi().length != d || state.hi().length != (withGram ? (long) d * (d + 1) / 2 : 0)) {
            throw new IllegalStateException("the engine returned a statistic of the wrong shape");
        }
        checkRows(state.rows());
        return FixedPointGram.of(state);
    }

    /**
     * One partition's sums each, tree-reduced: the vector layout's binary Parquet column read directly
     * ({@link ParquetVectors}) when {@code direct} planned it, else as Spark's columnar batches, else as rows.
     */
    private FixedPointGram.State sums(SparkEngine.Source source, ParquetVectors.@Nullable Plan direct, int d,
            double bound, boolean withGram) {
        JavaRDD<ColumnarBatch> batches = direct == null ? binaryBatches(source, d) : null;
        JavaRDD<FixedPointGram.State> parts = direct != null
                ? direct.splits().mapPartitions(new ParquetVectors.Sums(d, bound, withGram, direct))
                : batches != null ? batches.mapPartitions(new PartitionStatistics.BatchSums(d, bound, withGram))
                : rows(source).mapPartitions(new PartitionStatistics.Sums(d, bound, withGram, source.reader()));
        return parts.getNumPartitions() == 0 ? new FixedPointGram(d, bound, withGram).state()
                : parts.treeReduce(FixedPointGram::merge, engine.treeDepth());
    }

    /**
     * Under REPLACE_ONE n is the owner's declaration: a pass that met another count fails the job
     * (its charge stays). Neighbouring datasets under REPLACE_ONE have the same count, so this
     * outcome is the same on both. Under ADD_REMOVE the count is never compared or shown.
     */
    private void checkRows(long seen) {
        Long declared = facts.publicRows();
        if (declared != null && seen != declared) {
            throw new ExternalRowCountException(declared);
        }
    }

    private static double[] finite(double[] values) {
        for (double v : values) {
            if (!Double.isFinite(v)) {
                throw new IllegalStateException("the engine returned a non-finite statistic");
            }
        }
        return values;
    }

    @Override
    public double[] columnSums() {
        return finite(sums(false).columnSums());
    }

    @Override
    public Gram gram(boolean withSums) {
        FixedPointGram g = sums(true);
        return new Gram(finite(g.gram()), withSums ? finite(g.columnSums()) : new double[0]);
    }

    @Override
    public GramOperator gramOperator(int d, int passes) {
        if (d != facts.cols()) {
            throw new IllegalArgumentException("d differs from the dataset's");
        }
        double bound = facts.rowNormBound();
        int[] done = {0};
        return (v, k, out) -> {
            double[] basis = java.util.Arrays.copyOf(v, d * k);
            int current = Math.min(done[0], passes - 1);
            double[] merged = pass(current, passes, () -> {
                Broadcast<double[]> shared = spark().broadcast(basis);
                try {
                    SparkEngine.Source source = engine.source(schema);
                    JavaRDD<double[]> parts = rows(source).mapPartitions(
                            new PartitionStatistics.GramTimes(d, k, bound, shared, source.reader()));
                    return parts.getNumPartitions() == 0 ? new double[2 * d * k + 1]
                            : parts.treeReduce(PartitionStatistics::mergeCompensated, engine.treeDepth());
                } finally {
                    shared.destroy();
                }
            });
            done[0]++;
            if (merged.length != 2 * d * k + 1) {
                throw new IllegalStateException("the engine returned a statistic of the wrong shape");
            }
            checkRows((long) merged[2 * d * k]);
            for (int i = 0; i < d * k; i++) {
                out[i] = merged[i] + merged[d * k + i];
            }
            finite(java.util.Arrays.copyOf(out, d * k));
        };
    }

    /**
     * The rows of the row mechanisms (randomized response and Hardt–Roth release one row per record:
     * REPLACE_ONE, n public). {@link RowStream#forEachBlock} streams the clipped rows themselves to the
     * service in order, partition by partition: the source's order (the same files give the same
     * order on every pass), in blocks of exactly {@code privmat.spark.row-block} rows. The two passes
     * Hardt–Roth makes ({@link RowStream#project}, {@link RowStream#weightedSums}) run on the executors
     * instead, and only their m × ℓ and ℓ × d results come back ({@link RowSketches}). Each pass must
     * meet exactly n rows.
     */
    @Override
    public RowStream rows(int passes) {
        return new Rows(passes);
    }

    /** One mechanism's passes over the rows, counted against the {@code passes} it declared. */
    private final class Rows implements RowStream {
        private final int passes;
        private int pass;
        /** Rows per partition as the last {@link #project} met them: the offsets of later passes. */
        private long[] partitionRows;

        Rows(int passes) {
            this.passes = passes;
        }

        private int next() {
            return Math.min(pass++, passes - 1);
        }

        /** n, which a pass that places rows by their index needs (REPLACE_ONE; checked before any pass). */
        private long declared(long expected) {
            Long declared = facts.publicRows();
            if (declared == null || declared != expected) {
                throw new IllegalStateException("a pass by row index needs the public row count it was planned with");
            }
            return declared;
        }

        @Override
        public void project(double[] w, int l, double[] y) {
            int d = facts.cols();
            long m = declared(y.length / l);
            if (w.length != d * l || y.length % l != 0) {
                throw new IllegalArgumentException("W must be d × ℓ and Y m × ℓ");
            }
            double[] basis = w.clone();
            partitionRows = null;
            long[] counts = pass(next(), passes, () -> {
                Broadcast<double[]> shared = spark().broadcast(basis);
                try {
                    SparkEngine.Source source = engine.source(schema);
                    JavaRDD<double[]> parts = rows(source).mapPartitions(
                            new RowSketches.Project(d, l, facts.rowNormBound(), shared, source.reader()));
                    int p = parts.getNumPartitions();
                    long[] seen = new long[p];
                    long at = 0;
                    // A few partitions' results at a time, in order: the driver holds Y and one window.
                    int window = Math.max(1, 2 * spark().defaultParallelism());
                    for (int first = 0; first < p; first += window) {
                        int[] ids = java.util.stream.IntStream.range(first, Math.min(p, first + window)).toArray();
                        List<double[]>[] results = parts.collectPartitions(ids);
                        for (int i = 0; i < ids.length; i++) {
                            double[] part = results[i].isEmpty() ? new double[0] : results[i].get(0);
                            if (results[i].size() > 1 || part.length % l != 0) {
                                throw new IllegalStateException("the engine returned a statistic of the wrong shape");
                            }
                            long rowsHere = part.length / l;
                            if (at + rowsHere > m) {
                                throw new ExternalRowCountException(m);
                            }
                            System.arraycopy(part, 0, y, Math.toIntExact(at * l), part.length);
                            seen[ids[i]] = rowsHere;
                            at += rowsHere;
                        }
                    }
                    checkRows(at);
                    return seen;
                } finally {
                    shared.destroy();
                }
            });
            partitionRows = counts;
        }

        @Override
        public double[] weightedSums(double[] a, int l, int d, double bound) {
            long[] counts = partitionRows;
            if (counts == null || d != facts.cols() || bound != facts.rowNormBound()) {
                // Not after a projection of these rows: the rows streamed through the default.
                return RowStream.super.weightedSums(a, l, d, bound);
            }
            long m = declared(a.length / l);
            if (a.length % l != 0 || java.util.Arrays.stream(counts).sum() != m) {
                throw new IllegalArgumentException("A must be m × ℓ");
            }
            // Each partition's slice of A, one element per partition, zipped with the rows' partitions;
            // a slice refers to A and is copied only into its task's bytes (the driver holds A once).
            List<RowSketches.Slice> slices = new java.util.ArrayList<>(counts.length);
            long at = 0;
            for (long c : counts) {
                slices.add(new RowSketches.Slice(a, Math.toIntExact(at * l), Math.toIntExact((at + c) * l)));
                at += c;
            }
            RowSketches.Part merged = pass(next(), passes, () -> {
                SparkEngine.Source source = engine.source(schema);
                JavaRDD<InternalRow> rows = rows(source);
                if (rows.getNumPartitions() != counts.length) {
                    throw new IllegalStateException("the source changed between two passes");
                }
                if (counts.length == 0) {
                    return new RowSketches.Part(new FixedPointWeightedSums(d, l, bound).state(), true);
                }
                return rows.zipPartitions(spark().parallelize(slices, counts.length),
                        new RowSketches.WeightedSums(d, l, bound, source.reader()))
                        .treeReduce(RowSketches.Part::merge, engine.treeDepth());
            });
            FixedPointWeightedSums.State state = merged.sums();
            if (state.d() != d || state.l() != l || state.hi().length != d * l || state.lo().length != d * l) {
                throw new IllegalStateException("the engine returned a statistic of the wrong shape");
            }
            checkRows(state.rows());
            if (!merged.aligned()) {
                throw new IllegalStateException("the source changed between two passes");
            }
            return FixedPointWeightedSums.of(state).result();
        }

        @Override
        public void forEachBlock(BlockVisitor visitor) {
            streamBlocks(next(), passes, visitor);
        }
    }

    /** One pass streaming the clipped rows to {@code visitor} in blocks of exactly the row-block size. */
    private void streamBlocks(int current, int passes, RowStream.BlockVisitor visitor) {
        int d = facts.cols();
        double bound = facts.rowNormBound();
        Long declared = facts.publicRows();
        context.progress(READ_SHARE * current / passes);
        SparkContext sc = engine.session().sparkContext();
        sc.setJobGroup(group, "privmat row pass", true);
        long seen = 0;
        int size = engine.rowBlock();
        // Blocks of exactly `size` rows (the last one shorter) whatever the partitions: a mechanism
        // that splits its noise per block then draws the same noise however the files are laid out.
        double[] out = new double[size * d];
        int filled = 0;
        try {
            SparkEngine.Source source = engine.source(schema);
            Iterator<double[]> blocks = rows(source).mapPartitions(
                    new PartitionStatistics.ClippedBlocks(d, bound, size, source.reader())).toLocalIterator();
            while (blocks.hasNext()) {
                double[] block = finite(blocks.next());
                int count = block.length / d;
                if (declared != null && seen + filled + count > declared) {
                    throw new ExternalRowCountException(declared);
                }
                int at = 0;
                while (at < count) {
                    int take = Math.min(count - at, size - filled);
                    System.arraycopy(block, at * d, out, filled * d, take * d);
                    filled += take;
                    at += take;
                    if (filled == size) {
                        visitor.block(out, size, seen);
                        seen += size;
                        filled = 0;
                        out = new double[size * d];
                        double within = declared == null ? 0 : (double) seen / Math.max(1, declared);
                        context.progress(READ_SHARE * (current + within) / passes);
                    }
                }
            }
            if (filled > 0) {
                visitor.block(java.util.Arrays.copyOf(out, filled * d), filled, seen);
                seen += filled;
            }
        } catch (RuntimeException stopped) {
            sc.cancelJobGroupAndFutureJobs(group);
            throw stopped;
        } finally {
            sc.clearJobGroup();
        }
        checkRows(seen);
    }

    @Override
    public EdgeSource edges() {
        throw new UnsupportedOperationException("an EXTERNAL dataset is a matrix");
    }
}
