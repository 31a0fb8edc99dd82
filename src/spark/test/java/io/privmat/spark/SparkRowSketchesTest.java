package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.lowrank.HardtRothMechanism;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hardt–Roth's two passes on the executors (docs/scale-out.md, "Where the statistic is computed"):
 * the same release, bit for bit, as the in-process path over the same rows with the same seed,
 * whatever the files and layout; what comes back to the driver is XΩ (m × ℓ) and Q̃ᵀX̃ (ℓ × d), not
 * the m × d rows; progress from public values only; a source that changes between the passes fails
 * the second one instead of pairing rows with another row's weights.
 */
class SparkRowSketchesTest {

    static final int N = 600;
    static final int D = 40;
    static final int K = 2;
    static final int OVERSAMPLING = 4;
    static final double B = 1.5;
    static Path dir;
    static ExternalSchema fiveFiles;
    static ExternalSchema binary;
    static ExternalSchema list;
    static double[][] rowsAsRead;

    @BeforeAll
    static void write() {
        dir = SparkTestData.tempDir();
        double[][] x = SparkTestData.matrix(N, D, B, 91);
        fiveFiles = new ExternalSchema(SparkTestData.write(x, dir, "five", ExternalSchema.Format.PARQUET, 5),
                ExternalSchema.Format.PARQUET, SparkTestData.columns(D), (long) N);
        rowsAsRead = SparkTestData.readBack(fiveFiles);
        // The vector layouts of the rows in that order (one file each: the same order).
        binary = SparkTestData.writeVector(rowsAsRead, dir, "binary", SparkTestData.Vector.BINARY, 1, (long) N);
        list = SparkTestData.writeVector(rowsAsRead, dir, "list", SparkTestData.Vector.LIST, 1, (long) N);
    }

    static HardtRothMechanism mechanism() {
        return HardtRothMechanism.of(N, D, K, OVERSAMPLING, B, 1, BigDecimal.ONE, new BigDecimal("1e-6"));
    }

    static SparkDataAccess spark(ExternalSchema schema, SparkTestData.Recorder recorder) {
        return SparkTestData.access(schema, SparkTestData.facts(D, B, (long) N, NeighbouringRelation.REPLACE_ONE),
                recorder);
    }

    static double[] values(Factorization f) {
        return SparkParityTest.concat(f.s(), f.v(), f.u());
    }

    /** {@code rows} with {@code around} about its {@link RowStream#weightedSums} (Hardt–Roth's second pass). */
    static RowStream aroundSecondPass(RowStream rows,
            java.util.function.Function<java.util.function.Supplier<double[]>, double[]> around) {
        return new RowStream() {
            @Override
            public void project(double[] w, int l, double[] y) {
                rows.project(w, l, y);
            }

            @Override
            public double[] weightedSums(double[] a, int l, int d, double bound) {
                return around.apply(() -> rows.weightedSums(a, l, d, bound));
            }

            @Override
            public void forEachBlock(BlockVisitor visitor) {
                rows.forEachBlock(visitor);
            }
        };
    }

    @Test
    void theReleaseOnTheExecutorsIsTheInProcessOneBitForBitWhateverTheFilesAndLayout() {
        HardtRothMechanism hr = mechanism();
        double[] expected = values(hr.release(new SparkTestData.LocalExact(rowsAsRead, D, B).rows(2),
                TestNoiseSources.seeded(5)));
        for (ExternalSchema source : List.of(fiveFiles, binary, list)) {
            double[] got = values(hr.release(spark(source, new SparkTestData.Recorder()).rows(2),
                    TestNoiseSources.seeded(5)));
            assertThat(got).as(source.location()).containsExactly(expected);
        }
        // The same rows streamed block by block to the service (the old way) give the same release too:
        // the passes are defined row by row, not by the blocks.
        RowStream streamed = spark(fiveFiles, new SparkTestData.Recorder()).rows(2)::forEachBlock;
        assertThat(values(hr.release(streamed, TestNoiseSources.seeded(5)))).containsExactly(expected);
        assertThat(values(hr.release(new SparkTestData.LocalExact(rowsAsRead, D, B).rows(2),
                TestNoiseSources.seeded(6)))).isNotEqualTo(expected);
    }

