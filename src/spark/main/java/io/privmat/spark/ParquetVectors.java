package io.privmat.spark;

import io.privmat.mechanism.linalg.FixedPointGram;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.VersionParser;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.impl.ColumnReaderImpl;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopCodecs;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.datasources.FilePartition;
import org.apache.spark.sql.execution.datasources.FileScanRDD;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.util.SerializableConfiguration;
import org.jspecify.annotations.Nullable;

/**
 * The vector layout's binary column read with Parquet's own column reader instead of Spark SQL's
 * scan, for the Gram and the column sums (docs/scale-out.md, "Where a pass's time goes"): the same
 * files and the same splits as Spark's scan of the source — taken from that scan's own plan, so the
 * location checks and file listing are Spark's — each split reading the row groups whose midpoint
 * lies in it (as Spark's Parquet reader does: every row group of every file once, however split),
 * and each value's bytes copied from the decompressed page straight into the row's doubles, with no
 * copy into a columnar batch.
 *
 * <p>Rows as {@link PartitionStatistics#binary()} reads them: a null, or a value of another length
 * than 8·d bytes, makes the row NaN (the zero row once quantised), and it still counts. A file
 * without the column gives null rows, as Spark's scan does. The column is found in each file as
 * Spark finds it: by its exact name under {@code spark.sql.caseSensitive}, else by its name ignoring
 * case (two such fields fail the pass, as in Spark). A file whose column is not a binary (BINARY or
 * FIXED_LEN_BYTE_ARRAY, not repeated) fails the pass: Spark's scan fails there too — it depends on
 * the files' schemas, never on a value.
 *
 * <p>A row group whose column chunk holds fewer values than the group's rows (a corrupt file: its
 * metadata's value count below the row count) fails the pass before any row of the split is read,
 * where the direct read would otherwise give null rows or read past the pages (and where Spark 4.1's
 * own columnar scan was seen to spin without end); pages holding fewer values than that metadata
 * states, Parquet's reader refuses when it reads the row group. One holding more values than rows
 * gives the group's rows, its first values, the rest unread — as Spark's scan reads a row group's row
 * count. A
 * page that claims more values than it encodes is found only while decoding it, and fails the pass
 * then. Every failure of Parquet's decoding, whatever parquet-mr throws, is the same storage failure
 * (the owner's file; an {@link UncheckedIOException}): each depends on the file's structure, never
 * on a value in it.
 */
final class ParquetVectors {

    private ParquetVectors() {}

    /** One piece of a file Spark's scan planned: [start, start + length) of the file at {@code path}. */
    record Split(java.net.URI path, long start, long length) implements Serializable {}

    /** What a pass reads: Spark's planned splits, one element (a task's list) per Spark partition. */
    record Plan(JavaRDD<List<Split>> splits, Broadcast<SerializableConfiguration> conf, String column,
            boolean caseSensitive) {}

