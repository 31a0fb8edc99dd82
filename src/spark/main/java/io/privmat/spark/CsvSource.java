package io.privmat.spark;

import io.privmat.dataset.Decimals;
import io.privmat.dataset.ExternalSchema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.BZip2Codec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.jspecify.annotations.Nullable;

/**
 * EXTERNAL CSV, read so that no line's content can fail a pass (docs/scale-out.md, "CSV"). Spark's
 * own CSV reader cannot promise that: its parser fails on a line of more than 20 480 fields, and
 * Hadoop's line reader fails on a line longer than 2 GiB (a few MB of a compressed file) or, told to
 * skip long lines, cuts one that crosses a split boundary into rows. Here every line is read as a
 * stream of bytes, in a fixed buffer, whatever its length:
 *
 * <ul>
 *   <li><b>A line is what lies between two {@code \n}</b> (a {@code \r} right before one, or
 *       before the end of the file, is dropped; the last line needs no {@code \n}). Every line after
 *       a file's first (its header) is one row, a blank one included, so what counts as a row
 *       depends on where the newlines are and on nothing else. The privacy unit is therefore a
 *       line: a value written with a newline inside quotes (as RFC 4180 writers do) is read as
 *       several rows, so data with such values belongs in Parquet (docs/scale-out.md).
 *   <li><b>Splits own the lines that start in them.</b> A split [s, e) of an uncompressed file reads
 *       each line whose first byte is at an offset in [s, e), to its real end, wherever that is;
 *       a split with s &gt; 0 first skips to just after the first {@code \n} at or after s − 1. So
 *       every line is read exactly once, whole, however the file is split. A compressed file (gzip,
 *       bzip2 or deflate, by its suffix; other codecs are refused) is one split.
 *   <li><b>Fields</b> are separated by {@code ,}; a field starting with {@code "} is quoted (a
 *       comma inside it is content; {@code ""} and {@code \"} stand for {@code "}); a quoted field
 *       does not continue past its line. Only the declared columns are kept, each up to
 *       {@value #MAX_FIELD_BYTES} bytes: a longer one, an empty one, or one the line does not reach
 *       is null (missing). For a matrix each kept field is read as a double at once (null when it is
 *       not a number), so a row holds 8·d bytes whatever its line holds, and its row becomes the zero
 *       row; for ratings the three fields stay strings and the triple is dropped. The other fields,
 *       however many and however long, are skipped without being held.
 *   <li><b>Each file's header</b> (its first line, after a UTF-8 byte-order mark) names its columns;
 *       the declared ones are found by name in every file separately: the field of that exact name,
 *       or else the one equal to it ignoring case, as Spark resolves names. The declaration is
 *       refused when a file's header lacks one or names one twice ignoring case ({@link #check}); a
 *       file changed since then gives null for what its header no longer names (an exact name first),
 *       and nothing fails.
 * </ul>
 *
 * <p>Memory per task is one 64 KiB buffer, one field buffer and the current row; nothing depends on
 * a line's length but the time to read it. A failure of the file system itself (an unreadable or
 * vanished file, a corrupt compressed stream) still fails a pass: it depends on the owner's storage,
 * not on a row.
 */
final class CsvSource {

    /** Longest kept field, in bytes (a declared name or label is at most 200 characters). */
    static final int MAX_FIELD_BYTES = 4096;
    /** The declared columns, for the record readers (each Base64 of its UTF-8, comma-separated). */
    static final String COLUMNS = "privmat.csv.columns";
    /** Whether the declared fields are read as doubles (a matrix) or kept as strings (ratings). */
    static final String NUMERIC = "privmat.csv.numeric";

    private CsvSource() {}

    /**
     * The declared columns of every line of the location, named as declared, one row per line: for a
     * matrix nullable doubles (a field that is not a number is null, so the row becomes the zero row:
     * a row holds 8·d bytes whatever its line holds), for ratings nullable strings (Spark casts them:
     * the keys and the rating).
     */
    static org.apache.spark.sql.Dataset<Row> frame(SparkSession session, ExternalSchema schema) throws IOException {
        JavaRDD<Row> rows = lines(session, schema).map(RowFactory::create);
        List<StructField> fields = new ArrayList<>();
        for (String c : schema.columns()) {
            fields.add(DataTypes.createStructField(c, numeric(schema) ? DataTypes.DoubleType : DataTypes.StringType,
                    true));
        }
        return session.createDataFrame(rows, new StructType(fields.toArray(StructField[]::new)));
    }

