package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;

/**
 * EXTERNAL CSV: every line is one row, read whole and once however the file is split, and no line's
 * content — more fields than Spark's parser allows, a field or a line megabytes long, stray quotes
 * and carriage returns — fails a pass or becomes more than its one row (docs/scale-out.md, "CSV").
 */
class SparkCsvTest {

    private static final String WIDE = ",".repeat(30_000);

    /** A line and the declared columns (c, a) it gives. */
    private record Line(String text, String... expected) {}

    /** Lines a reader could get wrong, each with what it must give; the header is "a,b,c". */
    private static final List<Line> TRICKY = List.of(
            new Line("1,2,3", "3", "1"),
            new Line("\"4,5\",6,7", "7", "4,5"),
            new Line("\"a\"\"b\",x,\"c\\\"d\"", "c\"d", "a\"b"),
            new Line("8,9,10\r", "10", "8"),
            new Line("", null, null),
            new Line("x\ry,z,w", "w", "x\ry"),
            new Line("11,12", null, "11"),
            new Line("\"13,14,15", null, "13,14,15"),
            new Line("\"\",,16", "16", null),
            new Line("é,ü,ß", "ß", "é"),
            new Line("17,18,19,20,21", "19", "17"));

    private static String text(String header, List<Line> lines, boolean lastNewline) {
        StringBuilder b = new StringBuilder(header).append('\n');
        for (int i = 0; i < lines.size(); i++) {
            b.append(lines.get(i).text());
            if (i < lines.size() - 1 || lastNewline) {
                b.append('\n');
            }
        }
        return b.toString();
    }

    private static List<List<Object>> expected(List<Line> lines) {
        List<List<Object>> out = new ArrayList<>();
        for (Line l : lines) {
            out.add(Arrays.asList(l.expected()));
        }
        return out;
    }

    private static Path folder(String name) throws Exception {
        Path dir = SparkTestData.tempDir().resolve(name);
        Files.createDirectories(dir);
        return dir;
    }

    /**
     * Every split's records through the record reader, in file-offset order, and the number of splits;
     * the fields as strings (as for ratings), to see what the parser kept.
     */
    private static List<List<Object>> read(String location, List<String> columns, long maxSplit, int[] splits)
            throws Exception {
        return read(location, columns, maxSplit, splits, false);
    }

    private static List<List<Object>> read(String location, List<String> columns, long maxSplit, int[] splits,
            boolean numeric) throws Exception {
        ExternalSchema schema = new ExternalSchema(location, ExternalSchema.Format.CSV, columns, null);
        Job job = CsvSource.job(new Configuration(), schema);
        job.getConfiguration().setBoolean(CsvSource.NUMERIC, numeric);
        job.getConfiguration().setLong(FileInputFormat.SPLIT_MAXSIZE, maxSplit);
        job.getConfiguration().setLong(FileInputFormat.SPLIT_MINSIZE, 1);
        CsvSource.Format format = new CsvSource.Format();
        List<InputSplit> all = format.getSplits(job);
        splits[0] = all.size();
        TreeMap<String, List<Object>> byPosition = new TreeMap<>();
        for (InputSplit split : all) {
            TaskAttemptContext context = new TaskAttemptContextImpl(job.getConfiguration(), new TaskAttemptID());
            try (RecordReader<org.apache.hadoop.io.LongWritable, Object[]> reader =
                    format.createRecordReader(split, context)) {
                reader.initialize(split, context);
                while (reader.nextKeyValue()) {
                    String key = ((org.apache.hadoop.mapreduce.lib.input.FileSplit) split).getPath() + "@"
                            + String.format("%020d", reader.getCurrentKey().get());
                    List<Object> previous = byPosition.put(key, Arrays.asList(reader.getCurrentValue()));
                    assertThat(previous).as("a line read twice: " + key).isNull();
                }
            }
        }
        return new ArrayList<>(byPosition.values());
    }

