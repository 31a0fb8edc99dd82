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
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
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

    /** How a file of {@link #parquetMr} stores its column "x" of 8·D bytes. */
    private record Layout(String schema, boolean dictionary, int dictionaryPage, ParquetProperties.WriterVersion version,
            CompressionCodecName codec) {}

    private static final Layout PLAIN = new Layout("optional binary x", false, 1 << 20,
            ParquetProperties.WriterVersion.PARQUET_1_0, CompressionCodecName.UNCOMPRESSED);
    /** Dictionary pages falling back to plain pages within a column chunk when the dictionary outgrows 300 bytes. */
    private static final Layout DICTIONARY = new Layout("optional binary x", true, 300,
            ParquetProperties.WriterVersion.PARQUET_1_0, CompressionCodecName.SNAPPY);
    /** Data pages v2 (RLE_DICTIONARY falling back to DELTA_BYTE_ARRAY), snappy. */
    private static final Layout V2 = new Layout("optional binary x", true, 300,
            ParquetProperties.WriterVersion.PARQUET_2_0, CompressionCodecName.SNAPPY);
    private static final Layout REQUIRED = new Layout("required binary x", false, 1 << 20,
            ParquetProperties.WriterVersion.PARQUET_1_0, CompressionCodecName.SNAPPY);
    private static final Layout FIXED = new Layout("optional fixed_len_byte_array(" + 8 * D + ") x", true, 300,
            ParquetProperties.WriterVersion.PARQUET_1_0, CompressionCodecName.SNAPPY);

    /**
     * {@code values} (null: a null) as one Parquet file written by Parquet's own writer, an int32
     * label before the column: row groups of {@code groupRows} rows, pages of 3 rows.
     */
    private static java.nio.file.Path parquetMr(java.nio.file.Path file, Layout layout, List<byte[]> values,
            int groupRows) throws java.io.IOException {
        java.nio.file.Files.createDirectories(file.getParent());
        MessageType schema = MessageTypeParser.parseMessageType("message m { required int32 label; "
                + layout.schema() + "; }");
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        var conf = HADOOP;
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(
                HadoopOutputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), conf)).withConf(conf)
                .withType(schema).withDictionaryEncoding(layout.dictionary()).withDictionaryPageSize(layout.dictionaryPage())
                .withWriterVersion(layout.version()).withCompressionCodec(layout.codec())
                .withRowGroupRowCountLimit(groupRows).withPageRowCountLimit(3).withMinRowCountForPageSizeCheck(1)
                .build()) {
            for (int i = 0; i < values.size(); i++) {
                Group g = groups.newGroup().append("label", i);
                if (values.get(i) != null) {
                    g.append("x", Binary.fromConstantByteArray(values.get(i)));
                }
                writer.write(g);
            }
        }
        return file;
    }

    /**
     * 60 vectors: the first 24 three runs of one vector each (a dictionary holds them), then distinct ones
     * (the dictionary outgrows its page and the writer falls back), with nulls and, when the column
     * may hold them, vectors of another length.
     */
    private static List<byte[]> vectors(long seed, boolean nulls, boolean otherLengths) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        List<byte[]> distinct = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            double[] r = new double[D];
            for (int j = 0; j < D; j++) {
                r[j] = random.nextDouble(-1, 1);
            }
            distinct.add((byte[]) SparkTestData.vector(r, SparkTestData.Vector.BINARY));
        }
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            byte[] v = i < 24 ? distinct.get(i / 8) : distinct.get(i);
            if (nulls && i % 11 == 5) {
                v = null;
            } else if (otherLengths && i % 13 == 7) {
                v = new byte[8 * D + 1 + i % 3];
            }
            out.add(v);
        }
        return out;
    }

    /** The rows {@link ParquetVectors#read} gives for {@code values}: NaN for a null or another length. */
    private static double[][] expected(List<byte[]> values) {
        return values.stream().map(v -> v == null || v.length != 8 * D ? nanRow() : valuesOf(v))
                .toArray(double[][]::new);
    }

    private static final org.apache.hadoop.conf.Configuration HADOOP = new org.apache.hadoop.conf.Configuration();

    /** The rows of one file read as consecutive splits cut at {@code cuts} (ascending, inside the file). */
    private static List<double[]> readCut(java.nio.file.Path file, long[] cuts) {
        long length = file.toFile().length();
        List<double[]> read = new ArrayList<>();
        long from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            long to = i < cuts.length ? cuts[i] : length;
            ParquetVectors.read(HADOOP,
                    new ParquetVectors.Split(file.toUri(), from, to - from), "x", false, new double[D],
                    row -> read.add(row.clone()));
            from = to;
        }
        return read;
    }

    /**
     * Every row of a file read exactly once, in order, however it is cut into splits: one cut at
     * each byte around every row group's start and midpoint (Parquet assigns a row group to the
     * split holding its midpoint, the split's end excluded), and seeded cuts into 2 to 6 splits —
     * for plain pages, dictionary pages falling back to plain, data pages v2, a required column and
     * a FIXED_LEN_BYTE_ARRAY column; nulls and vectors of another length are NaN rows and count.
     */
    @Test
    void everyRowOnceInOrderWhereverTheSplitsAreCut() throws Exception {
        java.util.SplittableRandom random = new java.util.SplittableRandom(2026);
        List<Layout> layouts = List.of(PLAIN, DICTIONARY, V2, REQUIRED, FIXED);
        for (Layout layout : layouts) {
            boolean optional = layout.schema().startsWith("optional");
            List<byte[]> values = vectors(5, optional, layout.schema().contains(" binary"));
            java.nio.file.Path file = parquetMr(dir.resolve("cuts").resolve(layouts.indexOf(layout) + ".parquet"), layout,
                    values, layout == DICTIONARY ? 40 : 7);
            double[][] rows = expected(values);
            List<Long> cuts = new ArrayList<>();
            try (var reader = org.apache.parquet.hadoop.ParquetFileReader.open(org.apache.parquet.hadoop.util.HadoopInputFile
                    .fromPath(new org.apache.hadoop.fs.Path(file.toUri()), HADOOP))) {
                List<org.apache.parquet.hadoop.metadata.BlockMetaData> blocks = reader.getRowGroups();
                assertThat(blocks.size()).as("row groups").isGreaterThan(1);
                if (layout == DICTIONARY || layout == V2) {
                    var encodings = blocks.get(0).getColumns().get(1).getEncodings();
                    assertThat(encodings).as("dictionary pages").anyMatch(org.apache.parquet.column.Encoding::usesDictionary);
                }
                if (layout == DICTIONARY) { // the fallback to plain pages within the chunk
                    assertThat(blocks.get(0).getColumns().get(1).getEncodings())
                            .contains(org.apache.parquet.column.Encoding.PLAIN);
                }
                for (var b : blocks) {
                    long start = b.getStartingPos();
                    long mid = start + b.getCompressedSize() / 2;
                    for (long at : new long[] {start - 1, start, start + 1, mid - 1, mid, mid + 1}) {
                        cuts.add(at);
                    }
                }
            }
            long length = file.toFile().length();
            List<long[]> splittings = new ArrayList<>();
            for (long c : cuts) {
                if (c > 0 && c < length) {
                    splittings.add(new long[] {c});
                }
            }
            for (int k = 0; k < 30; k++) {
                splittings.add(random.longs(1 + random.nextInt(5), 1, length).sorted().distinct().toArray());
            }
            for (long[] c : splittings) {
                List<double[]> read = readCut(file, c);
                assertThat(read).as("%s cut at %s", layout, Arrays.toString(c)).hasSize(rows.length);
                for (int i = 0; i < rows.length; i++) {
                    assertThat(read.get(i)[0] == read.get(i)[0] ? read.get(i) : nanRow())
                            .as("%s row %d cut at %s", layout, i, Arrays.toString(c)).containsExactly(rows[i]);
                }
            }
        }
    }

    /**
     * Files of Parquet's own writer in one location — plain, dictionary falling back to plain, data
     * pages v2, a required column, a file of no rows and a file without the column (its rows null) —
     * give the same integers through the direct read as through Spark's scan and the reference, and
     * every row counts towards the declared n.
     */
    @Test
    void filesOfEveryEncodingGiveTheIntegersOfSparksScan() throws Exception {
        java.nio.file.Path location = dir.resolve("encodings");
        List<double[]> all = new ArrayList<>();
        int seed = 0;
        for (Layout layout : List.of(PLAIN, DICTIONARY, V2, REQUIRED)) {
            List<byte[]> values = vectors(100 + seed, layout.schema().startsWith("optional"), true);
            parquetMr(location.resolve("a" + seed++ + ".parquet"), layout, values, layout == DICTIONARY ? 40 : 7);
            all.addAll(Arrays.asList(expected(values)));
        }
        parquetMr(location.resolve("b-empty.parquet"), PLAIN, List.of(), 7);
        // The column missing from a file (sorted last, so that Spark takes the schema from another).
        MessageType labels = MessageTypeParser.parseMessageType("message m { required int32 label; }");
        var conf = HADOOP;
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(HadoopOutputFile.fromPath(
                new org.apache.hadoop.fs.Path(location.resolve("z-labels.parquet").toUri()), conf)).withConf(conf)
                .withType(labels).withRowGroupRowCountLimit(4).build()) {
            for (int i = 0; i < 9; i++) {
                writer.write(new SimpleGroupFactory(labels).newGroup().append("label", i));
                all.add(nanRow());
            }
        }
        int n = all.size();
        ExternalSchema schema = new ExternalSchema(location.toString(), ExternalSchema.Format.PARQUET,
                SparkTestData.columns(D), (long) n, "x");
        SparkEngine.Source source = SparkTestData.engine().source(schema);
        ParquetVectors.Plan plan = ParquetVectors.plan(source);
        assertThat(plan).isNotNull();
        plan.conf().destroy();
        // One task per partition Spark's scan planned, preferring the same hosts (its task placement; local
        // files report none, so here the hosts are empty on both sides — on HDFS they are the block hosts).
        var scan = (org.apache.spark.sql.execution.FileSourceScanExec) SparkDataAccess.belowConversion(source,
                p -> p instanceof org.apache.spark.sql.execution.FileSourceScanExec);
        var planned = scala.jdk.javaapi.CollectionConverters.asJava(
                ((org.apache.spark.sql.execution.datasources.FileScanRDD) scan.inputRDD()).filePartitions());
        org.apache.spark.Partition[] tasks = plan.splits().rdd().partitions();
        assertThat(tasks).hasSize(planned.size());
        for (int i = 0; i < tasks.length; i++) {
            assertThat(scala.jdk.javaapi.CollectionConverters.asJava(plan.splits().rdd().preferredLocations(tasks[i])))
                    .as("partition %d", i).containsExactly(planned.get(i).preferredLocations());
        }
        DataAccess.Gram expected = new SparkTestData.LocalExact(all.toArray(double[][]::new), D, B).gram(true);
        DataAccess.Gram g = spark(schema, n).gram(true);
        assertThat(g.gram()).containsExactly(expected.gram());
        assertThat(g.sums()).containsExactly(expected.sums());
        assertThat(g.gram()).containsExactly(batches(schema, true).gram());
        assertThat(spark(schema, n).columnSums()).containsExactly(batches(schema, false).columnSums());
        assertThatThrownBy(() -> spark(schema, n - 9).gram(false)).isInstanceOf(ExternalRowCountException.class);
    }

    /** A FIXED_LEN_BYTE_ARRAY column of 8·d bytes (Spark's binary) gives the integers of Spark's scan. */
    @Test
    void aFixedLengthColumnGivesTheIntegersOfSparksScan() throws Exception {
        java.nio.file.Path location = dir.resolve("fixed");
        List<byte[]> values = vectors(77, true, false);
        parquetMr(location.resolve("f.parquet"), FIXED, values, 7);
        ExternalSchema schema = new ExternalSchema(location.toString(), ExternalSchema.Format.PARQUET,
                SparkTestData.columns(D), (long) values.size(), "x");
        ParquetVectors.Plan plan = ParquetVectors.plan(SparkTestData.engine().source(schema));
        assertThat(plan).isNotNull();
        plan.conf().destroy();
        DataAccess.Gram g = spark(schema, values.size()).gram(true);
        assertThat(g.gram()).containsExactly(new SparkTestData.LocalExact(expected(values), D, B).gram(true).gram());
        assertThat(g.gram()).containsExactly(batches(schema, true).gram());
    }

    /**
     * A vector of a megabyte (another length than 8·d) is a NaN row like any other length, and the
     * file reads; reading many splits, failing ones included (a column that is not a binary), leaves
     * no file open.
     */
    @Test
    void aHugeValueIsAZeroRowAndNoReadLeavesAFileOpen() throws Exception {
        List<byte[]> values = vectors(9, true, true);
        values.set(30, new byte[1 << 20]);
        java.nio.file.Path file = parquetMr(dir.resolve("huge").resolve("h.parquet"), PLAIN, values, 7);
        double[][] rows = expected(values);
        List<double[]> read = readCut(file, new long[0]);
        assertThat(read).hasSize(rows.length);
        assertThat(read.get(30)[0]).isNaN();

        java.nio.file.Path longs = dir.resolve("longs").resolve("l.parquet");
        java.nio.file.Files.createDirectories(longs.getParent());
        MessageType schema = MessageTypeParser.parseMessageType("message m { required int64 x; }");
        var conf = HADOOP;
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(HadoopOutputFile.fromPath(
                new org.apache.hadoop.fs.Path(longs.toUri()), conf)).withConf(conf).withType(schema).build()) {
            writer.write(new SimpleGroupFactory(schema).newGroup().append("x", 1L));
        }
        java.nio.file.Path fds = java.nio.file.Path.of("/proc/self/fd");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(fds));
        long before;
        try (var s = java.nio.file.Files.list(fds)) {
            before = s.count();
        }
        for (int i = 0; i < 200; i++) {
            readCut(file, new long[] {1 + i * 37L % (file.toFile().length() - 1)});
            assertThatThrownBy(() -> readCut(longs, new long[0])).isInstanceOf(java.io.UncheckedIOException.class)
                    .hasMessageContaining("cannot be read");
        }
        long after;
        try (var s = java.nio.file.Files.list(fds)) {
            after = s.count();
        }
        assertThat(after - before).as("descriptors left open by 600 reads").isLessThan(20);
    }

    /** One data page of {@link #pageByPage}: its values (null: a null) and the value count its header states. */
    private record Page(int stated, List<byte[]> values) {
        Page(List<byte[]> values) {
            this(values.size(), values);
        }
    }

    /** One row group of {@link #pageByPage}: the rows it claims, the value count its chunk states, its pages. */
    private record RowGroup(long rows, long stated, List<Page> pages) {
        /** A well-formed row group: its rows, its chunk's count and its pages' counts all agree. */
        static RowGroup of(List<Page> pages) {
            long values = pages.stream().mapToLong(Page::stated).sum();
            return new RowGroup(values, values, pages);
        }
    }

    /**
     * An optional binary column "x" written page by page with parquet-mr's low-level
     * {@link org.apache.parquet.hadoop.ParquetFileWriter} (v1 data pages, RLE definition levels, PLAIN
     * values, uncompressed, min/max and null counts kept), each count as given — so a row group can
     * claim more rows than its column chunk holds, which Parquet's own writers never write.
     */
    private static java.nio.file.Path pageByPage(java.nio.file.Path file, List<RowGroup> groups)
            throws java.io.IOException {
        java.nio.file.Files.createDirectories(file.getParent());
        MessageType schema = MessageTypeParser.parseMessageType("message m { optional binary x; }");
        org.apache.parquet.column.ColumnDescriptor x = schema.getColumns().get(0);
        var allocator = org.apache.parquet.bytes.HeapByteBufferAllocator.getInstance();
        var writer = new org.apache.parquet.hadoop.ParquetFileWriter(
                HadoopOutputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), HADOOP), schema,
                org.apache.parquet.hadoop.ParquetFileWriter.Mode.OVERWRITE, 1 << 20, 0,
                ParquetProperties.DEFAULT_COLUMN_INDEX_TRUNCATE_LENGTH,
                ParquetProperties.DEFAULT_STATISTICS_TRUNCATE_LENGTH, false);
        writer.start();
        for (RowGroup g : groups) {
            writer.startBlock(g.rows());
            writer.startColumn(x, g.stated(), CompressionCodecName.UNCOMPRESSED);
            for (Page page : g.pages()) {
                var levels = new org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesWriter(1, 64,
                        1 << 16, allocator);
                var plain = new org.apache.parquet.column.values.plain.PlainValuesWriter(64, 1 << 16, allocator);
                var stats = org.apache.parquet.column.statistics.Statistics.createStats(x.getPrimitiveType());
                for (byte[] v : page.values()) {
                    levels.writeInteger(v == null ? 0 : 1);
                    if (v == null) {
                        stats.incrementNumNulls();
                    } else {
                        plain.writeBytes(Binary.fromConstantByteArray(v));
                        stats.updateStats(Binary.fromConstantByteArray(v));
                    }
                }
                org.apache.parquet.bytes.BytesInput bytes = org.apache.parquet.bytes.BytesInput.concat(
                        levels.getBytes(), plain.getBytes());
                writer.writeDataPage(page.stated(), Math.toIntExact(bytes.size()), bytes, stats, page.stated(),
                        org.apache.parquet.column.Encoding.RLE, org.apache.parquet.column.Encoding.RLE,
                        org.apache.parquet.column.Encoding.PLAIN);
            }
            writer.endColumn();
            writer.endBlock();
        }
        writer.end(java.util.Map.of());
        return file;
    }

    /** {@code read} is {@code rows} in order, bit for bit (a row read with NaN in entry 0 as {@link #nanRow}). */
    private static void assertRows(List<double[]> read, double[][] rows) {
        assertThat(read).hasSize(rows.length);
        for (int i = 0; i < rows.length; i++) {
            assertThat(Double.isNaN(read.get(i)[0]) ? nanRow() : read.get(i)).as("row %d", i).containsExactly(rows[i]);
        }
    }

    /** The file's location as a source of the vector layout holding {@code n} rows. */
    private static ExternalSchema source(java.nio.file.Path file, long n) {
        return new ExternalSchema(file.getParent().toString(), ExternalSchema.Format.PARQUET,
                SparkTestData.columns(D), n, "x");
    }

    /**
     * A row group claiming more rows than its column chunk holds — its chunk's stated count below
     * the rows, or its pages below a chunk count equal to the rows (Parquet's reader refuses that),
     * or a page claiming more values than it encodes — fails the read as the file's storage error
     * (an UncheckedIOException over an IOException), never with null rows or parquet-mr's own
     * exception; a short chunk fails before any row of the split, the rows of a well-formed group
     * before it included. The same writer's well-formed files read bit for bit, and a chunk holding
     * more values than its group's rows reads the group's rows, as Spark's scan does.
     */
    @Test
    void aColumnChunkHoldingFewerValuesThanItsRowsIsAStorageError() throws Exception {
        List<byte[]> values = vectors(41, true, true);
        java.nio.file.Path root = dir.resolve("short");
        // Well-formed: 3 groups of 2 to 3 pages, nulls and other lengths among the values.
        List<RowGroup> good = List.of(
                RowGroup.of(List.of(new Page(values.subList(0, 7)), new Page(values.subList(7, 20)))),
                RowGroup.of(List.of(new Page(values.subList(20, 21)), new Page(values.subList(21, 30)),
                        new Page(values.subList(30, 44)))),
                RowGroup.of(List.of(new Page(values.subList(44, 50)), new Page(values.subList(50, 60)))));
        java.nio.file.Path wellFormed = pageByPage(root.resolve("good").resolve("g.parquet"), good);
        double[][] rows = expected(values);
        assertRows(readCut(wellFormed, new long[0]), rows);
        ExternalSchema goodSource = source(wellFormed, values.size());
        DataAccess.Gram expected = new SparkTestData.LocalExact(rows, D, B).gram(true);
        assertThat(batches(goodSource, true).gram()).as("Spark's scan of the same file")
                .containsExactly(expected.gram());
        assertThat(spark(goodSource, values.size()).gram(true).gram()).containsExactly(expected.gram());

        Page first = new Page(values.subList(0, 7));
        Page second = new Page(values.subList(7, 12));
        RowGroup whole = RowGroup.of(List.of(first, second));
        List<List<RowGroup>> corrupt = List.of(
                // The chunk states the 12 (or 7) values its pages hold, the group claims 13 (12) rows.
                List.of(whole, new RowGroup(13, 12, List.of(first, second))),
                List.of(new RowGroup(12, 7, List.of(first)), whole),
                // The chunk states 12 values as the group's rows, its pages hold 7.
                List.of(whole, new RowGroup(12, 12, List.of(first))),
                // A page stating 9 values encodes 3 (their levels padded to 8): found while decoding.
                List.of(whole, RowGroup.of(List.of(new Page(9, values.subList(0, 3))))));
        for (int k = 0; k < corrupt.size(); k++) {
            java.nio.file.Path file = pageByPage(root.resolve("bad" + k).resolve("b.parquet"), corrupt.get(k));
            List<double[]> before = new ArrayList<>();
            assertThatThrownBy(() -> ParquetVectors.read(HADOOP, new ParquetVectors.Split(file.toUri(), 0,
                    file.toFile().length()), "x", false, new double[D], r -> before.add(r.clone())))
                    .as("corrupt file %d", k).isInstanceOf(java.io.UncheckedIOException.class)
                    .hasMessageContaining("b.parquet cannot be read")
                    .cause().isInstanceOf(java.io.IOException.class);
            if (k < 2) { // the metadata shows it: no row of the split is read
                assertThat(before).as("rows before corrupt file %d failed", k).isEmpty();
            } else if (k == 2) { // the pages show it: no row of that group is read
                assertThat(before).as("rows before corrupt file %d failed", k).hasSize(12);
            }
        }
        // The row count and the value count in the message (the first corrupt file).
        java.nio.file.Path shortFile = root.resolve("bad0").resolve("b.parquet");
        assertThatThrownBy(() -> readCut(shortFile, new long[0])).cause()
                .hasMessageContaining("has 13 rows but its column x holds 12 values");

        // More values than rows: the group's first rows, the rest unread — as Spark's scan reads them.
        java.nio.file.Path longer = pageByPage(root.resolve("long").resolve("l.parquet"),
                List.of(whole, new RowGroup(9, 12, List.of(first, second)), RowGroup.of(List.of(second))));
        List<byte[]> kept = new ArrayList<>(values.subList(0, 12));
        kept.addAll(values.subList(0, 9));
        kept.addAll(values.subList(7, 12));
        double[][] keptRows = expected(kept);
        assertRows(readCut(longer, new long[0]), keptRows);
        ExternalSchema longSource = source(longer, kept.size());
        DataAccess.Gram keptGram = new SparkTestData.LocalExact(keptRows, D, B).gram(true);
        assertThat(batches(longSource, true).gram()).as("Spark's scan").containsExactly(keptGram.gram());
        assertThat(spark(longSource, kept.size()).gram(true).gram()).containsExactly(keptGram.gram());
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