    /**
     * A matrix's rows as a pass reads them: d nullable doubles per line, as Spark's internal rows,
     * without Spark SQL's conversion of each row (what {@link #frame} holds, read directly).
     */
    static JavaRDD<InternalRow> internalRows(SparkSession session, ExternalSchema schema) throws IOException {
        if (!numeric(schema)) {
            throw new IllegalStateException("ratings are read as strings, through frame");
        }
        return lines(session, schema).map(GenericInternalRow::new);
    }

    /** Each line's declared fields: Doubles (a matrix) or Strings (ratings), null where missing. */
    private static JavaRDD<Object[]> lines(SparkSession session, ExternalSchema schema) throws IOException {
        Job job = job(session.sparkContext().hadoopConfiguration(), schema);
        return JavaSparkContext.fromSparkContext(session.sparkContext())
                .newAPIHadoopRDD(job.getConfiguration(), Format.class, LongWritable.class, Object[].class).values();
    }

    /**
     * At declaration, before any row is read: every file of the location has a header naming every
     * declared column. Returns the first file's header names (at most 100, for messages).
     *
     * @throws IllegalArgumentException naming the file and the column otherwise, or when the location
     *     holds no file or cannot be listed or read
     */
    static List<String> check(Configuration hadoop, ExternalSchema schema) {
        List<FileStatus> files;
        Job job;
        try {
            job = job(hadoop, schema);
            files = new Format().files(job);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("the location cannot be read as CSV: " + e.getMessage());
        }
        List<String> first = null;
        for (FileStatus f : files) {
            Header header = new Header(schema.columns(), 100);
            try (Opened in = open(job.getConfiguration(), f.getPath())) {
                if (!line(in.input, header)) {
                    continue; // an empty file: no header, no row
                }
            } catch (IOException | RuntimeException e) { // a codec's own failure is unchecked
                throw new IllegalArgumentException("the CSV file " + f.getPath().getName() + " cannot be read: "
                        + e.getMessage());
            }
            String twice = header.ambiguous();
            if (twice != null) {
                throw new IllegalArgumentException("the header of the CSV file " + f.getPath().getName()
                        + " has two columns named [" + twice + "] ignoring case");
            }
            for (int c = 0; c < header.positions.length; c++) {
                if (header.positions[c] < 0) {
                    throw new IllegalArgumentException("the header of the CSV file " + f.getPath().getName()
                            + " has no column [" + schema.columns().get(c) + "]; it has " + header.names
                            + (header.names.size() == 100 ? " …" : ""));
                }
            }
            if (first == null) {
                first = header.names;
            }
        }
        if (first == null) {
            throw new IllegalArgumentException("the location holds no CSV file with a header line");
        }
        return first;
    }

    static Job job(Configuration hadoop, ExternalSchema schema) throws IOException {
        Configuration conf = new Configuration(hadoop);
        StringBuilder columns = new StringBuilder();
        for (String c : schema.columns()) {
            columns.append(columns.isEmpty() ? "" : ",")
                    .append(Base64.getEncoder().encodeToString(c.getBytes(StandardCharsets.UTF_8)));
        }
        conf.set(COLUMNS, columns.toString());
        conf.setBoolean(NUMERIC, numeric(schema));
        Job job = Job.getInstance(conf);
        // One Path, not FileInputFormat's comma-separated list: a comma in the location is a character.
        FileInputFormat.setInputPaths(job, new Path(schema.location()));
        return job;
    }

    private static boolean numeric(ExternalSchema schema) {
        return schema.ratings() == null;
    }

    static List<String> columns(Configuration conf) {
        String encoded = conf.get(COLUMNS, "");
        List<String> columns = new ArrayList<>();
        for (String c : encoded.split(",", -1)) {
            columns.add(new String(Base64.getDecoder().decode(c), StandardCharsets.UTF_8));
        }
        return columns;
    }

    /** A file's bytes, decompressed when its name says so; closes what it opened. */
    private static final class Opened implements AutoCloseable {
        final Input input;
        private final InputStream stream;
        private final @Nullable Decompressor decompressor;

        Opened(InputStream stream, Input input, @Nullable Decompressor decompressor) {
            this.stream = stream;
            this.input = input;
            this.decompressor = decompressor;
        }

        @Override
        public void close() throws IOException {
            try {
                stream.close();
            } finally {
                if (decompressor != null) {
                    CodecPool.returnDecompressor(decompressor);
                }
            }
        }
    }

    /** The compressions read (Java's own, no native library): by the file's suffix. */
    private static final List<Class<?>> CODECS = List.of(GzipCodec.class, BZip2Codec.class, DefaultCodec.class);

