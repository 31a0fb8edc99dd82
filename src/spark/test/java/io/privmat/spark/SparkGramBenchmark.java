package io.privmat.spark;

import io.privmat.config.NativeBlas;
import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.linalg.FixedPointGram;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Rows per second of the Gram statistic XᵀX at d = 784 (B = 1, synthetic seeded rows, entries
 * uniform in ±0.05 so that ‖x‖ ≈ 0.8): the Spark path on embedded {@code local[2]}
 * ({@link SparkDataAccess#gram}: Parquet read, clip, quantise, exact fixed-point blocks, tree
 * reduction) against the in-process kernels on the same machine — {@link GramAccumulator} (the
 * stored path's floating dsyrk over 4 MiB chunks) and {@link FixedPointGram} (the exact kernel a
 * Spark task runs, here in one thread) — over rows already in memory (a 4096-row seeded pool
 * cycled: the kernels' cost does not depend on the values). The Parquet files are written by
 * Spark itself ({@code rand(seed)} per column, 8 files) at the smallest size into a temporary
 * directory, deleted afterwards; each larger size (a multiple of the smallest) is a directory of
 * hard links to those files, i.e. the same rows repeated — the statistic's cost does not depend on
 * the values, and the files are then read from the page cache (no disk or network time is
 * measured). Sizes: {@code -Dprivmat.bench.rows=100000,1000000} (the default). Run:
 * {@code ./mvnw -o test -Pspark,benchmark -Dtest=SparkGramBenchmark}. Prints the table and writes
 * target/benchmarks/spark-gram.txt; docs/scale-out.md projects the per-core rate to a cluster.
 */
@Tag("benchmark")
class SparkGramBenchmark {

    static final int D = 784;
    static final double B = 1;
    static final int POOL = 4096;

    @Test
    void gramRowsPerSecond() throws IOException {
        NativeBlas.install();
        long[] sizes = Arrays.stream(System.getProperty("privmat.bench.rows", "100000,1000000").split(","))
                .mapToLong(s -> Long.parseLong(s.trim())).toArray();
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "Gram X^T X, d = %d, B = %.0f; BLAS: %s; cores: %d; load average before: %s%n", D, B,
                LinearAlgebra.implementation(), Runtime.getRuntime().availableProcessors(), load()));
        report.append(String.format(Locale.ROOT, "%10s %14s %10s %14s %14s %14s%n", "rows", "path", "seconds",
                "rows/s", "parquet MB", "write s"));
        double[] pool = pool();
        // Warm-up: JIT and Spark's first job.
        inProcess(pool, 20_000, false);
        inProcess(pool, 20_000, true);
        Path dir = Files.createTempDirectory("privmat-bench");
        try {
            ExternalSchema warm = write(dir, "warm", 20_000);
            spark(warm);
            // The smallest size is written; larger multiples of it are directories of hard links to
            // its files (the same rows repeated: the statistic costs the same, no disk is used).
            long base = Arrays.stream(sizes).min().orElseThrow();
            long t0 = System.nanoTime();
            ExternalSchema written = write(dir, "base", base);
            double writeSeconds = (System.nanoTime() - t0) / 1e9;
            double baseMb = size(Path.of(written.location())) / 1e6;
            for (long n : sizes) {
                if (n % base != 0) {
                    throw new IllegalArgumentException("sizes must be multiples of the smallest: " + n);
                }
                ExternalSchema source = n == base ? written : copies(written, dir.resolve("n" + n), (int) (n / base));
                double s = spark(source);
                row(report, n, "spark local[2]", s, baseMb * (n / base), n == base ? writeSeconds : 0);
                row(report, n, "in-process fp", inProcess(pool, n, true), 0, 0);
                row(report, n, "in-process syrk", inProcess(pool, n, false), 0, 0);
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

    private static void row(StringBuilder report, long n, String path, double seconds, double mb, double write) {
        report.append(String.format(Locale.ROOT, "%10d %14s %10.2f %14.0f %14s %14s%n", n, path, seconds, n / seconds,
                mb > 0 ? String.format(Locale.ROOT, "%.0f", mb) : "", write > 0
                        ? String.format(Locale.ROOT, "%.1f", write) : ""));
    }

    private static double[] pool() {
        SplittableRandom random = new SplittableRandom(784);
        double[] x = new double[POOL * D];
        for (int i = 0; i < x.length; i++) {
            x[i] = (random.nextDouble() - 0.5) * 0.1;
        }
        return x;
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
        long n = source.declaredRows();
        DataAccess access = SparkTestData.access(source, SparkTestData.facts(D, B, n, NeighbouringRelation.REPLACE_ONE),
                new SparkTestData.Recorder());
        long t0 = System.nanoTime();
        double[] gram = access.gram(false).gram();
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (!(gram[0] > 0)) {
            throw new AssertionError("empty Gram");
        }
        return seconds;
    }

    private static ExternalSchema write(Path dir, String name, long n) {
        List<Column> columns = new ArrayList<>();
        List<String> names = SparkTestData.columns(D);
        for (int j = 0; j < D; j++) {
            columns.add(functions.rand(1000L + j).minus(0.5).multiply(0.1).alias(names.get(j)));
        }
        String location = dir.resolve(name).toString();
        SparkTestData.engine().session().range(0, n, 1, 8).select(columns.toArray(Column[]::new)).write()
                .parquet(location);
        return new ExternalSchema(location, ExternalSchema.Format.PARQUET, names, n);
    }

    /** A directory with {@code times} hard links to each data file of {@code source}: times × its rows. */
    private static ExternalSchema copies(ExternalSchema source, Path target, int times) throws IOException {
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
                source.declaredRows() * times);
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
