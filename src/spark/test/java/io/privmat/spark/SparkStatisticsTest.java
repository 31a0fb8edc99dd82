package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.GramOperator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The statistics Spark computes for EXTERNAL datasets, on Parquet and CSV written here, against the
 * in-process reference over the same rows: column sums and the Gram matrix bit for bit whatever the
 * number of files; XᵀX·V and the row stream as stated; the declared row count enforced; progress
 * from pass boundaries only.
 */
class SparkStatisticsTest {

    static final int N = 700;
    static final int D = 7;
    static final double B = 1.5;
    static Path dir;
    static double[][] x;
    static ExternalSchema oneFile;
    static ExternalSchema fiveFiles;
    static ExternalSchema csv;
    static ExternalSchema listOneFile;
    static ExternalSchema listFourFiles;
    static ExternalSchema binaryOneFile;
    static ExternalSchema binaryThreeFiles;

    @BeforeAll
    static void write() {
        dir = SparkTestData.tempDir();
        x = SparkTestData.matrix(N, D, B, 21);
        List<String> cols = SparkTestData.columns(D);
        oneFile = new ExternalSchema(SparkTestData.write(x, dir, "one", ExternalSchema.Format.PARQUET, 1),
                ExternalSchema.Format.PARQUET, cols, (long) N);
        fiveFiles = new ExternalSchema(SparkTestData.write(x, dir, "five", ExternalSchema.Format.PARQUET, 5),
                ExternalSchema.Format.PARQUET, cols, (long) N);
        csv = new ExternalSchema(SparkTestData.write(x, dir, "csv", ExternalSchema.Format.CSV, 3),
                ExternalSchema.Format.CSV, cols, (long) N);
        listOneFile = SparkTestData.writeVector(x, dir, "list1", SparkTestData.Vector.LIST, 1, (long) N);
        listFourFiles = SparkTestData.writeVector(x, dir, "list4", SparkTestData.Vector.LIST, 4, (long) N);
        binaryOneFile = SparkTestData.writeVector(x, dir, "binary1", SparkTestData.Vector.BINARY, 1, (long) N);
        binaryThreeFiles = SparkTestData.writeVector(x, dir, "binary3", SparkTestData.Vector.BINARY, 3, (long) N);
    }

    private static SparkDataAccess spark(ExternalSchema schema) {
        return SparkTestData.access(schema, SparkTestData.facts(D, B, (long) N, NeighbouringRelation.REPLACE_ONE),
                new SparkTestData.Recorder());
    }

    private static DataAccess local(ExternalSchema schema) {
        return new SparkTestData.LocalExact(SparkTestData.readBack(schema), D, B);
    }

    @Test
    void sumsAndGramEqualTheInProcessReferenceBitForBitWhateverTheFiles() {
        DataAccess reference = local(oneFile);
        DataAccess.Gram expected = reference.gram(true);
        for (ExternalSchema source : List.of(oneFile, fiveFiles, csv, listOneFile, listFourFiles, binaryOneFile,
                binaryThreeFiles)) {
            DataAccess.Gram g = spark(source).gram(true);
            assertThat(g.gram()).as(source.location()).containsExactly(expected.gram());
            assertThat(g.sums()).as(source.location()).containsExactly(expected.sums());
            assertThat(spark(source).columnSums()).as(source.location()).containsExactly(reference.columnSums());
        }
        assertThat(spark(oneFile).gram(false).sums()).isEmpty();
        // The binary vector layout was read as Parquet's columnar batches (PartitionStatistics.BatchSums),
        // the list layout and the scalar columns as rows: both paths are compared above.
        SparkEngine engine = SparkTestData.engine();
        // Batches sized for the row width: at d = 2¹⁵ (a 256 kB row) 16 rows, the least.
        org.apache.spark.api.java.JavaRDD<org.apache.spark.sql.vectorized.ColumnarBatch> batches =
                SparkDataAccess.binaryBatches(engine.source(binaryThreeFiles), 1 << 15);
        assertThat(batches).isNotNull();
        assertThat(SparkDataAccess.batchRows(1 << 15)).isEqualTo(16);
        assertThat(SparkDataAccess.batchRows(784)).isEqualTo(256);
        assertThat(SparkDataAccess.batchRows(D)).isEqualTo(4096);
        assertThat(SparkDataAccess.binaryBatches(engine.source(listOneFile), D)).isNull();
        assertThat(SparkDataAccess.binaryBatches(engine.source(oneFile), D)).isNull();
        // The scan kept the batch size of its build (the session's setting is back to Spark's meanwhile).
        assertThat(engine.session().conf().get("spark.sql.parquet.columnarReaderBatchSize")).isEqualTo("4096");
        assertThat(batches.map(org.apache.spark.sql.vectorized.ColumnarBatch::numRows).collect())
                .allSatisfy(rows -> assertThat(rows).isBetween(1, 16))
                .hasSizeGreaterThanOrEqualTo(N / 16); // N rows in 3 files, in batches of at most 16
    }