    private static Opened open(Configuration conf, Path path) throws IOException {
        FileSystem fs = path.getFileSystem(conf);
        CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(path);
        if (codec != null && !CODECS.contains(codec.getClass())) {
            throw new IOException("compressed as " + codec.getDefaultExtension() + "; only .gz, .bz2 and .deflate "
                    + "files are read");
        }
        FSDataInputStream raw = fs.open(path);
        if (codec == null) {
            return new Opened(raw, new Input(raw, 0), null);
        }
        Decompressor decompressor = CodecPool.getDecompressor(codec);
        try {
            InputStream in = codec.createInputStream(raw, decompressor);
            return new Opened(in, new Input(in, 0), decompressor);
        } catch (IOException | RuntimeException e) {
            CodecPool.returnDecompressor(decompressor);
            raw.close();
            throw e;
        }
    }

    /** The splits and record readers: the files of the location (no directories, no hidden files). */
    public static final class Format extends FileInputFormat<LongWritable, Object[]> {

        List<FileStatus> files(JobContext job) throws IOException {
            return listStatus(job);
        }

        @Override
        protected List<FileStatus> listStatus(JobContext job) throws IOException {
            // FileInputFormat already leaves out names starting with _ or . (_SUCCESS, .crc files).
            List<FileStatus> files = new ArrayList<>();
            for (FileStatus f : super.listStatus(job)) {
                if (!f.isDirectory()) {
                    files.add(f);
                }
            }
            files.sort((a, b) -> a.getPath().toString().compareTo(b.getPath().toString()));
            return files;
        }

        @Override
        protected boolean isSplitable(JobContext context, Path file) {
            return new CompressionCodecFactory(context.getConfiguration()).getCodec(file) == null;
        }

        @Override
        public RecordReader<LongWritable, Object[]> createRecordReader(InputSplit split, TaskAttemptContext context) {
            return new Reader();
        }
    }

    /** One split's lines: see the class comment for which lines a split owns. */
    static final class Reader extends RecordReader<LongWritable, Object[]> {
        private @Nullable Opened opened;
        private @Nullable Values values;
        private long start;
        private long end;
        private final LongWritable key = new LongWritable();
        private Object @Nullable [] value;

        @Override
        public void initialize(InputSplit genericSplit, TaskAttemptContext context) throws IOException {
            FileSplit split = (FileSplit) genericSplit;
            Configuration conf = context.getConfiguration();
            Path path = split.getPath();
            List<String> columns = columns(conf);
            Header header = new Header(columns, 0);
            start = split.getStart();
            boolean compressed = new CompressionCodecFactory(conf).getCodec(path) != null;
            if (compressed || start == 0) {
                opened = open(conf, path);
                line(opened.input, header);
                start = 0;
                end = compressed ? Long.MAX_VALUE : split.getStart() + split.getLength();
            } else {
                try (Opened h = open(conf, path)) {
                    line(h.input, header);
                }
                FSDataInputStream raw = path.getFileSystem(conf).open(path);
                raw.seek(start - 1);
                Input input = new Input(raw, start - 1);
                opened = new Opened(raw, input, null);
                input.skipLine();
                end = start + split.getLength();
            }
            values = new Values(header.positions, conf.getBoolean(NUMERIC, true));
        }

        @Override
        public boolean nextKeyValue() throws IOException {
            Opened o = opened;
            Values v = values;
            if (o == null || v == null || o.input.position() >= end) {
                return false;
            }
            long at = o.input.position();
            v.reset();
            if (!line(o.input, v)) {
                return false;
            }
            key.set(at);
            value = v.take();
            return true;
        }

        @Override
        public LongWritable getCurrentKey() {
            return key;
        }

        @Override
        public Object[] getCurrentValue() {
            if (value == null) {
                throw new IllegalStateException("no current line");
            }
            return value;
        }

        @Override
        public float getProgress() {
            Opened o = opened;
            if (o == null || end == Long.MAX_VALUE || end <= start) {
                return 0f;
            }
            return Math.min(1f, (o.input.position() - start) / (float) (end - start));
        }

        @Override
        public void close() throws IOException {
            if (opened != null) {
                opened.close();
                opened = null;
            }
        }
    }

    /** Bytes from a stream through one fixed buffer, counting the offset of the next byte. */
    static final class Input {
        private final InputStream in;
        private final byte[] buffer = new byte[1 << 16];
        /** One kept field of the current line. */
        final byte[] field = new byte[MAX_FIELD_BYTES];
        private int length;
        private int next;
        private long position;