    /**
     * The splits of the source's Parquet scan when its physical plan is exactly a file scan of one
     * binary column (under nothing but whole-stage code generation and the conversion to rows), with
     * no partition columns and no filters; null otherwise (then the pass reads through Spark SQL).
     */
    static @Nullable Plan plan(SparkEngine.Source source) {
        StructType type = source.frame().schema();
        if (type.fields().length != 1 || !(type.fields()[0].dataType() instanceof BinaryType)) {
            return null;
        }
        if (!(SparkDataAccess.belowConversion(source, p -> p instanceof FileSourceScanExec)
                instanceof FileSourceScanExec scan)) {
            return null;
        }
        HadoopFsRelation relation = scan.relation();
        if (!(relation.fileFormat() instanceof ParquetFileFormat) || !relation.partitionSchema().isEmpty()
                || !scan.dataFilters().isEmpty() || !scan.partitionFilters().isEmpty() || scan.output().size() != 1
                || !(scan.output().head().dataType() instanceof BinaryType)
                || !(scan.inputRDD() instanceof FileScanRDD files)) {
            return null;
        }
        // One partition per planned FilePartition, with its preferred hosts (where most of its bytes
        // are, as Spark's own scan places its tasks): makeRDD keeps them, parallelize would not.
        List<scala.Tuple2<List<Split>, scala.collection.immutable.Seq<String>>> parts = new ArrayList<>();
        for (FilePartition p : scala.jdk.javaapi.CollectionConverters.asJava(files.filePartitions())) {
            List<Split> splits = new ArrayList<>();
            for (PartitionedFile f : p.files()) {
                splits.add(new Split(f.toPath().toUri(), f.start(), f.length()));
            }
            parts.add(new scala.Tuple2<>(splits, scala.jdk.javaapi.CollectionConverters.asScala(
                    java.util.Arrays.asList(p.preferredLocations())).toList()));
        }
        var session = (org.apache.spark.sql.classic.SparkSession) relation.sparkSession();
        Configuration conf = session.sessionState().newHadoopConfWithOptions(relation.options());
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(session.sparkContext());
        boolean caseSensitive = Boolean.parseBoolean(session.conf().get("spark.sql.caseSensitive", "false"));
        @SuppressWarnings({"unchecked", "rawtypes"})
        scala.reflect.ClassTag<List<Split>> tag = (scala.reflect.ClassTag) scala.reflect.ClassTag$.MODULE$.apply(List.class);
        JavaRDD<List<Split>> rdd = parts.isEmpty() ? sc.parallelize(new ArrayList<List<Split>>(), 1)
                : JavaRDD.fromRDD(session.sparkContext().makeRDD(
                        scala.jdk.javaapi.CollectionConverters.asScala(parts).toList(), tag), tag);
        return new Plan(rdd,
                sc.broadcast(new SerializableConfiguration(conf)), scan.output().head().name(), caseSensitive);
    }

    /** Receives each row of a split, as d doubles in a buffer reused for the next row. */
    interface Rows {
        void row(double[] values);
    }

    /** False: Parquet's own snappy codec (SparkGramBenchmark's comparison; nothing else sets it). */
    static volatile boolean heapSnappy = true;

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final PrimitiveConverter NO_CONVERTER = new PrimitiveConverter() {};