    /**
     * The vector layout reads the same rows as the scalar layout: XᵀX·V within the same bound, and the
     * row stream (one file each, so the same order) bit for bit.
     */
    @Test
    void theVectorLayoutStreamsTheSameClippedRowsAsTheScalarColumns() {
        List<double[]> expected = new ArrayList<>();
        spark(oneFile).rows(1).forEachBlock((block, count, first) -> expected.add(java.util.Arrays.copyOf(block,
                count * D)));
        double[] scalar = expected.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
        for (ExternalSchema vector : List.of(listOneFile, binaryOneFile)) {
            List<double[]> got = new ArrayList<>();
            spark(vector).rows(1).forEachBlock((block, count, first) -> got.add(java.util.Arrays.copyOf(block,
                    count * D)));
            assertThat(got.stream().flatMapToDouble(java.util.Arrays::stream).toArray()).as(vector.location())
                    .containsExactly(scalar);
        }
        double[] v = new double[D * 2];
        for (int i = 0; i < v.length; i++) {
            v[i] = (i % 5) - 2;
        }
        double[] a = new double[D * 2];
        double[] b = new double[D * 2];
        spark(oneFile).gramOperator(D, 1).apply(v, 2, a);
        spark(binaryThreeFiles).gramOperator(D, 1).apply(v, 2, b);
        for (int i = 0; i < a.length; i++) {
            assertThat(b[i]).isCloseTo(a[i], org.assertj.core.api.Assertions.within(1e-12 * N * B * B));
        }
    }

    /**
     * A vector of another length than d — shorter, longer, empty, bytes not a multiple of 8 — or a
     * missing vector makes its row the zero row, counted as a row; nothing fails the pass. The Gram
     * is exactly that of the well-formed rows.
     */
    @Test
    void malformedVectorsAreZeroRowsThatStillCount() {
        double[][] good = {{0.6, 0.8}, {0.3, -0.4}};
        SparkTestData.Vector[] layouts = SparkTestData.Vector.values();
        for (SparkTestData.Vector layout : layouts) {
            List<org.apache.spark.sql.Row> rows = new ArrayList<>();
            rows.add(org.apache.spark.sql.RowFactory.create("ok0", SparkTestData.vector(good[0], layout)));
            rows.add(org.apache.spark.sql.RowFactory.create("short", SparkTestData.vector(new double[] {0.5}, layout)));
            rows.add(org.apache.spark.sql.RowFactory.create("long", SparkTestData.vector(new double[] {1, 0, 0},
                    layout)));
            rows.add(org.apache.spark.sql.RowFactory.create("empty", SparkTestData.vector(new double[0], layout)));
            rows.add(org.apache.spark.sql.RowFactory.create("missing", null));
            rows.add(org.apache.spark.sql.RowFactory.create("ok1", SparkTestData.vector(good[1], layout)));
            if (layout == SparkTestData.Vector.BINARY) {
                rows.add(org.apache.spark.sql.RowFactory.create("odd", new byte[15]));
            }
            ExternalSchema schema = SparkTestData.writeVectorRows(rows, 2, dir, "malformed-" + layout, layout, 2,
                    (long) rows.size());
            SparkDataAccess data = SparkTestData.access(schema, SparkTestData.facts(2, 1.0, (long) rows.size(),
                    NeighbouringRelation.REPLACE_ONE), new SparkTestData.Recorder());
            DataAccess.Gram g = data.gram(true);
            DataAccess.Gram expected = new SparkTestData.LocalExact(good, 2, 1.0).gram(true);
            assertThat(g.gram()).as(layout.name()).containsExactly(expected.gram());
            assertThat(g.sums()).as(layout.name()).containsExactly(expected.sums());
            // Every row counted: a declared n of the well-formed rows only fails the pass.
            SparkDataAccess wellFormedOnly = SparkTestData.access(schema, SparkTestData.facts(2, 1.0, 2L,
                    NeighbouringRelation.REPLACE_ONE), new SparkTestData.Recorder());
            assertThatThrownBy(wellFormedOnly::columnSums).isInstanceOf(ExternalRowCountException.class);
        }
    }