    @Test
    void everyLineIsOneRowReadOnceWholeHoweverTheFileIsSplit() throws Exception {
        Path dir = folder("csv-split");
        Files.writeString(dir.resolve("part-0.csv"), text("a,b,c", TRICKY, false), StandardCharsets.UTF_8);
        List<List<Object>> expected = expected(TRICKY);
        int[] splits = new int[1];
        for (long maxSplit : new long[] {1, 2, 3, 5, 8, 13, 21, 34, 55, 1 << 20}) {
            assertThat(read(dir.toString(), List.of("c", "a"), maxSplit, splits)).as("splits of " + maxSplit + " bytes")
                    .isEqualTo(expected);
        }
        read(dir.toString(), List.of("c", "a"), 3, splits);
        assertThat(splits[0]).isGreaterThan(30); // ≈ 110 bytes in splits of 3
    }

    @Test
    void linesAndFieldsOfAnyLengthGiveTheirOneRowAndNothingFails() throws Exception {
        List<Line> lines = new ArrayList<>(TRICKY);
        lines.add(new Line("22,23,24" + WIDE, "24", "22")); // more fields than Spark's parser allows
        lines.add(new Line("25,26," + "9".repeat(100_000), null, "25")); // a declared field too long to keep
        lines.add(new Line("27," + "q".repeat(3_000_000) + ",28", "28", "27")); // a 3 MB field skipped
        // a quoted field of 10⁶ escaped backslashes to the line's end: longer than a kept field
        lines.add(new Line("\"" + "\\".repeat(2_000_001), null, null));
        lines.add(new Line("29,30,31", "31", "29"));
        Path dir = folder("csv-long");
        Files.writeString(dir.resolve("part-0.csv"), text("a,b,c", lines, true), StandardCharsets.UTF_8);
        List<List<Object>> expected = expected(lines);
        int[] splits = new int[1];
        for (long maxSplit : new long[] {4_099, 65_536, 1 << 20, Long.MAX_VALUE}) {
            assertThat(read(dir.toString(), List.of("c", "a"), maxSplit, splits)).as("splits of " + maxSplit + " bytes")
                    .isEqualTo(expected);
        }
    }