        Input(InputStream in, long position) {
            this.in = in;
            this.position = position;
        }

        long position() {
            return position;
        }

        /** The next byte (0–255), or −1 at the end. */
        int read() throws IOException {
            if (next == length && !fill()) {
                return -1;
            }
            position++;
            return buffer[next++] & 0xff;
        }

        /** The next byte without taking it, or −1 at the end. */
        int peek() throws IOException {
            if (next == length && !fill()) {
                return -1;
            }
            return buffer[next] & 0xff;
        }

        /** Takes bytes up to and including the next {@code \n} (or to the end). */
        void skipLine() throws IOException {
            while (true) {
                if (next == length && !fill()) {
                    return;
                }
                for (int i = next; i < length; i++) {
                    if (buffer[i] == '\n') {
                        position += i + 1 - next;
                        next = i + 1;
                        return;
                    }
                }
                position += length - next;
                next = length;
            }
        }

        private boolean fill() throws IOException {
            int n;
            do {
                n = in.read(buffer, 0, buffer.length);
            } while (n == 0);
            if (n < 0) {
                length = 0;
                next = 0;
                return false;
            }
            length = n;
            next = 0;
            return true;
        }

        /** Takes a UTF-8 byte-order mark at the start of a file (however the stream hands out its bytes). */
        void skipByteOrderMark() throws IOException {
            if (position == 0 && buffered(3) && (buffer[next] & 0xff) == 0xEF && (buffer[next + 1] & 0xff) == 0xBB
                    && (buffer[next + 2] & 0xff) == 0xBF) {
                next += 3;
                position += 3;
            }
        }

        /** Whether at least k bytes are buffered, reading more when needed (false: the stream ended first). */
        private boolean buffered(int k) throws IOException {
            if (length - next >= k) {
                return true;
            }
            System.arraycopy(buffer, next, buffer, 0, length - next);
            length -= next;
            next = 0;
            while (length < k) {
                int n = in.read(buffer, length, buffer.length - length);
                if (n < 0) {
                    return false;
                }
                length += n;
            }
            return true;
        }
    }

    /** What a line's fields go to. Field indices only grow within a line. */
    interface Fields {
        /** Whether field {@code index} of the current line is kept. */
        boolean wants(long index);

        /** A kept field: {@code length} bytes of {@code bytes}, or {@code complete} false when it was too long. */
        void field(long index, byte[] bytes, int length, boolean complete);
    }

    private static final int START = 0;
    private static final int UNQUOTED = 1;
    private static final int QUOTED = 2;
    private static final int QUOTE_IN_QUOTED = 3;
    private static final int ESCAPED = 4;

    /**
     * Reads one line (to its {@code \n} or the end) and hands its kept fields to {@code fields}.
     * Returns false, having read nothing, at the end of the input. Never throws because of the bytes.
     */
    static boolean line(Input in, Fields fields) throws IOException {
        if (in.position() == 0) {
            in.skipByteOrderMark();
        }
        int b = in.read();
        if (b < 0) {
            return false;
        }
        byte[] field = in.field;
        long index = 0;
        boolean kept = fields.wants(0);
        int length = 0;
        boolean complete = true;
        int state = START;
        while (true) {
            if (b == '\r') {
                int after = in.peek();
                if (after == '\n' || after < 0) { // a \r ending a line or the file is no content
                    b = in.read();
                }
            }
            if (b < 0 || b == '\n') {
                if (kept) {
                    fields.field(index, field, length, complete);
                }
                return true;
            }
            boolean keep = true;
            boolean endField = false;
            switch (state) {
                case START -> {
                    if (b == '"') {
                        state = QUOTED;
                        keep = false;
                    } else if (b == ',') {
                        endField = true;
                    } else {
                        state = UNQUOTED;
                    }
                }
                case UNQUOTED -> endField = b == ',';
                case QUOTED -> {
                    if (b == '"') {
                        state = QUOTE_IN_QUOTED;
                        keep = false;
                    } else if (b == '\\') {
                        state = ESCAPED;
                        keep = false;
                    }
                }
                case ESCAPED -> state = QUOTED;
                default -> { // QUOTE_IN_QUOTED: "" is a quote, a comma ends the field, anything else is content
                    if (b == '"') {
                        state = QUOTED;
                    } else if (b == ',') {
                        endField = true;
                    } else {
                        state = UNQUOTED;
                    }
                }
            }
            if (endField) {
                if (kept) {
                    fields.field(index, field, length, complete);
                }
                index = index == Long.MAX_VALUE ? index : index + 1;
                kept = fields.wants(index);
                length = 0;
                complete = true;
                state = START;
            } else if (keep && kept) {
                if (length < field.length) {
                    field[length++] = (byte) b;
                } else {
                    complete = false;
                }
            }
            b = in.read();
        }
    }