    /**
     * A CSV cell that does not parse as a number (NA, a decimal comma, text) makes its row the zero row,
     * as a missing value does, instead of failing the pass: Spark 4's ANSI cast would throw, and a job
     * that fails because one row holds "NA" is a data-dependent outcome (docs/adr/0011).
     */
    @Test
    void unparseableCsvCellsMakeTheirRowTheZeroRowInsteadOfFailingThePass() throws java.io.IOException {
        Path folder = dir.resolve("unparseable");
        java.nio.file.Files.createDirectories(folder);
        java.nio.file.Files.writeString(folder.resolve("part-0.csv"),
                "c0,c1\n1,0\nNA,0.5\n\"1,5\",0\nabc,1\n0,1\n");
        ExternalSchema schema = new ExternalSchema(folder.toString(), ExternalSchema.Format.CSV, List.of("c0", "c1"),
                5L);
        SparkDataAccess data = SparkTestData.access(schema, SparkTestData.facts(2, 1.0, 5L,
                NeighbouringRelation.REPLACE_ONE), new SparkTestData.Recorder());
        DataAccess.Gram g = data.gram(true);
        assertThat(g.gram()).containsExactly(1, 0, 0, 1);
        assertThat(g.sums()).containsExactly(1, 1);
    }

    @Test
    void gramIsWithinTheStatedBoundOfTheFloatingGramOfTheClippedRows() {
        double[] g = spark(fiveFiles).gram(false).gram();
        double[] floating = new double[D * D];
        for (double[] row : x) {
            double max = 0;
            boolean finite = true;
            for (double v : row) {
                finite &= Double.isFinite(v);
                max = Math.max(max, Math.abs(v));
            }
            if (!finite) {
                continue; // the zero row
            }
            double scaled = 0;
            for (double v : row) {
                scaled += (v / max) * (v / max);
            }
            double norm = max * Math.sqrt(scaled);
            double f = norm > B ? B / norm : 1;
            for (int j = 0; j < D; j++) {
                for (int k = 0; k < D; k++) {
                    floating[j * D + k] += row[j] * f * row[k] * f;
                }
            }
        }
        double frob = 0;
        for (int i = 0; i < g.length; i++) {
            frob += (g[i] - floating[i]) * (g[i] - floating[i]);
        }
        // Quantisation: per row ≤ 2·h·√d·B with h = B·2⁻²² (docs/scale-out.md), plus float round-off.
        double bound = N * (2 * Math.scalb(B, -22) * Math.sqrt(D) * B) + 1e-9;
        assertThat(Math.sqrt(frob)).isLessThanOrEqualTo(bound);
    }

    @Test
    void gramTimesVMatchesTheStreamedProductOfTheSameRows() {
        int k = 3;
        SplittableRandom r = new SplittableRandom(5);
        double[] v = new double[D * k];
        for (int i = 0; i < v.length; i++) {
            v[i] = r.nextGaussian();
        }
        double[] expected = new double[D * k];
        GramOperator.ofRows(local(fiveFiles).rows(1), D).apply(v, k, expected);
        SparkTestData.Recorder progress = new SparkTestData.Recorder();
        SparkDataAccess data = SparkTestData.access(fiveFiles, SparkTestData.facts(D, B, (long) N,
                NeighbouringRelation.REPLACE_ONE), progress);
        GramOperator op = data.gramOperator(D, 2);
        double[] out = new double[D * k];
        op.apply(v, k, out);
        double[] again = new double[D * k];
        op.apply(v, k, again);
        for (int i = 0; i < out.length; i++) {
            assertThat(out[i]).isCloseTo(expected[i], org.assertj.core.api.Assertions.within(1e-12 * N * B * B));
        }
        assertThat(again).containsExactly(out); // a re-run pass gives the same sums
        assertThat(progress.distinct()).containsExactly(0.0, 0.45, 0.9); // one pass per application
    }