    @Test
    void aCompressedFileIsOneSplitAndReadsTheSameRows() throws Exception {
        List<Line> lines = new ArrayList<>(TRICKY);
        lines.add(new Line("22,23,24" + WIDE, "24", "22"));
        Path dir = folder("csv-gzip");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(text("a,b,c", lines, true).getBytes(StandardCharsets.UTF_8));
        }
        Files.write(dir.resolve("part-0.csv.gz"), bytes.toByteArray());
        int[] splits = new int[1];
        assertThat(read(dir.toString(), List.of("c", "a"), 7, splits)).isEqualTo(expected(lines));
        assertThat(splits[0]).isEqualTo(1);
    }

    @Test
    void eachFileFindsTheDeclaredColumnsInItsOwnHeaderAndHiddenFilesAreNotRead() throws Exception {
        Path dir = folder("csv-headers");
        Files.writeString(dir.resolve("part-0.csv"), "a,b,c\n1,2,3\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("part-1.csv"), "\uFEFFC,x,a,y\n4,5,6,7\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("part-2.csv"), "", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("_SUCCESS"), "not,a,row\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(".part-0.csv.crc"), "c,a\n99,99\n", StandardCharsets.UTF_8);
        Files.createDirectories(dir.resolve("nested"));
        Files.writeString(dir.resolve("nested").resolve("part-9.csv"), "c,a\n98,98\n", StandardCharsets.UTF_8);
        int[] splits = new int[1];
        assertThat(read(dir.toString(), List.of("c", "a"), Long.MAX_VALUE, splits))
                .containsExactly(List.of("3", "1"), List.of("4", "6"));
        ExternalSchema schema = new ExternalSchema(dir.toString(), ExternalSchema.Format.CSV, List.of("c", "a"), null);
        assertThat(CsvSource.check(new Configuration(), schema)).containsExactly("a", "b", "c");
    }

    @Test
    void anExactNameWinsOverOneEqualIgnoringCaseAndTwoSuchNamesAreRefused() throws Exception {
        Path dir = folder("csv-case");
        Files.writeString(dir.resolve("part-0.csv"), "A,a,B\n1,2,3\n", StandardCharsets.UTF_8);
        int[] splits = new int[1];
        assertThat(read(dir.toString(), List.of("a", "b"), Long.MAX_VALUE, splits))
                .containsExactly(List.of("2", "3"));
        ExternalSchema schema = new ExternalSchema(dir.toString(), ExternalSchema.Format.CSV, List.of("a"), null);
        assertThatThrownBy(() -> CsvSource.check(new Configuration(), schema))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two columns named [a]");
    }

    @Test
    void theDeclarationIsRefusedWhenAFileHeaderLacksAColumnOrNoFileHasOne() throws Exception {
        Path dir = folder("csv-refused");
        Files.writeString(dir.resolve("part-0.csv"), "a,b,c\n1,2,3\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("part-1.csv"), "a,b\n1,2\n", StandardCharsets.UTF_8);
        ExternalSchema lacking = new ExternalSchema(dir.toString(), ExternalSchema.Format.CSV, List.of("c", "a"), null);
        assertThatThrownBy(() -> CsvSource.check(new Configuration(), lacking))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("part-1.csv")
                .hasMessageContaining("[c]");
        Path empty = folder("csv-empty");
        Files.writeString(empty.resolve("part-0.csv"), "", StandardCharsets.UTF_8);
        ExternalSchema none = new ExternalSchema(empty.toString(), ExternalSchema.Format.CSV, List.of("a"), null);
        assertThatThrownBy(() -> CsvSource.check(new Configuration(), none))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no CSV file with a header");
        ExternalSchema missing = new ExternalSchema(empty.resolve("nowhere").toString(), ExternalSchema.Format.CSV,
                List.of("a"), null);
        assertThatThrownBy(() -> CsvSource.check(new Configuration(), missing))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot be read as CSV");
    }

    @Test
    void aLocationWithACommaIsOnePathNotTwo() throws Exception {
        Path dir = folder("csv-comma");
        Files.writeString(dir.resolve("part-0.csv"), "a\n1\n", StandardCharsets.UTF_8);
        Path other = folder("csv-comma,other");
        Files.writeString(other.resolve("part-0.csv"), "a\n2\n", StandardCharsets.UTF_8);
        int[] splits = new int[1];
        assertThat(read(other.toString(), List.of("a"), Long.MAX_VALUE, splits)).containsExactly(List.of("2"));
    }

    @Test
    void aMatrixFieldIsReadAsADoubleAsSparksCastReadsItOrIsMissing() throws Exception {
        Path dir = folder("csv-numbers");
        Files.writeString(dir.resolve("part-0.csv"), "a,b\n 1.5 ,0x1p3\nNaN,abc\n1e400,\n-0.25,2.5d\r",
                StandardCharsets.UTF_8);
        int[] splits = new int[1];
        assertThat(read(dir.toString(), List.of("a", "b"), Long.MAX_VALUE, splits, true)).containsExactly(
                Arrays.asList(1.5, 8.0), Arrays.asList(Double.NaN, null),
                Arrays.asList(Double.POSITIVE_INFINITY, null), Arrays.asList(-0.25, 2.5));
    }

    /** A stream that hands out at most one byte per read. */
    private static final class Trickle extends java.io.InputStream {
        private final byte[] bytes;
        private int next;

        Trickle(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read() {
            return next < bytes.length ? bytes[next++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            int c = read();
            if (c < 0) {
                return -1;
            }
            b[off] = (byte) c;
            return 1;
        }
    }

    @Test
    void aByteOrderMarkIsSkippedHoweverTheStreamHandsOutItsBytes() throws Exception {
        byte[] text = "\uFEFFa,b\n1,2\n".getBytes(StandardCharsets.UTF_8);
        CsvSource.Header header = new CsvSource.Header(List.of("a", "b"), 10);
        CsvSource.Input input = new CsvSource.Input(new Trickle(text), 0);
        assertThat(CsvSource.line(input, header)).isTrue();
        assertThat(header.positions).containsExactly(0, 1);
        assertThat(header.names).containsExactly("a", "b");
    }

    @Test
    void onlyCompressionsReadWithoutANativeLibraryAreAccepted() throws Exception {
        Path dir = folder("csv-zstd");
        Files.writeString(dir.resolve("part-0.csv.zst"), "a\n1\n", StandardCharsets.UTF_8);
        ExternalSchema schema = new ExternalSchema(dir.toString(), ExternalSchema.Format.CSV, List.of("a"), null);
        assertThatThrownBy(() -> CsvSource.check(new Configuration(), schema))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("only .gz, .bz2 and .deflate");
    }

    @Test
    void aLocationThatIsNotAPlainPathIsNotRead() throws Exception {
        Path dir = folder("csv-plain");
        Files.writeString(dir.resolve("part-0.csv"), "a\n1\n", StandardCharsets.UTF_8);
        for (String location : List.of(dir + "/{x,y}", dir + "/\\.\\./csv-plain", dir + "/*", dir + "/../csv-plain")) {
            ExternalSchema schema = new ExternalSchema(location, ExternalSchema.Format.CSV, List.of("a"), null);
            assertThatThrownBy(() -> SparkTestData.engine().check(schema)).as(location)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("plain path");
            assertThatThrownBy(() -> SparkTestData.engine().read(schema)).as(location)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("plain path");
        }
    }

    private static String write(String name, String text) throws Exception {
        Path dir = folder(name);
        Files.writeString(dir.resolve("part-0.csv"), text, StandardCharsets.UTF_8);
        return dir.toString();
    }

    private static ExternalSchema ratings(String name, String extraLine) throws Exception {
        StringBuilder b = new StringBuilder("user,item,rating\n");
        SparkRatingsTest.triples(60, 7).forEach((u, rated) -> rated.forEach((i, r) -> b.append(u)
                .append(",film-").append(i).append(',').append(r).append('\n')));
        b.append(extraLine);
        return new ExternalSchema(write(name, b.toString()), ExternalSchema.Format.CSV,
                List.of("user", "item", "rating"), null, null, SparkRatingsTest.CSV_DECLARATION);
    }

    @Test
    void aRatingsLineWiderThanSparksParserAllowsGivesItsTripleThroughTheEngine() throws Exception {
        Plan plan = SparkRatingsTest.plan("PRIVATE_SVD", RatingsRelation.USER, SparkRatingsTest.CSV_DECLARATION);
        SparkEngine engine = SparkTestData.engine();
        ExternalSchema narrow = ratings("csv-ratings-narrow", "user-x,film-1,4.0\n");
        ExternalSchema wide = ratings("csv-ratings-wide", "user-x,film-1,4.0" + WIDE + "\n");
        engine.check(wide);
        double[] expected = SparkRatingsTest.values(plan.release(
                new SparkRatings(engine, narrow, new SparkTestData.Recorder()), TestNoiseSources.seeded(1)));
        double[] got = SparkRatingsTest.values(plan.release(
                new SparkRatings(engine, wide, new SparkTestData.Recorder()), TestNoiseSources.seeded(1)));
        assertThat(got).containsExactly(expected);
    }

    @Test
    void aMatrixLineWiderThanSparksParserAllowsGivesItsRowThroughTheEngine() throws Exception {
        StringBuilder b = new StringBuilder("c0,c1\n");
        for (int i = 0; i < 50; i++) {
            b.append(i % 3 * 0.1).append(',').append(i % 5 * 0.1).append('\n');
        }
        var facts = SparkTestData.facts(2, 1.0, null, NeighbouringRelation.ADD_REMOVE);
        ExternalSchema narrow = new ExternalSchema(write("csv-m-narrow", b + "0.1,0.2\n"), ExternalSchema.Format.CSV,
                List.of("c0", "c1"), null);
        ExternalSchema wide = new ExternalSchema(write("csv-m-wide", b + "0.1,0.2" + WIDE + "\n"),
                ExternalSchema.Format.CSV, List.of("c0", "c1"), null);
        SparkTestData.engine().check(wide);
        assertThat(SparkTestData.access(wide, facts, new SparkTestData.Recorder()).columnSums())
                .containsExactly(SparkTestData.access(narrow, facts, new SparkTestData.Recorder()).columnSums());
    }
}