    /**
     * A field as a double, as Spark's cast from a string reads it (surrounding blanks ignored; Java's
     * decimal and hexadecimal forms), or null when it is none. A plain decimal goes through the upload
     * parser's exact reading ({@link Decimals}, the same bits as {@link Double#parseDouble}), anything
     * else through {@code parseDouble} itself. Non-finite values come back as they are (the row
     * becomes the zero row either way).
     */
    static @Nullable Double number(byte[] bytes, int length) {
        double fast = Decimals.parse(bytes, 0, length);
        if (!Double.isNaN(fast)) {
            return fast;
        }
        try {
            return Double.parseDouble(new String(bytes, 0, length, StandardCharsets.ISO_8859_1));
        } catch (NumberFormatException e) { // not a number: a missing value, never a failure
            return null;
        }
    }

    /**
     * A header line: the position of each declared column, and (for messages) the first names. A
     * declared name matches a field of the same name, or else the first equal to it ignoring case (as
     * Spark resolves a name); two fields equal to it ignoring case make it {@link #ambiguous}.
     */
    static final class Header implements Fields {
        final long[] positions;
        final List<String> names = new ArrayList<>();
        private final List<String> columns;
        private final long[] exact;
        private final int[] matches;
        private final Map<String, Integer> declared = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        private final int keepNames;

        Header(List<String> columns, int keepNames) {
            this.columns = columns;
            positions = new long[columns.size()];
            exact = new long[columns.size()];
            matches = new int[columns.size()];
            Arrays.fill(positions, -1);
            Arrays.fill(exact, -1);
            for (int c = 0; c < columns.size(); c++) {
                declared.putIfAbsent(columns.get(c), c);
            }
            this.keepNames = keepNames;
        }

        /** The first declared column that two header fields name ignoring case, or null. */
        @Nullable String ambiguous() {
            for (int c = 0; c < matches.length; c++) {
                if (matches[c] > 1) {
                    return columns.get(c);
                }
            }
            return null;
        }

        @Override
        public boolean wants(long index) {
            return true;
        }

        @Override
        public void field(long index, byte[] bytes, int length, boolean complete) {
            if (!complete) {
                return; // longer than any declared name
            }
            String name = new String(bytes, 0, length, StandardCharsets.UTF_8);
            if (names.size() < keepNames) {
                names.add(name);
            }
            Integer c = declared.get(name);
            if (c != null) {
                matches[c]++;
                if (positions[c] < 0 || exact[c] < 0 && name.equals(columns.get(c))) {
                    positions[c] = index;
                }
                if (exact[c] < 0 && name.equals(columns.get(c))) {
                    exact[c] = index;
                }
            }
        }
    }

    /** A data line's declared fields, in declared order: doubles (null when not a number) or strings. */
    static final class Values implements Fields {
        /** Field positions in increasing order, and the declared column each fills. */
        private final long[] sorted;
        private final int[] column;
        private final int d;
        private final boolean numeric;
        private int cursor;
        private Object @Nullable [] out;

        Values(long[] positions, boolean numeric) {
            d = positions.length;
            this.numeric = numeric;
            Integer[] order = new Integer[d];
            for (int c = 0; c < d; c++) {
                order[c] = c;
            }
            Arrays.sort(order, (a, b) -> Long.compare(positions[a], positions[b]));
            int found = 0;
            for (int c : order) {
                if (positions[c] >= 0) {
                    found++;
                }
            }
            sorted = new long[found];
            column = new int[found];
            int k = 0;
            for (int c : order) {
                if (positions[c] >= 0) {
                    sorted[k] = positions[c];
                    column[k++] = c;
                }
            }
        }

        void reset() {
            cursor = 0;
            out = new Object[d];
        }

        Object[] take() {
            Object[] taken = out == null ? new Object[d] : out;
            out = null;
            return taken;
        }

        @Override
        public boolean wants(long index) {
            while (cursor < sorted.length && sorted[cursor] < index) {
                cursor++;
            }
            return cursor < sorted.length && sorted[cursor] == index;
        }

        @Override
        public void field(long index, byte[] bytes, int length, boolean complete) {
            if (complete && length > 0 && out != null) {
                out[column[cursor]] = numeric ? number(bytes, length)
                        : new String(bytes, 0, length, StandardCharsets.UTF_8);
            }
        }
    }
}