    @Test
    void rowStreamDeliversTheClippedRowsInSourceOrderOnEveryPass() {
        SparkDataAccess data = spark(fiveFiles);
        var stream = data.rows(2);
        List<double[]> first = new ArrayList<>();
        List<double[]> second = new ArrayList<>();
        stream.forEachBlock((block, count, firstRow) -> first.add(java.util.Arrays.copyOf(block, count * D)));
        stream.forEachBlock((block, count, firstRow) -> second.add(java.util.Arrays.copyOf(block, count * D)));
        double[] a = first.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
        double[] b = second.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
        List<double[]> expected = new ArrayList<>();
        local(fiveFiles).rows(1).forEachBlock((block, count, firstRow) -> expected.add(block));
        assertThat(a).containsExactly(expected.stream().flatMapToDouble(java.util.Arrays::stream).toArray());
        assertThat(b).containsExactly(a);
        // Blocks of exactly privmat.spark.row-block = 64 rows whatever the partitions, the last shorter.
        assertThat(first).hasSize((N + 63) / 64);
        assertThat(first.subList(0, first.size() - 1)).allSatisfy(block -> assertThat(block).hasSize(64 * D));
    }

    @Test
    void aPassThatMeetsAnotherCountThanTheDeclaredOneFails() {
        var facts = SparkTestData.facts(D, B, (long) N + 1, NeighbouringRelation.REPLACE_ONE);
        SparkDataAccess data = SparkTestData.access(oneFile, facts, new SparkTestData.Recorder());
        assertThatThrownBy(data::columnSums).isInstanceOf(ExternalRowCountException.class)
                .hasMessageContaining(String.valueOf(N + 1)).hasMessageNotContaining(" " + N + " ");
        assertThatThrownBy(() -> data.gram(false)).isInstanceOf(ExternalRowCountException.class);
        assertThatThrownBy(() -> data.rows(1).forEachBlock((b, c, f) -> { }))
                .isInstanceOf(ExternalRowCountException.class);
        // Under ADD_REMOVE nothing is compared: n is private.
        var addRemove = SparkTestData.facts(D, B, null, NeighbouringRelation.ADD_REMOVE);
        assertThat(SparkTestData.access(oneFile, addRemove, new SparkTestData.Recorder()).columnSums()).hasSize(D);
    }

    @Test
    void progressShowsPassBoundariesOnlyWhateverTheRowCount() {
        double[][] small = SparkTestData.matrix(40, D, B, 3);
        ExternalSchema smallSource = new ExternalSchema(SparkTestData.write(small, dir, "small",
                ExternalSchema.Format.PARQUET, 2), ExternalSchema.Format.PARQUET, SparkTestData.columns(D), null);
        var addRemove = SparkTestData.facts(D, B, null, NeighbouringRelation.ADD_REMOVE);
        List<List<Double>> seen = new ArrayList<>();
        for (ExternalSchema source : List.of(smallSource, new ExternalSchema(fiveFiles.location(),
                ExternalSchema.Format.PARQUET, fiveFiles.columns(), null))) {
            SparkTestData.Recorder r = new SparkTestData.Recorder();
            SparkTestData.access(source, addRemove, r).gram(true);
            seen.add(r.distinct());
        }
        assertThat(seen.get(0)).containsExactly(0.0, 0.9).isEqualTo(seen.get(1));
    }

    @Test
    void declarationsAreCheckedAgainstTheSourceSchemaWithoutReadingRows() {
        SparkEngine engine = SparkTestData.engine();
        engine.check(oneFile);
        engine.check(csv);
        assertThatThrownBy(() -> engine.check(new ExternalSchema(oneFile.location(), ExternalSchema.Format.PARQUET,
                List.of("c0", "nope"), 1L))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope");
        assertThatThrownBy(() -> engine.check(new ExternalSchema(oneFile.location(), ExternalSchema.Format.PARQUET,
                List.of("label"), 1L))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not numeric");
        engine.check(listOneFile);
        engine.check(binaryThreeFiles);
        assertThatThrownBy(() -> engine.check(new ExternalSchema(listOneFile.location(), ExternalSchema.Format.PARQUET,
                listOneFile.columns(), 1L, "nope"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> engine.check(new ExternalSchema(listOneFile.location(), ExternalSchema.Format.PARQUET,
                listOneFile.columns(), 1L, "label"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a list of doubles");
        assertThatThrownBy(() -> engine.check(new ExternalSchema(oneFile.location(), ExternalSchema.Format.PARQUET,
                List.of("c0"), 1L, "c0"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a list of doubles");
        assertThatThrownBy(() -> engine.check(new ExternalSchema(dir.resolve("missing").toString(),
                ExternalSchema.Format.PARQUET, List.of("c0"), 1L))).isInstanceOf(IllegalArgumentException.class);
    }
}
