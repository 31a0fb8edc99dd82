package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.linalg.FixedPointGram;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The vector layout's binary column read with Parquet's column reader ({@link ParquetVectors}, what
 * {@link SparkDataAccess#gram} and {@link SparkDataAccess#columnSums} run for that layout) against
 * Spark's own columnar scan ({@link PartitionStatistics.BatchSums}) and the in-process reference:
 * the same integers bit for bit, every row of every file read exactly once however Spark splits the
 * files (files of several row groups, splits down to a few hundred bytes), malformed and non-finite
 * vectors the zero row and counted, the column found by name as Spark finds it.
 */
class ParquetVectorsTest {

    static final int N = 700;
    static final int D = 7;
    static final double B = 1.5;
    static Path dir;
    static double[][] x;
    /** Three files of several row groups each (small row groups and pages). */
    static ExternalSchema smallGroups;

    @BeforeAll
    static void write() {
        dir = SparkTestData.tempDir();
        x = SparkTestData.matrix(N, D, B, 34);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            rows.add(RowFactory.create("r" + i, SparkTestData.vector(x[i], SparkTestData.Vector.BINARY)));
        }
        smallGroups = write(rows, "groups", "x", 3);
    }

    /** Rows (label, binary) as Parquet of small row groups, the binary column named {@code column}. */
    private static ExternalSchema write(List<Row> rows, String name, String column, int files) {
        StructType type = new StructType(new StructField[] {
                DataTypes.createStructField("label", DataTypes.StringType, true),
                DataTypes.createStructField(column, DataTypes.BinaryType, true)});
        String location = dir.resolve(name).toString();
        SparkTestData.engine().session().createDataFrame(rows, type).repartition(files).write()
                .option("parquet.block.size", "1024").option("parquet.page.size", "256")
                .option("parquet.block.size.row.check.min", "5").option("parquet.block.size.row.check.max", "5")
                .option("parquet.enable.dictionary", "false").parquet(location);
        return new ExternalSchema(location, ExternalSchema.Format.PARQUET, SparkTestData.columns(D), (long) rows.size(),
                "x");
    }

    private static SparkDataAccess spark(ExternalSchema schema, long n) {
        return SparkTestData.access(schema, SparkTestData.facts(D, B, n, NeighbouringRelation.REPLACE_ONE),
                new SparkTestData.Recorder());
    }

    /** Spark's own columnar scan of the source: the path before ParquetVectors. */
    private static FixedPointGram batches(ExternalSchema schema, boolean withGram) {
        SparkEngine engine = SparkTestData.engine();
        return FixedPointGram.of(SparkDataAccess.binaryBatches(engine.source(schema), D)
                .mapPartitions(new PartitionStatistics.BatchSums(D, B, withGram))
                .treeReduce(FixedPointGram::merge, engine.treeDepth()));
    }

    /** Every row each split of the direct plan reads, on the driver: the rows and the splits' count. */
    private static List<double[]> rowsBySplit(ParquetVectors.Plan plan, int[] splits) {
        List<double[]> read = new ArrayList<>();
        org.apache.hadoop.conf.Configuration conf = plan.conf().value().value();
        for (List<ParquetVectors.Split> part : plan.splits().collect()) {
            for (ParquetVectors.Split s : part) {
                splits[0]++;
                // A null vector is read as NaN in entry 0 (the rest is the previous row's): all NaN here.
                ParquetVectors.read(conf, s, plan.column(), plan.caseSensitive(), new double[D],
                        row -> read.add(Double.isNaN(row[0]) ? missing() : row.clone()));
            }
        }
        return read;
    }

    private static double[] missing() {
        double[] r = new double[D];
        Arrays.fill(r, Double.NaN);
        return r;
    }

    private static final Comparator<double[]> ROWS = (a, b) -> Arrays.compare(a, b);

    @Test
    void theSameIntegersAsSparksScanAndEveryRowOnceWhateverTheSplits() throws Exception {
        SparkEngine engine = SparkTestData.engine();
        int groups = 0;
        for (java.nio.file.Path f : java.nio.file.Files.list(Path.of(smallGroups.location()))
                .filter(p -> p.toString().endsWith(".parquet")).toList()) {
            try (var reader = org.apache.parquet.hadoop.ParquetFileReader.open(
                    org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(f.toUri()),
                            engine.session().sparkContext().hadoopConfiguration()))) {
                groups += reader.getRowGroups().size();
            }
        }
        assertThat(groups).as("row groups in 3 files").isGreaterThan(6);
        DataAccess.Gram expected = new SparkTestData.LocalExact(x, D, B).gram(true);
        // The rows as written: SparkTestData.vector writes a row with a −∞ entry as a null vector.
        double[][] sorted = Arrays.stream(x).map(r -> Arrays.stream(r).anyMatch(v -> v == Double.NEGATIVE_INFINITY)
                ? missing() : r).toArray(double[][]::new);
        Arrays.sort(sorted, ROWS);
        var conf = engine.session().conf();
        String before = conf.get("spark.sql.files.maxPartitionBytes");
        String openCost = conf.get("spark.sql.files.openCostInBytes");
        try {
            // Spark's default (a file per split), then splits of a few row groups, then of less than one.
            for (String bytes : new String[] {before, "4096", "1500", "300"}) {
                conf.set("spark.sql.files.maxPartitionBytes", bytes);
                conf.set("spark.sql.files.openCostInBytes", "0");
                ParquetVectors.Plan plan = ParquetVectors.plan(engine.source(smallGroups));
                assertThat(plan).isNotNull();
                int[] splits = {0};
                List<double[]> read = rowsBySplit(plan, splits);
                plan.conf().destroy();
                if (bytes.equals("300")) { // smaller than a row group: most splits hold no row group's midpoint
                    assertThat(splits[0]).as("splits at %s bytes", bytes).isGreaterThan(groups);
                }
                read.sort(ROWS);
                assertThat(read).as("rows at %s bytes", bytes).hasSize(N);
                for (int i = 0; i < N; i++) {
                    assertThat(read.get(i)).as("row %d at %s bytes", i, bytes).containsExactly(sorted[i]);
                }
                DataAccess.Gram g = spark(smallGroups, N).gram(true);
                assertThat(g.gram()).as("at %s bytes", bytes).containsExactly(expected.gram());
                assertThat(g.sums()).as("at %s bytes", bytes).containsExactly(expected.sums());
                assertThat(spark(smallGroups, N).columnSums()).containsExactly(expected.sums());
                assertThat(g.gram()).containsExactly(batches(smallGroups, true).gram());
            }
        } finally {
            conf.set("spark.sql.files.maxPartitionBytes", before);
            conf.set("spark.sql.files.openCostInBytes", openCost);
        }
    }

    /**
     * Null, shorter, longer, empty and odd-length vectors, NaN and infinite entries, and a row far
     * beyond B: the same integers as Spark's scan and the reference (malformed and non-finite rows
     * the zero row, the long row clipped), every row counted.
     */
    @Test
    void malformedAndNonFiniteVectorsAreZeroRowsAndCountAsOnSparksScan() {
        double[][] good = new double[5][];
        List<Row> rows = new ArrayList<>();
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (int i = 0; i < 40; i++) {
            double[] r = new double[D];
            for (int j = 0; j < D; j++) {
                r[j] = random.nextDouble(-1, 1);
            }
            if (i < good.length) {
                good[i] = r;
            }
            rows.add(RowFactory.create("ok" + i, SparkTestData.vector(r, SparkTestData.Vector.BINARY)));
        }
        double[] nan = good[0].clone();
        nan[3] = Double.NaN;
        double[] inf = good[1].clone();
        inf[0] = Double.POSITIVE_INFINITY;
        double[] huge = good[2].clone();
        huge[6] = 1e300;
        List<double[]> all = new ArrayList<>();
        for (Row r : rows) {
            all.add(valuesOf((byte[]) r.get(1)));
        }
        for (double[] odd : new double[][] {nan, inf, huge}) {
            rows.add(RowFactory.create("odd", SparkTestData.vector(odd, SparkTestData.Vector.BINARY)));
            all.add(odd);
        }
        for (byte[] bad : new byte[][] {null, new byte[0], new byte[8], new byte[8 * D + 8], new byte[8 * D - 3]}) {
            rows.add(RowFactory.create("bad", bad));
            all.add(new double[] {Double.NaN});
        }
        ExternalSchema schema = write(rows, "malformed", "x", 2);
        assertThat(ParquetVectors.plan(SparkTestData.engine().source(schema))).isNotNull();
        DataAccess.Gram expected = new SparkTestData.LocalExact(all.stream().map(r -> r.length == D ? r
                : nanRow()).toArray(double[][]::new), D, B).gram(true);
        DataAccess.Gram g = spark(schema, rows.size()).gram(true);
        assertThat(g.gram()).containsExactly(expected.gram());
        assertThat(g.sums()).containsExactly(expected.sums());
        assertThat(g.gram()).containsExactly(batches(schema, true).gram());
        assertThat(spark(schema, rows.size()).columnSums()).containsExactly(batches(schema, false).columnSums());
        // Every row counted: a declared n of the well-formed rows only fails the pass.
        assertThatThrownBy(() -> spark(schema, 40).gram(false)).isInstanceOf(ExternalRowCountException.class);
    }

    private static double[] nanRow() {
        double[] r = new double[D];
        r[0] = Double.NaN;
        return r;
    }

    private static double[] valuesOf(byte[] bytes) {
        double[] r = new double[bytes.length / 8];
        java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(r);
        return r;
    }

    /**
     * The column is found as Spark resolves it (a declared "x" reads a file's "X"); the direct read is
     * planned for the binary vector layout only (not the list layout, the scalar columns or CSV); a
     * location that is not a plain path is refused before anything is planned.
     */
    @Test
    void theColumnIsFoundAsSparkFindsItAndOnlyTheBinaryLayoutIsReadDirectly() {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            rows.add(RowFactory.create("r" + i, SparkTestData.vector(x[i], SparkTestData.Vector.BINARY)));
        }
        ExternalSchema upper = write(rows, "upper", "X", 2);
        SparkEngine engine = SparkTestData.engine();
        ParquetVectors.Plan plan = ParquetVectors.plan(engine.source(upper));
        assertThat(plan).isNotNull();
        plan.conf().destroy();
        DataAccess.Gram expected = new SparkTestData.LocalExact(Arrays.copyOf(x, 50), D, B).gram(false);
        assertThat(spark(upper, 50).gram(false).gram()).containsExactly(expected.gram());

        ExternalSchema list = SparkTestData.writeVector(x, dir, "list", SparkTestData.Vector.LIST, 2, (long) N);
        ExternalSchema scalars = new ExternalSchema(SparkTestData.write(x, dir, "scalars",
                ExternalSchema.Format.PARQUET, 2), ExternalSchema.Format.PARQUET, SparkTestData.columns(D), (long) N);
        ExternalSchema csv = new ExternalSchema(SparkTestData.write(x, dir, "csv", ExternalSchema.Format.CSV, 2),
                ExternalSchema.Format.CSV, SparkTestData.columns(D), (long) N);
        for (ExternalSchema other : List.of(list, scalars, csv)) {
            assertThat(ParquetVectors.plan(engine.source(other))).as(other.location()).isNull();
        }
        ExternalSchema outside = new ExternalSchema(smallGroups.location() + "/../groups",
                ExternalSchema.Format.PARQUET, SparkTestData.columns(D), (long) N, "x");
        assertThatThrownBy(() -> spark(outside, N).gram(false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a plain path");
    }
}
