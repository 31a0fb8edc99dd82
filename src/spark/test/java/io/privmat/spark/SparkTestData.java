package io.privmat.spark;

import io.privmat.dataset.EngineRun;
import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.EdgeSource;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.linalg.FixedPointGram;
import io.privmat.privacy.AccountingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.springframework.test.context.DynamicPropertyRegistry;

/** One embedded local[2] Spark engine per test JVM, seeded test matrices written as Parquet or CSV. */
final class SparkTestData {

    private SparkTestData() {}

    private static SparkEngine engine;

    static synchronized SparkEngine engine() {
        if (engine == null) {
            engine = new SparkEngine(new SparkSettings(true, "local[2]", "privmat-test", Map.of(), 2, 64));
        }
        return engine;
    }

    /**
     * n × d seeded rows: a third longer than B (clipped), one row with a null, one with NaN, one of
     * huge finite values; {@code column names c0 … c(d−1)} plus a string column that is not declared.
     */
    static double[][] matrix(int n, int d, double bound, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            double scale = (i % 3 == 0 ? 3 : 0.5) * bound / Math.sqrt(d);
            for (int j = 0; j < d; j++) {
                x[i][j] = r.nextGaussian() * scale + (j == 0 ? 0.3 * bound / Math.sqrt(d) : 0);
            }
        }
        if (n > 10) {
            x[4][1] = Double.NaN; // written as NaN
            x[5][0] = Double.NEGATIVE_INFINITY; // stands for a null (written as null)
            x[6][2 % d] = 1e300;
        }
        return x;
    }

    static List<String> columns(int d) {
        List<String> names = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            names.add("c" + j);
        }
        return names;
    }

    /** Writes the matrix as Parquet (files = number of output files) or CSV; returns the location. */
    static String write(double[][] x, Path dir, String name, ExternalSchema.Format format, int files) {
        int d = x[0].length;
        List<StructField> fields = new ArrayList<>();
        fields.add(DataTypes.createStructField("label", DataTypes.StringType, true));
        for (int j = 0; j < d; j++) {
            fields.add(DataTypes.createStructField("c" + j, DataTypes.DoubleType, true));
        }
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            Object[] values = new Object[d + 1];
            values[0] = "r" + i;
            for (int j = 0; j < d; j++) {
                values[j + 1] = x[i][j] == Double.NEGATIVE_INFINITY ? null : x[i][j];
            }
            rows.add(RowFactory.create(values));
        }
        String location = dir.resolve(name).toString();
        var frame = engine().session().createDataFrame(rows, new StructType(fields.toArray(StructField[]::new)))
                .coalesce(1);
        var out = (files > 1 ? frame.repartition(files) : frame).write();
        if (format == ExternalSchema.Format.PARQUET) {
            out.parquet(location);
        } else {
            out.option("header", "true").csv(location);
        }
        return location;
    }

    /** How the vector layout stores a row in its one column. */
    enum Vector { LIST, BINARY }

    /**
     * Writes the matrix in the vector layout: a label and one column "x" holding each row as a list
     * of doubles (a missing value: a null element) or as 8·d little-endian bytes (a missing value: a
     * null vector — both make the zero row, as the null scalar does). Returns the declaration.
     */
    static ExternalSchema writeVector(double[][] x, Path dir, String name, Vector layout, int files, Long rows) {
        int d = x[0].length;
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            out.add(RowFactory.create("r" + i, vector(x[i], layout)));
        }
        return writeVectorRows(out, d, dir, name, layout, files, rows);
    }

    /** One row's vector value as the layout stores it (null for a row with a missing value in BINARY). */
    static Object vector(double[] row, Vector layout) {
        if (layout == Vector.LIST) {
            List<Double> values = new ArrayList<>();
            for (double v : row) {
                values.add(v == Double.NEGATIVE_INFINITY ? null : v);
            }
            return values;
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8 * row.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (double v : row) {
            if (v == Double.NEGATIVE_INFINITY) {
                return null;
            }
            b.putDouble(v);
        }
        return b.array();
    }

    /** Writes rows (label, vector) as Parquet; the declaration names d entries c0 … c(d−1) and the column "x". */
    static ExternalSchema writeVectorRows(List<Row> rows, int d, Path dir, String name, Vector layout, int files,
            Long declared) {
        StructType type = new StructType(new StructField[] {
                DataTypes.createStructField("label", DataTypes.StringType, true),
                DataTypes.createStructField("x", layout == Vector.LIST
                        ? DataTypes.createArrayType(DataTypes.DoubleType, true) : DataTypes.BinaryType, true)});
        String location = dir.resolve(name).toString();
        var frame = engine().session().createDataFrame(rows, type).coalesce(1);
        (files > 1 ? frame.repartition(files) : frame).write().parquet(location);
        return new ExternalSchema(location, ExternalSchema.Format.PARQUET, columns(d), declared, "x");
    }

    static Path tempDir() {
        try {
            return Files.createTempDirectory("privmat-spark-test");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The service under test reads EXTERNAL data under {@code lake} with an embedded local[2] Spark. */
    static void serviceOnLocalSpark(DynamicPropertyRegistry registry, Path lake) {
        registry.add("privmat.external.allowed-locations", () -> lake.toString() + "/");
        registry.add("privmat.spark.master", () -> "local[2]");
    }

    static PublicFacts facts(int d, double bound, Long n, NeighbouringRelation relation) {
        return new PublicFacts(DataShape.MATRIX, d, relation == NeighbouringRelation.REPLACE_ONE ? n : null, bound,
                relation, AccountingMode.ZCDP);
    }

    /** An engine run recording progress. */
    static final class Recorder implements EngineRun {
        final List<Double> values = new CopyOnWriteArrayList<>();
        private final UUID id = UUID.randomUUID();

        @Override
        public UUID id() {
            return id;
        }

        @Override
        public void progress(double fraction) {
            values.add(fraction);
        }

        List<Double> distinct() {
            return values.stream().distinct().toList();
        }
    }

    static SparkDataAccess access(ExternalSchema schema, PublicFacts facts, EngineRun context) {
        return new SparkDataAccess(engine(), schema, facts, context);
    }

    /** The rows as Spark reads them (declared columns as doubles, nulls as NaN), in Spark's order. */
    static double[][] readBack(ExternalSchema schema) {
        List<Row> rows = engine().rows(schema).collectAsList();
        double[][] x = new double[rows.size()][schema.d()];
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < schema.d(); j++) {
                x[i][j] = rows.get(i).isNullAt(j) ? Double.NaN : rows.get(i).getDouble(j);
            }
        }
        return x;
    }

    /**
     * The in-process reference: the same clipped, quantised rows in the same order, through
     * {@link FixedPointGram} and the default {@link DataAccess#gramOperator}; no Spark.
     */
    record LocalExact(double[][] rows, int d, double bound) implements DataAccess {

        private FixedPointGram sums(boolean withGram) {
            FixedPointGram g = new FixedPointGram(d, bound, withGram);
            for (double[] r : rows) {
                g.add(r, 0);
            }
            return g;
        }

        @Override
        public double[] columnSums() {
            return sums(false).columnSums();
        }

        @Override
        public Gram gram(boolean withSums) {
            FixedPointGram g = sums(true);
            return new Gram(g.gram(), withSums ? g.columnSums() : new double[0]);
        }

        @Override
        public RowStream rows(int passes) {
            double h = Math.scalb(bound, -FixedPointGram.FRACTION_BITS);
            int size = engine().rowBlock();
            return visitor -> {
                long[] q = new long[d];
                for (int first = 0; first < rows.length; first += size) {
                    int count = Math.min(size, rows.length - first);
                    double[] block = new double[count * d];
                    for (int i = 0; i < count; i++) {
                        PartitionStatistics.clipped(rows[first + i], q, bound, h, block, i * d);
                    }
                    visitor.block(block, count, first);
                }
            };
        }

        @Override
        public EdgeSource edges() {
            throw new UnsupportedOperationException();
        }
    }
}