    /**
     * Reads the rows of one split into {@code row}, one call of {@code rows} per row: the row groups of
     * the file whose midpoint lies in the split. Returns how many rows.
     *
     * @throws UncheckedIOException when the file cannot be read (the owner's storage: also a row group
     *     whose column holds fewer values than its rows, or anything Parquet cannot decode), or its
     *     column is not a binary
     */
    static long read(Configuration conf, Split split, String column, boolean caseSensitive, double[] row,
            Rows rows) {
        Path path = new Path(split.path());
        int bytes = 8 * row.length;
        long count = 0;
        TaskContext task = TaskContext.get();
        try (ParquetFileReader reader = decoding(path, () -> ParquetFileReader.open(
                HadoopInputFile.fromPath(path, conf),
                HadoopReadOptions.builder(conf, path).withRange(split.start(), split.start() + split.length())
                        .withCodecFactory(heapSnappy ? heapSnappyCodecs(conf) : HadoopCodecs.newFactory(conf, 0))
                        .build()))) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            Type field = field(schema, column, caseSensitive, path);
            if (field == null) { // no such column in this file: null rows, as Spark's scan gives
                for (BlockMetaData block : reader.getRowGroups()) {
                    for (long r = 0; r < block.getRowCount(); r++) {
                        if ((r & 255) == 0 && task != null) {
                            task.killTaskIfInterrupted(); // as below: the rows still go through the kernel
                        }
                        row[0] = Double.NaN;
                        rows.row(row);
                        count++;
                    }
                }
                return count;
            }
            MessageType requested = new MessageType(schema.getName(), field);
            reader.setRequestedSchema(requested);
            ColumnDescriptor descriptor = requested.getColumns().get(0);
            requireValues(reader.getRowGroups(), descriptor, path);
            int defined = descriptor.getMaxDefinitionLevel();
            VersionParser.ParsedVersion version = version(reader.getFooter().getFileMetaData().getCreatedBy());
            PageReadStore pages;
            while ((pages = decoding(path, reader::readNextRowGroup)) != null) {
                PageReadStore group = pages;
                ColumnReaderImpl values = decoding(path,
                        () -> new ColumnReaderImpl(descriptor, group.getPageReader(descriptor), NO_CONVERTER, version));
                long inGroup = pages.getRowCount(); // the first inGroup values: Spark's scan reads no more
                for (long r = 0; r < inGroup; r++) {
                    if ((r & 255) == 0 && task != null) {
                        task.killTaskIfInterrupted(); // a cancelled pass stops, as Spark's scan does per batch
                    }
                    try {
                        if (values.getCurrentDefinitionLevel() == defined) {
                            copy(values.getBinary(), bytes, row);
                        } else {
                            row[0] = Double.NaN;
                        }
                        values.consume();
                    } catch (RuntimeException e) { // only Parquet's decoding throws here (copy cannot)
                        throw undecodable(path, e);
                    }
                    rows.row(row);
                    count++;
                }
            }
            return count;
        } catch (IOException e) {
            throw new UncheckedIOException("the Parquet file " + path.getName() + " cannot be read", e);
        }
    }

    /**
     * Fails unless every row group of the split holds at least as many values of the column as it has
     * rows (a column not repeated holds one value, null or not, per row): read from the footer, before
     * any row is. (Parquet's reader refuses a chunk whose pages hold fewer values than its metadata states.)
     */
    private static void requireValues(List<BlockMetaData> groups, ColumnDescriptor descriptor, Path path)
            throws IOException {
        ColumnPath columnPath = ColumnPath.get(descriptor.getPath());
        for (BlockMetaData group : groups) {
            long values = 0; // a row group without the column's chunk holds none
            for (ColumnChunkMetaData chunk : group.getColumns()) {
                if (chunk.getPath().equals(columnPath)) {
                    values = chunk.getValueCount();
                }
            }
            if (values < group.getRowCount()) {
                throw new IOException("the row group at byte " + group.getStartingPos() + " of " + path.getName()
                        + " has " + group.getRowCount() + " rows but its column " + columnPath.toDotString()
                        + " holds " + values + " values");
            }
        }
    }

    /** One of parquet-mr's steps (opening the file, reading a row group, starting a column's reader). */
    private interface Step<T> {
        T run() throws IOException;
    }

    /** The step's result; whatever unchecked exception parquet-mr throws in it, an IOException. */
    private static <T> T decoding(Path path, Step<T> step) throws IOException {
        try {
            return step.run();
        } catch (RuntimeException e) {
            throw undecodable(path, e);
        }
    }

    /** What parquet-mr threw reading the file (its own or another unchecked exception), as a storage failure. */
    private static IOException undecodable(Path path, RuntimeException e) {
        return new IOException("Parquet cannot decode " + path.getName() + " (" + e.getClass().getName() + ")", e);
    }

    /** Parquet's codecs with {@link HeapSnappy}. */
    static CompressionCodecFactory heapSnappyCodecs(Configuration conf) {
        return new HeapSnappy(HadoopCodecs.newFactory(conf, 0));
    }

    /**
     * Parquet's codecs, but a snappy page decompressed from the page's bytes straight into a new array
     * (Parquet's own snappy codec copies the page into a native buffer, decompresses into another and
     * copies that out). A page whose decompressed size is not the one its header states fails — the
     * owner's storage, not a value. (Parquet's codec fails on a shorter page too, but reads the first
     * bytes of a longer one; Parquet's writers never write either.)
     */
    private static final class HeapSnappy implements CompressionCodecFactory {
        private final CompressionCodecFactory parquet;

        HeapSnappy(CompressionCodecFactory parquet) {
            this.parquet = parquet;
        }

        @Override
        public BytesInputCompressor getCompressor(CompressionCodecName codec) {
            return parquet.getCompressor(codec);
        }

        @Override
        public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
            BytesInputDecompressor own = parquet.getDecompressor(codec);
            if (codec != CompressionCodecName.SNAPPY) {
                return own;
            }
            return new BytesInputDecompressor() {
                @Override
                public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
                    ByteBuffer in = bytes.toByteBuffer();
                    byte[] from;
                    int at;
                    if (in.hasArray()) {
                        from = in.array();
                        at = in.arrayOffset() + in.position();
                    } else {
                        from = new byte[in.remaining()];
                        in.duplicate().get(from);
                        at = 0;
                    }
                    int length = in.remaining();
                    if (org.xerial.snappy.Snappy.uncompressedLength(from, at, length) != uncompressedSize) {
                        throw new IOException("a snappy page of another size than its header states");
                    }
                    byte[] out = new byte[uncompressedSize];
                    org.xerial.snappy.Snappy.uncompress(from, at, length, out, 0);
                    return BytesInput.from(out);
                }

                @Override
                public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                        throws IOException {
                    own.decompress(input, compressedSize, output, uncompressedSize);
                }

                @Override
                public void release() {
                    own.release();
                }
            };
        }

        @Override
        public void release() {
            parquet.release();
        }
    }

    /** The value's bytes as little-endian doubles into {@code row}; another length: NaN. */
    private static void copy(Binary value, int bytes, double[] row) {
        if (value.length() != bytes) {
            row[0] = Double.NaN;
            return;
        }
        ByteBuffer b = value.toByteBuffer(); // a view of the decompressed page, no copy
        if (LITTLE_ENDIAN && b.hasArray()) {
            Platform.copyMemory(b.array(), Platform.BYTE_ARRAY_OFFSET + b.arrayOffset() + b.position(), row,
                    Platform.DOUBLE_ARRAY_OFFSET, bytes);
        } else {
            b.order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(row, 0, row.length);
        }
    }

    /**
     * The file's top-level field of that name, as Spark resolves it: the exact name when case matters,
     * else the one field equal to it ignoring case; null when there is none.
     */
    private static @Nullable Type field(MessageType schema, String column, boolean caseSensitive, Path path)
            throws IOException {
        Type found = null;
        for (Type f : schema.getFields()) {
            boolean same = caseSensitive ? f.getName().equals(column)
                    : f.getName().toLowerCase(Locale.ROOT).equals(column.toLowerCase(Locale.ROOT));
            if (same) {
                if (found != null) {
                    throw new IOException("two fields named [" + column + "] ignoring case in " + path.getName());
                }
                found = f;
            }
        }
        if (found != null && (!found.isPrimitive() || found.isRepetition(Type.Repetition.REPEATED)
                || (found.asPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BINARY
                        && found.asPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY))) {
            throw new IOException("the vector column is not a binary in " + path.getName());
        }
        return found;
    }

    private static VersionParser.@Nullable ParsedVersion version(@Nullable String createdBy) {
        try {
            return createdBy == null ? null : VersionParser.parse(createdBy);
        } catch (VersionParser.VersionParseException | RuntimeException e) {
            return null; // as Parquet's own readers: no writer version known
        }
    }

    /** {@link PartitionStatistics.Sums} over one task's splits read by {@link #read}: the same integers. */
    static final class Sums implements FlatMapFunction<Iterator<List<Split>>, FixedPointGram.State> {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final double bound;
        private final boolean withGram;
        private final Broadcast<SerializableConfiguration> conf;
        private final String column;
        private final boolean caseSensitive;

        Sums(int d, double bound, boolean withGram, Plan plan) {
            this.d = d;
            this.bound = bound;
            this.withGram = withGram;
            this.conf = plan.conf();
            this.column = plan.column();
            this.caseSensitive = plan.caseSensitive();
        }

        @Override
        public Iterator<FixedPointGram.State> call(Iterator<List<Split>> parts) {
            Configuration c = conf.value().value();
            return PartitionStatistics.exactSums(d, bound, withGram, (g, row) -> {
                while (parts.hasNext()) {
                    for (Split s : parts.next()) {
                        read(c, s, column, caseSensitive, row, values -> g.add(values, 0));
                    }
                }
            });
        }
    }
}
