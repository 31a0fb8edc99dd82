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
 * Spark's. The machine's cores are shared by every path: rows/s per core is rows/s ÷ the cores.
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
 * <p>{@code -Dprivmat.bench.distinct=true} measures reading from disk instead: every size is written
 * as its own distinct rows ({@link #pixel}: seeded integer pixels, about half of them 0, times
 * 2⁻¹³ — a dyadic scale, so the doubles have short mantissas and compress like image data;
 * ‖x‖ ≤ 0.87 &lt; B),
 * 8 files per 10⁵ rows, no hard links; the generation is timed and printed apart from the measurement;
 * before each Spark pass the page cache is dropped ({@code sync}, then 3 into
 * /proc/sys/vm/drop_caches, when permitted — the report says whether it was). numpy keeps its
 * in-memory rows (its time does not depend on the values), so the trace check is skipped.
 * {@code -Dprivmat.bench.dir} puts the Parquet on a chosen disk (default: a temporary directory).
 * Run:
 * {@code ./mvnw -o test -Pspark,benchmark -Dtest=SparkGramBenchmark}. Prints the table and writes
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
                    report.append(generated);
                    System.out.print(generated);
                } else {
                    int times = (int) (n / base);
                    c = !withColumns || n == base ? columns : copies(columns, dir.resolve("c" + n), times);
                    v = n == base ? vector : copies(vector, dir.resolve("v" + n), times);
                }
                StringBuilder loads = new StringBuilder();
                loads.append(String.format(Locale.ROOT, "load average before %d rows: %s%n", n, load()));
                double[] numpy = numpy(base, n, reps);
                double numpySeconds = numpy[0];
                double sparkTrace = 0;
                double[] vectorTimes = new double[reps];
                double[] columnTimes = new double[reps];
                for (int r = 0; r < reps; r++) {
                    dropCaches(distinct, loads);
                    double[] timed = sparkTimed(v);
                    vectorTimes[r] = timed[0];
                    sparkTrace = timed[1];
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
                report.append(loads);
                System.out.print(loads);
                if (fp.length > 0) {
                    row(report, n, "in-process fp", median(fp), numpySeconds, cores, 0);
                    row(report, n, "in-process syrk", median(syrk), numpySeconds, cores, 0);
                }
            }
        } finally {
            delete(dir);
        }
        report.append("load average after: ").append(load()).append('\n');
        System.out.println(report);
        Path out = Path.of("target/benchmarks/spark-gram.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
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

    /** [seconds, trace of the Gram] of one Spark pass. */
    private static double[] sparkTimed(ExternalSchema source) {
        long n = source.declaredRows();
        DataAccess access = SparkTestData.access(source, SparkTestData.facts(D, B, n, NeighbouringRelation.REPLACE_ONE),
                new SparkTestData.Recorder());
        long t0 = System.nanoTime();
        double[] gram = access.gram(false).gram();
        double seconds = (System.nanoTime() - t0) / 1e9;
        double trace = 0;
        for (int j = 0; j < D; j++) {
            trace += gram[j * D + j];
        }
        if (!(trace > 0)) {
            throw new AssertionError("empty Gram");
        }
        return new double[] {seconds, trace};
    }

    /** numpy over the same rows: [median seconds of reps, trace]. */
    private static double[] numpy(long base, long n, int reps) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("python3", "src/bench/python/gram_numpy_rows.py", Long.toString(base),
                Long.toString(n), Integer.toString(D), Integer.toString(reps)).redirectErrorStream(true).start();
        List<Double> seconds = new ArrayList<>();
        double trace = Double.NaN;
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("gram_numpy_rows.py failed: " + out);
        }
        for (String line : out.split("\n")) {
            if (line.startsWith("seconds ")) {
                seconds.add(Double.parseDouble(line.substring(8).trim()));
            } else if (line.startsWith("trace ")) {
                trace = Double.parseDouble(line.substring(6).trim());
            }
        }
        return new double[] {median(seconds.stream().mapToDouble(Double::doubleValue).toArray()), trace};
    }

    /**
     * Writes n of the benchmark's rows as Parquet (8 files, or with {@code distinct} 8 per 10⁵ rows of
     * {@link #pixel}, generated on the executors): d scalar double columns, or the vector layout's one
     * binary column "x" of 8·d little-endian bytes.
     */
    private static ExternalSchema write(Path dir, String name, long n, boolean vector, boolean distinct) {
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