    @Test
    void onlyTheSketchesComeBackToTheDriverAndProgressIsPassesDone() throws java.util.concurrent.TimeoutException {
        SparkContext sc = SparkTestData.engine().session().sparkContext();
        AtomicLong resultBytes = new AtomicLong();
        SparkListener listener = new SparkListener() {
            @Override
            public void onTaskEnd(SparkListenerTaskEnd e) {
                if (e.taskMetrics() != null) {
                    resultBytes.addAndGet(e.taskMetrics().resultSize());
                }
            }
        };
        sc.addSparkListener(listener);
        try {
            SparkTestData.Recorder recorder = new SparkTestData.Recorder();
            mechanism().release(spark(binary, recorder).rows(2), TestNoiseSources.seeded(5));
            sc.listenerBus().waitUntilEmpty(60_000);
            long sketches = resultBytes.getAndSet(0);
            // The rows streamed, for comparison: at least the m × d doubles themselves.
            spark(binary, new SparkTestData.Recorder()).rows(1).forEachBlock((block, count, first) -> {});
            sc.listenerBus().waitUntilEmpty(60_000);
            long streamed = resultBytes.get();
            long rowBytes = 8L * N * D;
            int l = K + OVERSAMPLING;
            assertThat(streamed).isGreaterThanOrEqualTo(rowBytes);
            // XΩ (m × ℓ doubles) and the ℓ × d integers (two longs an entry) per partition, plus overheads.
            assertThat(sketches).isLessThan(8L * N * l + 4 * 16L * l * D + 64 * 1024).isLessThan(rowBytes / 2);
            // Progress: the passes done over the two planned, nothing else.
            assertThat(recorder.distinct()).containsExactly(0.0, SparkDataAccess.READ_SHARE / 2,
                    SparkDataAccess.READ_SHARE);
        } finally {
            sc.removeSparkListener(listener);
        }
    }

    @Test
    void aSourceChangedBetweenThePassesFailsTheSecondPass() throws IOException {
        int l = K + OVERSAMPLING;
        double[] omega = new double[D * l];
        java.util.Arrays.fill(omega, 0.5);
        // A file gone: the second pass fails (a fact of the files, not of the values in them).
        Path gone = copyOfFiveFiles("gone");
        RowStream rows = spark(source(gone), new SparkTestData.Recorder()).rows(2);
        rows.project(omega, l, new double[N * l]);
        Files.delete(parts(gone).get(0));
        assertThatThrownBy(() -> rows.weightedSums(new double[N * l], l, D, B)).isInstanceOf(IllegalStateException.class);
        // Two files replaced by files of 60 and 180 rows: as many rows in all, but not per partition.
        // The pass must not pair a row with another row's weights: it fails.
        Path moved = copyOfFiveFiles("moved");
        RowStream again = spark(source(moved), new SparkTestData.Recorder()).rows(2);
        again.project(omega, l, new double[N * l]);
        List<Path> before = parts(moved);
        Files.delete(before.get(0));
        Files.delete(before.get(1));
        int[] sizes = {60, 180};
        for (int f = 0; f < sizes.length; f++) {
            Path written = Path.of(SparkTestData.write(java.util.Arrays.copyOf(rowsAsRead, sizes[f]), dir,
                    "part-" + sizes[f], ExternalSchema.Format.PARQUET, 1));
            Files.copy(parts(written).get(0), moved.resolve("x" + f + ".parquet"));
        }
        assertThatThrownBy(() -> again.weightedSums(new double[N * l], l, D, B))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("changed");
    }

    static ExternalSchema source(Path location) {
        return new ExternalSchema(location.toString(), ExternalSchema.Format.PARQUET, SparkTestData.columns(D),
                (long) N);
    }

    static List<Path> parts(Path location) throws IOException {
        try (Stream<Path> files = Files.list(location)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList();
        }
    }

    static Path copyOfFiveFiles(String name) throws IOException {
        Path copy = dir.resolve(name);
        Files.createDirectories(copy);
        for (Path p : parts(Path.of(fiveFiles.location()))) {
            Files.copy(p, copy.resolve(p.getFileName()));
        }
        return copy;
    }
}
