package io.privmat.spark;

import io.privmat.config.NativeBlas;
import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.linalg.FixedPointGram;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Rows per second of the Gram statistic XᵀX at d = 784 (B = 1): the Spark path on embedded
 * {@code local[2]} ({@link SparkDataAccess#gram}: Parquet read, clip, quantise, exact fixed-point
 * blocks, tree reduction) for both layouts of an EXTERNAL dataset — d scalar columns, and the vector
 * layout (one binary column of 8·d little-endian bytes per row) — against numpy's {@code X.T @ X}
 * (OpenBLAS dsyrk, src/bench/python/gram_numpy_rows.py) over the same rows in the same run, and the
 * in-process kernels over rows already in memory: {@link FixedPointGram} (the exact kernel a Spark
 * task runs, here in one thread) and {@link GramAccumulator} (the stored path's floating dsyrk).
 *
 * <p>The rows: entry (i, j) is (u − 0.5)·0.1 with u = ((i·d + j)·2654435761 mod 2³²)/2³², the same
 * doubles in Java and in numpy (‖x‖ ≈ 0.8 &lt; B). Spark writes the smallest size once per layout (8
 * files) into a temporary directory, deleted afterwards; each larger size (a multiple of the smallest)
 * is a directory of hard links to those files — the same rows repeated, as numpy's sizes are — so the
 * files come from the page cache (no disk or network time is measured). Each measurement is repeated
 * ({@code -Dprivmat.bench.reps}, default 3) and the median reported; numpy's trace is checked against
 * Spark's. The machine's cores are shared by every path: rows/s per core is rows/s ÷ the cores. For
 * numpy and the vector layout the CPU seconds of each process (all threads) are reported too: a
 * shared machine's load disturbs them far less than wall-clock time. {@link #gramPassBreakdown} says
 * where a pass's time goes.
 *
 * <p>Also measured: the exact block kernel alone (one thread: dsyrk of a block of m quantised rows
 * plus its conversion to {@code long}s) for block sizes m = 256 (exact on the 2⁻²² grid), 512 (the
 * largest exact there: m·2⁴⁴ ≤ 2⁵³) and the sizes a coarser grid 2⁻ᶠ would allow (m ≤ 2^(53−2f)):
 * whether larger blocks pay (docs/scale-out.md).
 *
 * <p>Sizes: {@code -Dprivmat.bench.rows=100000,1000000} (the default); layouts:
 * {@code -Dprivmat.bench.layouts=vector,columns} (the default; {@code vector} alone skips the scalar
 * layout, e.g. at 10⁷ rows).
 *
 * <p>{@code -Dprivmat.bench.codec=none} writes the Parquet uncompressed (default {@code snappy},
 * Spark's default; the benchmark's uniform doubles do not compress, so snappy only costs time).
 *
 * <p>{@code -Dprivmat.bench.distinct=true} measures reading from disk instead: every size is written
 * as its own distinct rows ({@link #pixel}: seeded integer pixels, about half of them 0, times
 * 2⁻¹³ — a dyadic scale, so the doubles have short mantissas and compress like image data;
 * ‖x‖ ≤ 0.87 &lt; B),
 * 8 files per 10⁵ rows, no hard links; the generation is timed and printed apart from the measurement;
 * before each Spark pass the page cache is dropped ({@code sync}, then 3 into
 * /proc/sys/vm/drop_caches, when permitted — the report says whether it was). numpy keeps its
 * in-memory rows (its time does not depend on the values), so the trace check is skipped.
 * {@code -Dprivmat.bench.dir} puts the Parquet on a chosen disk (default: a temporary directory).
 * {@code -Dprivmat.bench.warmups=N} runs N untimed vector passes over the smallest size before its
 * timed ones (default 0: only the 20 000-row warm-up pass), so the timed passes find the JIT's steady
 * state.
 * Run:
 * {@code ./mvnw -o test -Pspark,benchmark -Dtest=SparkGramBenchmark#gramRowsPerSecond}. Prints the table and writes
 * target/benchmarks/spark-gram.txt.
 */
@Tag("benchmark")
class SparkGramBenchmark {

    static final int D = 784;
    static final double B = 1;
    static final int POOL = 4096;
    static final int[] KERNEL_BLOCKS = {256, 512, 2048, 8192};

    @Test
    void gramRowsPerSecond() throws IOException, InterruptedException {
        NativeBlas.install();
        long[] sizes = Arrays.stream(System.getProperty("privmat.bench.rows", "100000,1000000").split(","))
                .mapToLong(s -> Long.parseLong(s.trim())).toArray();
        int reps = Integer.getInteger("privmat.bench.reps", 3);
        // Which layouts: "vector,columns" (the default); 10⁷ rows of the scalar layout take long.
        boolean withColumns = System.getProperty("privmat.bench.layouts", "vector,columns").contains("columns");
        boolean distinct = Boolean.getBoolean("privmat.bench.distinct");
        int warmups = Integer.getInteger("privmat.bench.warmups", 0);
        int cores = Runtime.getRuntime().availableProcessors();
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "Gram X^T X, d = %d, B = %.0f; BLAS: %s; cores: %d; medians of %d; load average before: %s%n", D, B,
                LinearAlgebra.implementation(), cores, reps, load()));
        report.append(String.format(Locale.ROOT, "%10s %22s %10s %12s %14s %10s %10s%n", "rows", "path", "seconds",
                "rows/s", "rows/s/core", "x numpy", "parquet MB"));
        double[] pool = pool();
        // Warm-up: JIT and Spark's first job.
        inProcess(pool, 20_000, false);
        inProcess(pool, 20_000, true);
        kernelReport(report, pool);
        String where = System.getProperty("privmat.bench.dir");
        Path dir = where == null ? Files.createTempDirectory("privmat-bench")
                : Files.createTempDirectory(Files.createDirectories(Path.of(where)), "privmat-bench");
        try {
            if (withColumns) {
                spark(write(dir, "warm-columns", 20_000, false, distinct));
            }
            spark(write(dir, "warm-vector", 20_000, true, distinct));
            long base = Arrays.stream(sizes).min().orElseThrow();
            long baseWritten = System.nanoTime();
            ExternalSchema columns = withColumns ? write(dir, "columns", base, false, distinct) : null;
            ExternalSchema vector = write(dir, "vector", base, true, distinct);
            baseWritten = System.nanoTime() - baseWritten;
            for (long n : sizes) {
                if (n % base != 0) {
                    throw new IllegalArgumentException("sizes must be multiples of the smallest: " + n);
                }
                ExternalSchema c;
                ExternalSchema v;
                if (distinct) {
                    long t0 = System.nanoTime();
                    c = !withColumns || n == base ? columns : write(dir, "c" + n, n, false, true);
                    v = n == base ? vector : write(dir, "v" + n, n, true, true);
                    long written = n == base ? baseWritten : System.nanoTime() - t0;
                    String generated = String.format(Locale.ROOT,
                            "%d distinct rows written in %.1f s (not measured): vector %.0f MB on disk%s%n", n,
                            written / 1e9, size(Path.of(v.location())) / 1e6,
                            withColumns ? String.format(Locale.ROOT, ", columns %.0f MB",
                                    size(Path.of(c.location())) / 1e6) : "");
                    line(report, generated);
                } else {
                    int times = (int) (n / base);
                    c = !withColumns || n == base ? columns : copies(columns, dir.resolve("c" + n), times);
                    v = n == base ? vector : copies(vector, dir.resolve("v" + n), times);
                }
                StringBuilder loads = new StringBuilder();
                loads.append(String.format(Locale.ROOT, "load average before %d rows: %s%n", n, load()));
                for (int w = 0; n == base && w < warmups; w++) {
                    sparkTimed(v); // untimed: the JIT's steady state before the first timed pass
                }
                double[] numpy = numpy(base, n, reps);
                double numpySeconds = numpy[0];
                double sparkTrace = 0;
                double[] vectorTimes = new double[reps];
                double[] vectorCpu = new double[reps];
                double[] columnTimes = new double[reps];
                for (int r = 0; r < reps; r++) {
                    dropCaches(distinct, loads);
                    double[] timed = sparkTimed(v);
                    vectorTimes[r] = timed[0];
                    sparkTrace = timed[1];
                    vectorCpu[r] = timed[2];
                    dropCaches(distinct && withColumns, loads);
                    columnTimes[r] = withColumns ? sparkTimed(c)[0] : Double.NaN;
                }
                // The same rows: numpy's trace and the exact statistic's agree to the grid (2⁻²² per entry).
                if (!distinct && Math.abs(sparkTrace - numpy[1]) > 1e-5 * numpy[1]) {
                    throw new AssertionError("numpy's rows differ from Spark's: trace " + numpy[1] + " vs " + sparkTrace);
                }
                // The in-process kernels' rate does not depend on n: measured at the smallest size only.
                double[] fp = new double[n == base ? reps : 0];
                double[] syrk = new double[fp.length];
                for (int r = 0; r < fp.length; r++) {
                    fp[r] = inProcess(pool, n, true);
                    syrk[r] = inProcess(pool, n, false);
                }
                row(report, n, "numpy X.T @ X", numpySeconds, numpySeconds, cores, 0);
                row(report, n, "spark vector column", median(vectorTimes), numpySeconds, cores,
                        size(Path.of(v.location())) / 1e6);
                String cpuLine = String.format(Locale.ROOT,
                        "%10d CPU seconds (all threads): numpy %.2f, spark vector column %.2f: %.2f x numpy per"
                        + " CPU second (rounds: %s s, %s CPU s; %d untimed passes over %d rows first)%n", n,
                        numpy[2], median(vectorCpu), numpy[2] / median(vectorCpu), rounded(vectorTimes),
                        rounded(vectorCpu), warmups, base);
                line(report, cpuLine);
                if (withColumns) {
                    row(report, n, "spark 784 columns", median(columnTimes), numpySeconds, cores,
                            size(Path.of(c.location())) / 1e6);
                }
                if (distinct && n != base) {
                    delete(Path.of(v.location())); // the disk is for the next size
                    if (withColumns) {
                        delete(Path.of(c.location()));
                    }
                }
                loads.append(String.format(Locale.ROOT, "load average after %d rows: %s%n", n, load()));
                line(report, loads.toString());
                if (fp.length > 0) {
                    row(report, n, "in-process fp", median(fp), numpySeconds, cores, 0);
                    row(report, n, "in-process syrk", median(syrk), numpySeconds, cores, 0);
                }
            }
        } finally {
            delete(dir);
        }
        finish(report, "target/benchmarks/spark-gram.txt");
    }

    /**
     * Hardt–Roth (k = 10, p = 10, ℓ = 20) on the vector layout of the benchmark's rows, its two passes
     * on the executors (XΩ and Q̃ᵀX̃ come back) against the same release with the rows streamed to the
     * driver block by block (what every row-stream mechanism did before): the whole release, seconds,
     * medians of {@code privmat.bench.reps}; the two give the same bits (checked). Rows:
     * {@code -Dprivmat.bench.hr.rows} (default 100 000). Run with
     * {@code -Dtest=SparkGramBenchmark#hardtRothPasses}; writes target/benchmarks/spark-hardt-roth.txt.
     */
    @Test
    void hardtRothPasses() throws IOException {
        NativeBlas.install();
        long n = Long.getLong("privmat.bench.hr.rows", 100_000);
        int reps = Integer.getInteger("privmat.bench.reps", 3);
        var hr = io.privmat.mechanism.lowrank.HardtRothMechanism.of(Math.toIntExact(n), D, 10, 10, B, 1,
                java.math.BigDecimal.ONE, new java.math.BigDecimal("1e-6"));
        String before = load();
        Path dir = Files.createTempDirectory("privmat-bench-hr");
        try {
            ExternalSchema vector = write(dir, "vector", n, true, false);
            DataAccess warm = SparkTestData.access(vector,
                    SparkTestData.facts(D, B, n, NeighbouringRelation.REPLACE_ONE), new SparkTestData.Recorder());
            warm.gram(false);
            double[] executors = new double[reps];
            double[] streamed = new double[reps];
            double[] first = null;
            for (int r = 0; r < reps; r++) {
                DataAccess a = SparkTestData.access(vector,
                        SparkTestData.facts(D, B, n, NeighbouringRelation.REPLACE_ONE), new SparkTestData.Recorder());
                long t0 = System.nanoTime();
                var f = hr.release(a.rows(2), TestNoiseSources.seeded(3));
                executors[r] = (System.nanoTime() - t0) / 1e9;
                DataAccess b = SparkTestData.access(vector,
                        SparkTestData.facts(D, B, n, NeighbouringRelation.REPLACE_ONE), new SparkTestData.Recorder());
                RowStream rows = b.rows(2)::forEachBlock;
                long t1 = System.nanoTime();
                var g = hr.release(rows, TestNoiseSources.seeded(3));
                streamed[r] = (System.nanoTime() - t1) / 1e9;
                if (!Arrays.equals(f.v(), g.v()) || !Arrays.equals(f.s(), g.s())) {
                    throw new AssertionError("the executors' release differs from the streamed one");
                }
                first = f.s();
            }
            String report = String.format(Locale.ROOT,
                    "Hardt-Roth k = 10, l = 20, d = %d, %d rows (vector layout, local[2]), medians of %d; load average"
                    + " before: %s, after: %s%n  passes on the executors: %.2f s%n  rows streamed to the driver:"
                    + " %.2f s%n  s[0] = %.6g (both)%n", D, n, reps, before, load(), median(executors),
                    median(streamed), first[0]);
            System.out.println(report);
            Path out = Path.of("target/benchmarks/spark-hardt-roth.txt");
            Files.createDirectories(out.getParent());
            Files.writeString(out, report);
        } finally {
            delete(dir);
        }
    }

    /**
     * Where a Spark Gram pass's time goes (vector layout, {@code -Dprivmat.bench.rows}' smallest size,
     * default 10⁵): the same files read by Spark jobs that stop after each stage of a task — the scan
     * alone (Parquet decode into Spark's rows), the copy of each row's bytes into doubles, the
     * quantisation, the whole exact kernel with its result dropped — then the real pass (with the
     * tree reduction) and the reduction alone (each partition returning an empty accumulator of the same
     * size). Each a median of {@code privmat.bench.reps}; differences are the stages' costs on the
     * machine's cores. Also: the exact block kernel with one and with two calling threads (do two tasks'
     * dsyrk calls share or oversubscribe OpenBLAS's threads?). Run with
     * {@code -Dtest=SparkGramBenchmark#gramPassBreakdown}; writes target/benchmarks/spark-gram-breakdown.txt.
     */
    @Test
    void gramPassBreakdown() throws IOException, InterruptedException {
        NativeBlas.install();
        long n = smallestRows();
        int reps = Integer.getInteger("privmat.bench.reps", 3);
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "Gram pass breakdown, d = %d, %d rows, vector layout, local[2]; BLAS: %s; medians of %d; load average"
                + " before: %s%n", D, n, LinearAlgebra.implementation(), reps, load()));
        double[] pool = pool();
        kernelThreads(report, pool, reps);
        Path dir = Files.createTempDirectory("privmat-bench-breakdown");
        try {
            ExternalSchema vector = write(dir, "vector", n, true, false);
            spark(vector); // warm-up
            SparkEngine engine = SparkTestData.engine();
            for (Stage stage : Stage.values()) {
                double[] times = new double[reps];
                double[] cpus = new double[reps];
                for (int r = 0; r < reps; r++) {
                    SparkEngine.Source source = engine.source(vector);
                    double c0 = cpu();
                    long t0 = System.nanoTime();
                    long rows = stage.columnar ? SparkDataAccess.binaryBatches(source, D)
                            .mapPartitions(new BatchStageTask(stage, D)).reduce(Long::sum)
                            : source.frame().queryExecution().toRdd().toJavaRDD()
                            .mapPartitions(new StageTask(stage, D, B, source.reader())).reduce(Long::sum);
                    times[r] = (System.nanoTime() - t0) / 1e9;
                    cpus[r] = cpu() - c0;
                    if (rows != n) {
                        throw new AssertionError(stage + " met " + rows + " rows");
                    }
                }
                breakdownRow(report, stage.what, median(times), median(cpus), n);
            }
            // The whole pass four ways, interleaved (the machine's load varies): rows as UnsafeRows with
            // OpenBLAS's own thread count (4 096-row batches before the conversion to rows), columnar
            // batches of 256 rows likewise, with one thread per task (as shipped), and the same with
            // Spark's 4 096-row batches.
            String[] ways = {"pass: UnsafeRows, OpenBLAS threads as they are",
                "pass: columnar, OpenBLAS threads as they are", "pass: columnar, 1 OpenBLAS thread per task (as shipped)",
                "pass: as shipped but batches of 4096 rows, not 256"};
            double[][] wall = new double[ways.length][reps];
            double[][] cpuOf = new double[ways.length][reps];
            for (int r = 0; r < reps; r++) {
                for (int w = 0; w < ways.length; w++) {
                    BlasThreads.enabled = w >= 2;
                    try {
                        SparkEngine.Source source = engine.source(vector);
                        double c0 = cpu();
                        long t0 = System.nanoTime();
                        org.apache.spark.api.java.JavaRDD<FixedPointGram.State> parts = w == 0
                                ? source.frame().queryExecution().toRdd().toJavaRDD().mapPartitions(
                                        new PartitionStatistics.Sums(D, B, true, source.reader()))
                                // batchRows(1) is Spark's own 4 096 rows per batch
                                : SparkDataAccess.binaryBatches(source, w == 3 ? 1 : D).mapPartitions(
                                        new PartitionStatistics.BatchSums(D, B, true));
                        FixedPointGram.State s = parts.treeReduce(FixedPointGram::merge, engine.treeDepth());
                        wall[w][r] = (System.nanoTime() - t0) / 1e9;
                        cpuOf[w][r] = cpu() - c0;
                        if (s.rows() != n) {
                            throw new AssertionError(ways[w] + " met " + s.rows() + " rows");
                        }
                    } finally {
                        BlasThreads.enabled = true;
                    }
                }
            }
            for (int w = 0; w < ways.length; w++) {
                breakdownRow(report, ways[w], median(wall[w]), median(cpuOf[w]), n);
            }
            // The scan alone over the same rows laid out otherwise: hard links to the data files only (no
            // Hadoop .crc files beside them, so nothing to verify: as the larger sizes and any object
            // store), and the same rows written without compression.
            ExternalSchema linked = copies(vector, dir.resolve("linked"), 1);
            ExternalSchema plain = write(dir, "uncompressed", n, true, false, "none");
            for (String[] other : new String[][] {{"columnar scan, no .crc checksums (hard links)", "linked"},
                {"columnar scan, uncompressed Parquet", "plain"}}) {
                ExternalSchema schema = other[1].equals("linked") ? linked : plain;
                double[] times = new double[reps];
                double[] cpus = new double[reps];
                for (int r = 0; r < reps; r++) {
                    SparkEngine.Source source = engine.source(schema);
                    double c0 = cpu();
                    long t0 = System.nanoTime();
                    long rows = SparkDataAccess.binaryBatches(source, D)
                            .mapPartitions(new BatchStageTask(Stage.COLUMNAR_SCAN, D)).reduce(Long::sum);
                    times[r] = (System.nanoTime() - t0) / 1e9;
                    cpus[r] = cpu() - c0;
                    if (rows != n) {
                        throw new AssertionError(other[0] + " met " + rows + " rows");
                    }
                }
                breakdownRow(report, other[0] + String.format(Locale.ROOT, " (%.0f MB)",
                        size(Path.of(schema.location())) / 1e6), median(times), median(cpus), n);
            }
            double[] full = new double[reps];
            double[] fullCpu = new double[reps];
            double[] reduction = new double[reps];
            double[] reductionCpu = new double[reps];
            for (int r = 0; r < reps; r++) {
                double[] timed = sparkTimed(vector);
                full[r] = timed[0];
                fullCpu[r] = timed[2];
                int parts = engine.source(vector).frame().queryExecution().toRdd().getNumPartitions();
                double c0 = cpu();
                long t0 = System.nanoTime();
                FixedPointGram.State s = SparkTestData.engine().session().sparkContext().parallelize(
                        scala.jdk.javaapi.CollectionConverters.asScala(java.util.stream.IntStream.range(0, parts)
                                .boxed().toList()).toSeq(), parts, scala.reflect.ClassTag$.MODULE$.apply(Integer.class))
                        .toJavaRDD().map(i -> new FixedPointGram(D, B, true).state())
                        .treeReduce(FixedPointGram::merge, engine.treeDepth());
                reduction[r] = (System.nanoTime() - t0) / 1e9;
                reductionCpu[r] = cpu() - c0;
                if (s.rows() != 0) {
                    throw new AssertionError("rows in an empty reduction");
                }
            }
            breakdownRow(report, "the real pass (SparkDataAccess.gram)", median(full), median(fullCpu), n);
            breakdownRow(report, "tasks + tree reduction of empty states", median(reduction), median(reductionCpu),
                    n);
        } finally {
            delete(dir);
        }
        finish(report, "target/benchmarks/spark-gram-breakdown.txt");
    }

    /**
     * The vector layout's Gram pass read two ways, over the same rows written snappy-compressed
     * (Spark's default) and uncompressed, interleaved round by round in one JVM: Spark's columnar scan
     * ({@link SparkDataAccess#binaryBatches}, {@link PartitionStatistics.BatchSums}: what
     * {@link SparkDataAccess#gram} runs) and Parquet's column reader directly ({@link ParquetVectors}: the
     * same splits), each as a whole pass (tree reduction included) and as a scan that only copies each
     * row's bytes into doubles; numpy's {@code X.T @ X} over the same rows in each round. CPU seconds of
     * the JVM (numpy: its process) and wall-clock seconds, medians of {@code privmat.bench.reps}; the
     * passes' statistics are checked equal. {@code -Dprivmat.bench.rows}' smallest size (default 10⁵).
     * Run with {@code -Dtest=SparkGramBenchmark#directRead}; writes target/benchmarks/spark-gram-direct.txt.
     */
    @Test
    void directRead() throws IOException, InterruptedException {
        NativeBlas.install();
        long n = smallestRows();
        int reps = Integer.getInteger("privmat.bench.reps", 3);
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "Gram pass, columnar batches vs Parquet's column reader, snappy vs uncompressed, d = %d, %d rows, vector"
                + " layout, local[2]; BLAS: %s; medians of %d; load average before: %s%n", D, n,
                LinearAlgebra.implementation(), reps, load()));
        Path dir = Files.createTempDirectory("privmat-bench-direct");
        try {
            ExternalSchema[] codecs = {write(dir, "snappy", n, true, false, "snappy"),
                write(dir, "none", n, true, false, "none")};
            String[] names = {"snappy", "uncompressed"};
            SparkEngine engine = SparkTestData.engine();
            String[] ways = {"pass: columnar batches (as shipped)", "pass: Parquet column reader",
                "scan + copy: columnar batches", "scan + copy: Parquet column reader"};
            double[] numpyWall = new double[reps];
            double[] numpyCpu = new double[reps];
            double[][][] wall = new double[codecs.length][ways.length][reps];
            double[][][] cpus = new double[codecs.length][ways.length][reps];
            FixedPointGram.State first = null;
            for (int r = -1; r < reps; r++) { // round -1: warm-up, not kept
                if (r >= 0) {
                    double[] np = numpy(n, n, 1);
                    numpyWall[r] = np[0];
                    numpyCpu[r] = np[2];
                }
                for (int c = 0; c < codecs.length; c++) {
                    for (int w = 0; w < ways.length; w++) {
                        SparkEngine.Source source = engine.source(codecs[c]);
                        boolean direct = w % 2 == 1;
                        ParquetVectors.Plan plan = direct ? ParquetVectors.plan(source) : null;
                        if (direct && plan == null) {
                            throw new AssertionError("no direct plan for the vector layout");
                        }
                        double c0 = cpu();
                        long t0 = System.nanoTime();
                        long rows;
                        if (w < 2) {
                            org.apache.spark.api.java.JavaRDD<FixedPointGram.State> parts = direct
                                    ? plan.splits().mapPartitions(new ParquetVectors.Sums(D, B, true, plan))
                                    : SparkDataAccess.binaryBatches(source, D).mapPartitions(
                                            new PartitionStatistics.BatchSums(D, B, true));
                            FixedPointGram.State s = parts.treeReduce(FixedPointGram::merge, engine.treeDepth());
                            rows = s.rows();
                            if (first == null) {
                                first = s;
                            } else if (!Arrays.equals(FixedPointGram.of(first).gram(), FixedPointGram.of(s).gram())) {
                                throw new AssertionError("the reads gave different Grams");
                            }
                        } else {
                            rows = direct ? plan.splits().mapPartitions(new DirectCopyTask(plan, D)).reduce(Long::sum)
                                    : SparkDataAccess.binaryBatches(source, D)
                                            .mapPartitions(new BatchStageTask(Stage.COLUMNAR_COPY, D)).reduce(Long::sum);
                        }
                        double seconds = (System.nanoTime() - t0) / 1e9;
                        double cpuSeconds = cpu() - c0;
                        if (plan != null) {
                            plan.conf().destroy();
                        }
                        if (rows != n) {
                            throw new AssertionError(ways[w] + " met " + rows + " rows");
                        }
                        if (r >= 0) {
                            wall[c][w][r] = seconds;
                            cpus[c][w][r] = cpuSeconds;
                        }
                    }
                }
            }
            String head = String.format(Locale.ROOT,
                    "  %-52s %6.2f s %6.2f CPU s   (rounds: %s CPU s)%n", "numpy X.T @ X", median(numpyWall),
                    median(numpyCpu), rounded(numpyCpu));
            line(report, head);
            for (int c = 0; c < codecs.length; c++) {
                for (int w = 0; w < ways.length; w++) {
                    String line = String.format(Locale.ROOT,
                            "  %-52s %6.2f s %6.2f CPU s  %.2f x numpy per core (wall)  %.2f x numpy per CPU second"
                            + "   (rounds: %s CPU s)%n", ways[w] + ", " + names[c] + String.format(Locale.ROOT,
                                    " (%.0f MB)", size(Path.of(codecs[c].location())) / 1e6), median(wall[c][w]),
                            median(cpus[c][w]), median(numpyWall) / median(wall[c][w]),
                            median(numpyCpu) / median(cpus[c][w]), rounded(cpus[c][w]));
                    line(report, line);
                }
            }
        } finally {
            delete(dir);
        }
        finish(report, "target/benchmarks/spark-gram-direct.txt");
    }

    /** {@code -Dprivmat.bench.rows}' smallest size (default 10⁵). */
    private static long smallestRows() {
        return Arrays.stream(System.getProperty("privmat.bench.rows", "100000").split(","))
                .mapToLong(s -> Long.parseLong(s.trim())).min().orElseThrow();
    }

    /** Appends the load average, prints the report and writes it to {@code file}. */
    private static void finish(StringBuilder report, String file) throws IOException {
        report.append("load average after: ").append(load()).append('\n');
        System.out.println(report);
        Path out = Path.of(file);
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
    }

    /** Appends a line to the report and prints it at once (a long run's first lines survive an interrupted one). */
    private static void line(StringBuilder report, String line) {
        report.append(line);
        System.out.print(line);
        System.out.flush();
    }

    private static String rounded(double[] values) {
        return Arrays.toString(Arrays.stream(values).map(c -> Math.round(c * 100) / 100.0).toArray());
    }

    /**
     * The decode of the vector layout's Parquet, stage by stage, in this thread alone (no Spark task),
     * CPU seconds of the JVM per file set (all its threads: Parquet may read a file's ranges on other
     * threads), medians of {@code privmat.bench.reps}, interleaved: the files'
     * bytes read; Parquet's pages decompressed (Parquet's snappy codec, and {@link ParquetVectors}'
     * heap one); {@link ParquetVectors#read} whole (each row's bytes copied into doubles) with either
     * codec — snappy files, and the same rows uncompressed. Run with
     * {@code -Dtest=SparkGramBenchmark#decodeStages}; writes target/benchmarks/spark-gram-decode.txt.
     */
    @Test
    void decodeStages() throws IOException {
        long n = smallestRows();
        int reps = Integer.getInteger("privmat.bench.reps", 3);
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "Decode stages, d = %d, %d rows, vector layout, one thread; medians of %d; load average before: %s%n",
                D, n, reps, load()));
        Path dir = Files.createTempDirectory("privmat-bench-decode");
        try {
            ExternalSchema snappy = write(dir, "snappy", n, true, false, "snappy");
            ExternalSchema plain = write(dir, "plain", n, true, false, "none");
            org.apache.hadoop.conf.Configuration conf = SparkTestData.engine().session().sparkContext()
                    .hadoopConfiguration();
            String[] ways = {"file bytes read (snappy files)", "pages decompressed, Parquet's snappy codec",
                "pages decompressed, heap snappy", "ParquetVectors.read, Parquet's snappy codec",
                "ParquetVectors.read, heap snappy", "ParquetVectors.read, uncompressed files"};
            double[][] cpus = new double[ways.length][reps];
            for (int r = -1; r < reps; r++) {
                for (int w = 0; w < ways.length; w++) {
                    ExternalSchema source = w == 5 ? plain : snappy;
                    List<Path> files;
                    try (Stream<Path> list = Files.list(Path.of(source.location()))) {
                        files = list.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList();
                    }
                    ParquetVectors.heapSnappy = w != 1 && w != 3;
                    long rows = 0;
                    double c0 = cpu();
                    try {
                        for (Path f : files) {
                            rows += decodeFile(conf, f, w);
                        }
                    } finally {
                        ParquetVectors.heapSnappy = true;
                    }
                    double used = cpu() - c0;
                    if (w > 0 && rows != n) {
                        throw new AssertionError(ways[w] + " met " + rows + " rows");
                    }
                    if (r >= 0) {
                        cpus[w][r] = used;
                    }
                }
            }
            for (int w = 0; w < ways.length; w++) {
                line(report, String.format(Locale.ROOT, "  %-46s %6.2f CPU s   (rounds: %s)%n", ways[w],
                        median(cpus[w]), rounded(cpus[w])));
            }
        } finally {
            delete(dir);
        }
        finish(report, "target/benchmarks/spark-gram-decode.txt");
    }

    /** One file through a {@link #decodeStages} stage: its rows (0 for the bytes alone). */
    private static long decodeFile(org.apache.hadoop.conf.Configuration conf, Path file, int stage) throws IOException {
        if (stage == 0) {
            byte[] buffer = new byte[1 << 20];
            long sink = 0;
            try (java.io.InputStream in = new org.apache.hadoop.fs.Path(file.toString()).getFileSystem(conf)
                    .open(new org.apache.hadoop.fs.Path(file.toString()))) {
                for (int got; (got = in.read(buffer)) > 0;) {
                    sink += buffer[got - 1];
                }
            }
            return sink == Long.MIN_VALUE ? 1 : 0;
        }
        long length = Files.size(file);
        ParquetVectors.Split split = new ParquetVectors.Split(file.toUri(), 0, length);
        if (stage >= 3) {
            double[] row = new double[D];
            double[] sink = {0};
            return ParquetVectors.read(conf, split, "x", false, row, values -> sink[0] += values[7]);
        }
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toString());
        long rows = 0;
        try (org.apache.parquet.hadoop.ParquetFileReader reader = org.apache.parquet.hadoop.ParquetFileReader.open(
                org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(path, conf),
                org.apache.parquet.HadoopReadOptions.builder(conf, path).withCodecFactory(stage == 2
                        ? ParquetVectors.heapSnappyCodecs(conf)
                        : org.apache.parquet.hadoop.util.HadoopCodecs.newFactory(conf, 0)).build())) {
            org.apache.parquet.column.ColumnDescriptor column = reader.getFooter().getFileMetaData().getSchema()
                    .getColumns().get(0);
            org.apache.parquet.column.page.PageReadStore pages;
            while ((pages = reader.readNextRowGroup()) != null) {
                org.apache.parquet.column.page.PageReader pageReader = pages.getPageReader(column);
                org.apache.parquet.column.page.DataPage page;
                while ((page = pageReader.readPage()) != null) {
                    if (page instanceof org.apache.parquet.column.page.DataPageV1 v1) {
                        rows += v1.getValueCount();
                        if (v1.getBytes().toByteBuffer().remaining() == 0) {
                            throw new AssertionError("empty page");
                        }
                    }
                }
            }
        }
        return rows;
    }

    /** One task's splits read by {@link ParquetVectors#read}, each row's bytes copied into doubles: its row count. */
    static final class DirectCopyTask implements org.apache.spark.api.java.function.FlatMapFunction<
            java.util.Iterator<List<ParquetVectors.Split>>, Long> {
        private static final long serialVersionUID = 1L;
        private final org.apache.spark.broadcast.Broadcast<org.apache.spark.util.SerializableConfiguration> conf;
        private final String column;
        private final boolean caseSensitive;
        private final int d;

        DirectCopyTask(ParquetVectors.Plan plan, int d) {
            this.conf = plan.conf();
            this.column = plan.column();
            this.caseSensitive = plan.caseSensitive();
            this.d = d;
        }

        @Override
        public java.util.Iterator<Long> call(java.util.Iterator<List<ParquetVectors.Split>> parts) {
            long count = 0;
            double[] row = new double[d];
            double[] sink = {0};
            while (parts.hasNext()) {
                for (ParquetVectors.Split s : parts.next()) {
                    count += ParquetVectors.read(conf.value().value(), s, column, caseSensitive,
                            row, values -> sink[0] += values[(int) (sink[0]) & 7]);
                }
            }
            return List.of(count + (sink[0] == Double.MIN_VALUE ? 1 : 0)).iterator();
        }
    }

    /**
     * The ceiling the exact kernel sets for a Spark pass, as a pass runs it: numpy's {@code X.T @ X}
     * over {@code -Dprivmat.bench.rows}' smallest size (default 10⁵) against {@link FixedPointGram} over
     * the same number of rows in memory, once with one calling thread (OpenBLAS's own thread count) and
     * once with two calling threads, each its own accumulator over half the rows, one OpenBLAS thread
     * each ({@link BlasThreads}, as two Spark tasks on {@code local[2]} run). Interleaved, round by
     * round; wall-clock and CPU seconds (numpy's process, this JVM), medians of
     * {@code privmat.bench.reps}. Run with {@code -Dtest=SparkGramBenchmark#kernelCeiling}; writes
     * target/benchmarks/spark-gram-ceiling.txt.
     */
    @Test
    void kernelCeiling() throws IOException, InterruptedException {
        NativeBlas.install();
        long n = smallestRows();
        int reps = Integer.getInteger("privmat.bench.reps", 3);
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "Exact kernel ceiling, d = %d, %d rows; BLAS: %s (OpenBLAS threads %d); medians of %d; load average"
                + " before: %s%n", D, n, LinearAlgebra.implementation(), BlasThreads.current(), reps, load()));
        double[] pool = pool();
        inProcess(pool, 20_000, true); // warm-up
        inProcessThreads(pool, 20_000, 2);
        String[] ways = {"numpy X.T @ X", "FixedPointGram, 1 caller", "FixedPointGram, 2 callers, 1 BLAS thread each"};
        double[][] wall = new double[ways.length][reps];
        double[][] cpus = new double[ways.length][reps];
        for (int r = 0; r < reps; r++) {
            double[] np = numpy(n, n, 1);
            wall[0][r] = np[0];
            cpus[0][r] = np[2];
            double c0 = cpu();
            wall[1][r] = inProcess(pool, n, true);
            cpus[1][r] = cpu() - c0;
            c0 = cpu();
            wall[2][r] = inProcessThreads(pool, n, 2);
            cpus[2][r] = cpu() - c0;
        }
        double numpyWall = median(wall[0]);
        double numpyCpu = median(cpus[0]);
        for (int w = 0; w < ways.length; w++) {
            String line = String.format(Locale.ROOT,
                    "  %-48s %6.2f s %6.2f CPU s  %.2f x numpy (wall)  %.2f x numpy (per CPU second)%n", ways[w],
                    median(wall[w]), median(cpus[w]), numpyWall / median(wall[w]), numpyCpu / median(cpus[w]));
            line(report, line);
        }
        finish(report, "target/benchmarks/spark-gram-ceiling.txt");
    }

    /**
     * Seconds for n rows through {@link FixedPointGram} in {@code callers} threads at once, each its own
     * accumulator over its share of the rows, counted as exact-kernel tasks ({@link BlasThreads}: one
     * OpenBLAS thread per call while any runs), the states merged at the end.
     */
    private static double inProcessThreads(double[] pool, long n, int callers) throws InterruptedException {
        FixedPointGram.State[] states = new FixedPointGram.State[callers];
        Thread[] threads = new Thread[callers];
        long t0 = System.nanoTime();
        for (int t = 0; t < callers; t++) {
            int id = t;
            long from = n * t / callers;
            long to = n * (t + 1) / callers;
            threads[t] = new Thread(() -> {
                BlasThreads.taskStarted();
                try {
                    FixedPointGram fp = new FixedPointGram(D, B, true);
                    int chunk = (4 << 20) / (8 * D);
                    for (long done = from; done < to;) {
                        int offset = (int) (done % POOL);
                        int count = (int) Math.min(Math.min(chunk, POOL - offset), to - done);
                        fp.addRows(pool, offset * D, count);
                        done += count;
                    }
                    states[id] = fp.state();
                } finally {
                    BlasThreads.taskEnded();
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        FixedPointGram.State merged = states[0];
        for (int t = 1; t < callers; t++) {
            merged = FixedPointGram.merge(merged, states[t]);
        }
        if (merged.rows() != n || !(FixedPointGram.of(merged).gram()[0] > 0)) {
            throw new AssertionError("empty Gram");
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private static void breakdownRow(StringBuilder report, String what, double seconds, double cpuSeconds, long n) {
        String line = String.format(Locale.ROOT, "  %-52s %6.2f s %8.0f rows/s %6.2f CPU s%n", what, seconds,
                n / seconds, cpuSeconds);
        line(report, line);
    }

    /** How far a breakdown task goes. */
    enum Stage {
        SCAN("scan only (Parquet decode, Spark's rows)"),
        COPY("+ each row's bytes copied into doubles"),
        QUANTISE("+ clip and quantise into the block buffer"),
        KERNEL("+ exact blocks (dsyrk, longs); result dropped"),
        COLUMNAR_SCAN("columnar: scan only (Parquet decode, batches)", true),
        COLUMNAR_COPY("columnar: + each row's bytes copied into doubles", true);

        final String what;
        final boolean columnar;

        Stage(String what) {
            this(what, false);
        }

        Stage(String what, boolean columnar) {
            this.what = what;
            this.columnar = columnar;
        }
    }

    /** One partition's columnar batches up to a {@link Stage}: returns its row count only. */
    static final class BatchStageTask implements org.apache.spark.api.java.function.FlatMapFunction<
            java.util.Iterator<org.apache.spark.sql.vectorized.ColumnarBatch>, Long> {
        private static final long serialVersionUID = 1L;
        private final Stage stage;
        private final int d;

        BatchStageTask(Stage stage, int d) {
            this.stage = stage;
            this.d = d;
        }

        @Override
        public java.util.Iterator<Long> call(java.util.Iterator<org.apache.spark.sql.vectorized.ColumnarBatch> batches) {
            long count = 0;
            double[] row = new double[d];
            double sink = 0;
            while (batches.hasNext()) {
                org.apache.spark.sql.vectorized.ColumnarBatch batch = batches.next();
                int rows = batch.numRows();
                count += rows;
                if (stage == Stage.COLUMNAR_COPY) {
                    for (int i = 0; i < rows; i++) {
                        PartitionStatistics.binary(batch.column(0), i, row);
                        sink += row[i % d];
                    }
                }
            }
            return List.of(count + (sink == Double.MIN_VALUE ? 1 : 0)).iterator();
        }
    }

    /** One partition up to a {@link Stage}: returns its row count only. */
    static final class StageTask implements org.apache.spark.api.java.function.FlatMapFunction<
            java.util.Iterator<org.apache.spark.sql.catalyst.InternalRow>, Long> {
        private static final long serialVersionUID = 1L;
        private final Stage stage;
        private final int d;
        private final double bound;
        private final PartitionStatistics.RowReader reader;

        StageTask(Stage stage, int d, double bound, PartitionStatistics.RowReader reader) {
            this.stage = stage;
            this.d = d;
            this.bound = bound;
            this.reader = reader;
        }

        @Override
        public java.util.Iterator<Long> call(java.util.Iterator<org.apache.spark.sql.catalyst.InternalRow> rows) {
            long count = 0;
            double[] row = new double[d];
            long[] q = new long[d];
            double[] block = new double[FixedPointGram.BLOCK_ROWS * d];
            FixedPointGram g = stage == Stage.KERNEL ? new FixedPointGram(d, bound, true) : null;
            double sink = 0;
            while (rows.hasNext()) {
                org.apache.spark.sql.catalyst.InternalRow r = rows.next();
                count++;
                if (stage == Stage.SCAN) {
                    continue;
                }
                reader.read(r, row);
                if (stage == Stage.COPY) {
                    sink += row[(int) (count % d)];
                } else if (stage == Stage.QUANTISE) {
                    FixedPointGram.quantize(row, 0, d, bound, q);
                    int base = (int) (count % FixedPointGram.BLOCK_ROWS) * d;
                    for (int j = 0; j < d; j++) {
                        block[base + j] = q[j];
                    }
                } else {
                    g.add(row, 0);
                }
            }
            if (g != null) {
                sink += g.state().rows();
            }
            return List.of(count + (sink == Double.MIN_VALUE ? 1 : 0) + (long) (block[0] * 0)).iterator();
        }
    }

    /**
     * The exact block kernel (dsyrk of 512 quantised rows plus the conversion to longs) in one calling
     * thread, then in two calling threads at once (as two Spark tasks on local[2] call it): rows/s in all.
     */
    private static void kernelThreads(StringBuilder report, double[] pool, int reps) throws InterruptedException {
        double[] q = new double[POOL * D];
        for (int i = 0; i < q.length; i++) {
            q[i] = Math.rint(pool[i] * 0x1p22);
        }
        int rows = 32768;
        Object lock = new Object();
        for (String how : new String[] {"1 strided", "1", "2", "2 one at a time", "1 blas1", "2 blas1"}) {
            int callers = how.charAt(0) - '0';
            boolean oneAtATime = how.contains("one at a time");
            boolean single = how.contains("blas1");
            boolean strided = how.contains("strided");
            Integer before = single ? blasThreads(1) : null;
            double[] times = new double[reps];
            double[] cpus = new double[reps];
            for (int r = 0; r < reps; r++) {
                Thread[] threads = new Thread[callers];
                for (int t = 0; t < callers; t++) {
                    threads[t] = new Thread(() -> kernelRows(q, rows, 512, oneAtATime ? lock : null, strided));
                }
                double c0 = cpu();
                long t0 = System.nanoTime();
                for (Thread t : threads) {
                    t.start();
                }
                for (Thread t : threads) {
                    t.join();
                }
                times[r] = (System.nanoTime() - t0) / 1e9;
                cpus[r] = cpu() - c0;
            }
            if (before != null) {
                blasThreads(before);
            }
            double t = median(times);
            String line = String.format(Locale.ROOT,
                    "  exact block kernel (m = 512), %-34s %.2f s for %d rows each, %.0f rows/s in all, %.2f CPU s%n",
                    callers + " caller(s)" + (strided ? ", zeroed, strided (before)" : "")
                    + (oneAtATime ? ", one dsyrk at a time" : "")
                    + (single ? ", OpenBLAS 1 thread" : ""), t, rows, callers * rows / t, median(cpus));
            line(report, line);
        }
    }

    /** Sets OpenBLAS's thread count (process-wide, through its C API); returns the previous one. */
    private static int blasThreads(int threads) {
        String library = java.util.Objects.requireNonNull(NativeBlas.status()).library();
        com.sun.jna.NativeLibrary lib = com.sun.jna.NativeLibrary.getInstance(library);
        int before = lib.getFunction("openblas_get_num_threads").invokeInt(new Object[0]);
        lib.getFunction("openblas_set_num_threads").invokeVoid(new Object[] {threads});
        return before;
    }

    /**
     * dsyrk of m-row blocks plus the conversion to longs: as {@link FixedPointGram} does now (the
     * upper triangle as stored, overwritten, read row by row) or, {@code strided}, as it did before
     * (the block zeroed, then the lower triangle as stored read column by column).
     */
    private static void kernelRows(double[] q, int rows, int m, Object lock, boolean strided) {
        dev.ludovic.netlib.blas.BLAS blas = dev.ludovic.netlib.blas.BLAS.getInstance();
        double[] c = new double[D * D];
        long[] acc = new long[D * (D + 1) / 2];
        double[] block = new double[m * D];
        for (long done = 0; done < rows; done += m) {
            for (int i = 0; i < m; i++) {
                System.arraycopy(q, (int) ((done + i) % POOL) * D, block, i * D, D);
            }
            if (strided) {
                Arrays.fill(c, 0.0);
                blas.dsyrk("U", "N", D, m, 1.0, block, 0, D, 1.0, c, 0, D);
                int p = 0;
                for (int j = 0; j < D; j++) {
                    for (int k = j; k < D; k++) {
                        acc[p++] += (long) c[k * D + j];
                    }
                }
                continue;
            }
            if (lock != null) {
                synchronized (lock) {
                    blas.dsyrk("L", "N", D, m, 1.0, block, 0, D, 0.0, c, 0, D);
                }
            } else {
                blas.dsyrk("L", "N", D, m, 1.0, block, 0, D, 0.0, c, 0, D);
            }
            int p = 0;
            for (int j = 0; j < D; j++) {
                for (int k = j; k < D; k++) {
                    acc[p++] += (long) c[j * D + k];
                }
            }
        }
        if (acc[0] <= 0) {
            throw new AssertionError("empty Gram");
        }
    }

    private static void row(StringBuilder report, long n, String path, double seconds, double numpySeconds,
            int cores, double mb) {
        String line = String.format(Locale.ROOT, "%10d %22s %10.2f %12.0f %14.0f %10.2f %10s%n", n, path, seconds,
                n / seconds, n / seconds / cores, numpySeconds / seconds,
                mb > 0 ? String.format(Locale.ROOT, "%.0f", mb) : "");
        report.append(line);
        System.out.print(line); // as measured: a long run's first rows survive an interrupted one
        System.out.flush();
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /**
     * Entry (i, j) of the distinct rows ({@code privmat.bench.distinct}): a seeded integer pixel k in
     * 0 … 255 (0 with probability about ½, else uniform), times 2⁻¹³, from a 64-bit mix of row and column.
     */
    static double pixel(long i, int j) {
        long h = (i * D + j) * 0x9E3779B97F4A7C15L + 34;
        h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
        h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
        h ^= h >>> 31;
        return h < 0 ? 0 : ((h >>> 8) & 255) * 0x1p-13;
    }

    /** With {@code drop}: {@code sync}, then the page cache dropped if permitted; noted in {@code loads}. */
    private static void dropCaches(boolean drop, StringBuilder loads) throws IOException, InterruptedException {
        if (!drop) {
            return;
        }
        new ProcessBuilder("sync").inheritIO().start().waitFor();
        String done;
        try {
            Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
            done = "page cache dropped";
        } catch (IOException | SecurityException e) {
            done = "page cache NOT dropped (" + e + ")";
        }
        String line = String.format(Locale.ROOT, "%s before a Spark pass; load average %s%n", done, load());
        loads.append(line);
        System.out.print(line);
    }

    /** Entry (i, j) of the benchmark's rows (the same doubles as src/bench/python/gram_numpy_rows.py). */
    static double entry(long i, int j) {
        long u = ((i * D + j) * 2654435761L) & 0xFFFFFFFFL;
        return (u / 0x1p32 - 0.5) * 0.1;
    }

    private static double[] pool() {
        double[] x = new double[POOL * D];
        for (int i = 0; i < POOL; i++) {
            for (int j = 0; j < D; j++) {
                x[i * D + j] = entry(i, j);
            }
        }
        return x;
    }

    /**
     * The exact block kernel alone, one thread, for several block sizes m: quantised rows (integers
     * below 2²²) through dsyrk, each block's upper triangle added into {@code long}s, as
     * {@link FixedPointGram} does. The values' exactness is not at stake here, only the time.
     */
    private static void kernelReport(StringBuilder report, double[] pool) {
        double[] q = new double[POOL * D];
        for (int i = 0; i < q.length; i++) {
            q[i] = Math.rint(pool[i] * 0x1p22);
        }
        dev.ludovic.netlib.blas.BLAS blas = dev.ludovic.netlib.blas.BLAS.getInstance();
        int reps = Integer.getInteger("privmat.bench.reps", 3);
        report.append("exact block kernel, one thread (dsyrk of m rows + conversion to longs), 65536 rows:\n");
        for (int m : KERNEL_BLOCKS) {
            double[] times = new double[reps];
            for (int r = 0; r < reps; r++) {
                double[] c = new double[D * D];
                long[] acc = new long[D * (D + 1) / 2];
                double[] block = new double[m * D];
                long t0 = System.nanoTime();
                for (long done = 0; done < 65536; done += m) {
                    for (int i = 0; i < m; i++) {
                        System.arraycopy(q, (int) ((done + i) % POOL) * D, block, i * D, D);
                    }
                    Arrays.fill(c, 0.0);
                    blas.dsyrk("U", "N", D, m, 1.0, block, 0, D, 1.0, c, 0, D);
                    int p = 0;
                    for (int j = 0; j < D; j++) {
                        for (int k = j; k < D; k++) {
                            acc[p++] += (long) c[k * D + j];
                        }
                    }
                }
                times[r] = (System.nanoTime() - t0) / 1e9;
                if (acc[0] <= 0) {
                    throw new AssertionError("empty Gram");
                }
            }
            double t = median(times);
            report.append(String.format(Locale.ROOT, "  m = %5d: %.2f s, %.0f rows/s%n", m, t, 65536 / t));
        }
    }

    /** Seconds for n rows through the exact kernel (one thread) or the stored path's accumulator. */
    private static double inProcess(double[] pool, long n, boolean exact) {
        long t0 = System.nanoTime();
        FixedPointGram fp = exact ? new FixedPointGram(D, B, true) : null;
        GramAccumulator acc = exact ? null : new GramAccumulator(D);
        int chunk = (4 << 20) / (8 * D);
        long done = 0;
        while (done < n) {
            int offset = (int) (done % POOL);
            int count = (int) Math.min(Math.min(chunk, POOL - offset), n - done);
            if (exact) {
                fp.addRows(pool, offset * D, count);
            } else {
                acc.addRows(pool, offset * D, count);
            }
            done += count;
        }
        double checksum = exact ? fp.gram()[0] : acc.result()[0];
        if (!(checksum > 0)) {
            throw new AssertionError("empty Gram");
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private static double spark(ExternalSchema source) {
        return sparkTimed(source)[0];
    }

    /** [seconds, trace of the Gram, CPU seconds of the process] of one Spark pass. */
    private static double[] sparkTimed(ExternalSchema source) {
        long n = source.declaredRows();
        DataAccess access = SparkTestData.access(source, SparkTestData.facts(D, B, n, NeighbouringRelation.REPLACE_ONE),
                new SparkTestData.Recorder());
        double c0 = cpu();
        long t0 = System.nanoTime();
        double[] gram = access.gram(false).gram();
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpuSeconds = cpu() - c0;
        double trace = 0;
        for (int j = 0; j < D; j++) {
            trace += gram[j * D + j];
        }
        if (!(trace > 0)) {
            throw new AssertionError("empty Gram");
        }
        return new double[] {seconds, trace, cpuSeconds};
    }

    /**
     * CPU seconds of this JVM so far, every thread (Spark's tasks, OpenBLAS's threads, the driver, the
     * garbage collector): on a shared machine a pass's CPU time depends far less on the load than its
     * wall-clock time.
     */
    static double cpu() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
    }

    /** numpy over the same rows: [median seconds of reps, trace, median CPU seconds (all its threads)]. */
    private static double[] numpy(long base, long n, int reps) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("python3", "src/bench/python/gram_numpy_rows.py", Long.toString(base),
                Long.toString(n), Integer.toString(D), Integer.toString(reps)).redirectErrorStream(true).start();
        List<Double> seconds = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        double trace = Double.NaN;
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("gram_numpy_rows.py failed: " + out);
        }
        for (String line : out.split("\n")) {
            if (line.startsWith("seconds ")) {
                seconds.add(Double.parseDouble(line.substring(8).trim()));
            } else if (line.startsWith("cpu ")) {
                cpu.add(Double.parseDouble(line.substring(4).trim()));
            } else if (line.startsWith("trace ")) {
                trace = Double.parseDouble(line.substring(6).trim());
            }
        }
        return new double[] {median(seconds.stream().mapToDouble(Double::doubleValue).toArray()), trace,
            median(cpu.stream().mapToDouble(Double::doubleValue).toArray())};
    }

    /**
     * Writes n of the benchmark's rows as Parquet (8 files, or with {@code distinct} 8 per 10⁵ rows of
     * {@link #pixel}, generated on the executors): d scalar double columns, or the vector layout's one
     * binary column "x" of 8·d little-endian bytes.
     */
    private static ExternalSchema write(Path dir, String name, long n, boolean vector, boolean distinct) {
        return write(dir, name, n, vector, distinct, System.getProperty("privmat.bench.codec", "snappy"));
    }

    /** As above, Parquet compressed with {@code codec} (Spark's default is snappy). */
    private static ExternalSchema write(Path dir, String name, long n, boolean vector, boolean distinct,
            String codec) {
        List<String> names = SparkTestData.columns(D);
        StructType type = vector ? new StructType(new StructField[] {
                DataTypes.createStructField("x", DataTypes.BinaryType, false)})
                : new StructType(names.stream().map(c -> DataTypes.createStructField(c, DataTypes.DoubleType, false))
                        .toArray(StructField[]::new));
        MapPartitionsFunction<Row, Row> rows = ids -> new java.util.Iterator<>() {
            @Override
            public boolean hasNext() {
                return ids.hasNext();
            }

            @Override
            public Row next() {
                long i = ids.next().getLong(0);
                if (vector) {
                    ByteBuffer b = ByteBuffer.allocate(8 * D).order(ByteOrder.LITTLE_ENDIAN);
                    for (int j = 0; j < D; j++) {
                        b.putDouble(distinct ? pixel(i, j) : entry(i, j));
                    }
                    return RowFactory.create((Object) b.array());
                }
                Object[] values = new Object[D];
                for (int j = 0; j < D; j++) {
                    values[j] = distinct ? pixel(i, j) : entry(i, j);
                }
                return RowFactory.create(values);
            }
        };
        String location = dir.resolve(name).toString();
        int files = distinct ? (int) Math.max(8, 8 * (n / 100_000)) : 8;
        SparkTestData.engine().session().range(0, n, 1, files).toDF().mapPartitions(rows, Encoders.row(type)).write()
                .option("compression", codec)
                .parquet(location);
        return new ExternalSchema(location, ExternalSchema.Format.PARQUET, names, n, vector ? "x" : null);
    }

    /** A directory with {@code times} hard links to each data file of {@code source}: times × its rows. */
    static ExternalSchema copies(ExternalSchema source, Path target, int times) throws IOException {
        Files.createDirectories(target);
        List<Path> parts;
        try (Stream<Path> files = Files.list(Path.of(source.location()))) {
            parts = files.filter(p -> p.getFileName().toString().endsWith(".parquet")).toList();
        }
        for (int t = 0; t < times; t++) {
            for (Path part : parts) {
                Files.createLink(target.resolve("copy" + t + "-" + part.getFileName()), part);
            }
        }
        return new ExternalSchema(target.toString(), ExternalSchema.Format.PARQUET, source.columns(),
                source.declaredRows() * times, source.vector());
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "n/a";
        }
    }
}
