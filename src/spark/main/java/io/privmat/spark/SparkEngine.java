package io.privmat.spark;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.EngineRun;
import io.privmat.dataset.ExternalEngine;
import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.PublicFacts;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * EXTERNAL datasets read by Apache Spark: one SparkSession per service, created at the first use
 * (embedded {@code local[*]} by default, or a cluster by master URL), stopped at shutdown. What runs
 * on executors is {@link PartitionStatistics}: clipping and exact sums with public parameters only.
 */
@Component
@ConditionalOnProperty(name = "privmat.spark.enabled", havingValue = "true", matchIfMissing = true)
public class SparkEngine implements ExternalEngine, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(SparkEngine.class);

    private final SparkSettings settings;
    private volatile @Nullable SparkSession session;
    /**
     * The threads that wait for Spark's passes: one per running pass (the worker pool bounds how many
     * run), so that one job's pass never queues behind another's, as it would in a shared bounded pool.
     */
    private final ExecutorService passThreads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "privmat-spark-pass");
        t.setDaemon(true);
        return t;
    });

    public SparkEngine(SparkSettings settings) {
        this.settings = settings;
    }

    @Override
    public String describe() {
        return "Apache Spark " + org.apache.spark.package$.MODULE$.SPARK_VERSION() + " on " + settings.master();
    }

    /** Where a pass's driver-side work runs while the job's worker thread waits for it. */
    Executor passThreads() {
        return passThreads;
    }

    /** The session, created at the first call. */
    public SparkSession session() {
        SparkSession s = session;
        if (s == null || s.sparkContext().isStopped()) {
            synchronized (this) {
                s = session;
                if (s == null || s.sparkContext().isStopped()) {
                    SparkConf conf = new SparkConf().setMaster(settings.master()).setAppName(settings.appName())
                            // No web UI in the service's process (and no port to secure).
                            .set("spark.ui.enabled", "false")
                            .set("spark.metrics.conf.*.sink.servlet.class", NoMetricsServlet.class.getName())
                            .set("spark.sql.shuffle.partitions", "8")
                            // No JVM-wide URL handler factory from Hadoop: the embedded Tomcat owns
                            // it (only one may be set per JVM), and nothing here opens hdfs:// URLs
                            // through java.net.URL (Spark's readers use Hadoop's FileSystem).
                            .set("spark.sql.defaultUrlStreamHandlerFactory.enabled", "false");
                    if (settings.master().startsWith("local")) {
                        conf.set("spark.driver.bindAddress", "127.0.0.1").set("spark.driver.host", "127.0.0.1");
                    }
                    settings.conf().forEach(conf::set);
                    s = SparkSession.builder().config(conf).getOrCreate();
                    log.info("Spark session started: {}", describe());
                    session = s;
                }
            }
        }
        return s;
    }

    /** The declared columns of the source as doubles, in order (Parquet numeric columns; CSV strings). */
    org.apache.spark.sql.Dataset<Row> rows(ExternalSchema schema) {
        org.apache.spark.sql.Dataset<Row> source = read(schema);
        Column[] columns = schema.columns().stream().map(c -> functions.col(quoted(c)).try_cast("double"))
                .toArray(Column[]::new);
        return source.select(columns);
    }

    /**
     * What a pass reads: the projected source and how one of its rows becomes d doubles; for CSV also
     * the same rows read directly (no Spark SQL conversion per row), which a pass reads instead.
     */
    record Source(org.apache.spark.sql.Dataset<Row> frame, PartitionStatistics.RowReader reader,
            @Nullable JavaRDD<InternalRow> direct) {

        Source(org.apache.spark.sql.Dataset<Row> frame, PartitionStatistics.RowReader reader) {
            this(frame, reader, null);
        }
    }

    /**
     * The source of a pass: the d scalar columns cast to double, or the vector layout's one column as
     * it is (a list of doubles or a binary, whichever its Parquet schema holds — metadata, not rows).
     */
    Source source(ExternalSchema schema) {
        String vector = schema.vector();
        if (vector == null) {
            if (schema.format() == ExternalSchema.Format.CSV) {
                try {
                    return new Source(rows(schema), PartitionStatistics.scalars(),
                            CsvSource.internalRows(session(), schema));
                } catch (java.io.IOException e) { // listing the location: the owner's storage, before any row
                    throw new java.io.UncheckedIOException(e);
                }
            }
            return new Source(rows(schema), PartitionStatistics.scalars());
        }
        org.apache.spark.sql.Dataset<Row> frame = read(schema).select(functions.col(quoted(vector)));
        DataType type = frame.schema().fields()[0].dataType();
        if (type instanceof BinaryType) {
            return new Source(frame, PartitionStatistics.binary());
        }
        if (type instanceof ArrayType a && a.elementType() instanceof DoubleType) {
            return new Source(frame, PartitionStatistics.doubleList());
        }
        throw new IllegalStateException("the vector column is no longer a list of doubles or a binary");
    }

    org.apache.spark.sql.Dataset<Row> read(ExternalSchema schema) {
        // Declarations refuse such locations; one stored before they did is not read either.
        if (!ExternalSchema.plainLocation(schema.location())) {
            throw new IllegalArgumentException("the location is not a plain path (a '..' segment or a pattern "
                    + "character): not read");
        }
        DataFrameReader reader = session().read();
        return switch (schema.format()) {
            case PARQUET -> reader.parquet(schema.location());
            // The declared columns as strings, read so that no line's content fails a pass (not
            // Spark's CSV reader, which fails on some lines: CsvSource); cast per column by the caller.
            case CSV -> csv(schema);
        };
    }

    private org.apache.spark.sql.Dataset<Row> csv(ExternalSchema schema) {
        try {
            return CsvSource.frame(session(), schema);
        } catch (java.io.IOException e) { // listing the location: the owner's storage, before any row
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String quoted(String column) {
        return "`" + column.replace("`", "``") + "`";
    }

    @Override
    public void check(ExternalSchema schema) {
        Map<String, DataType> types = new java.util.LinkedHashMap<>();
        if (!ExternalSchema.plainLocation(schema.location())) {
            throw new IllegalArgumentException("the location must be a plain path");
        }
        if (schema.format() == ExternalSchema.Format.CSV) {
            // Every file's header line (every field a string); no row is read.
            for (String name : CsvSource.check(session().sparkContext().hadoopConfiguration(), schema)) {
                types.putIfAbsent(name, DataTypes.StringType);
            }
            for (String c : schema.columns()) { // every file's header has them (checked above)
                types.putIfAbsent(c, DataTypes.StringType);
            }
        } else {
            org.apache.spark.sql.types.StructType found;
            try {
                found = read(schema).schema(); // metadata (the Parquet footers): no row is read
            } catch (Exception e) { // Spark's AnalysisException is checked in Java's eyes
                throw new IllegalArgumentException("the location cannot be read as " + schema.format() + ": "
                        + firstLine(e.getMessage()));
            }
            for (StructField f : found.fields()) {
                types.put(f.name(), f.dataType());
            }
        }
        String[] fieldNames = types.keySet().toArray(String[]::new);
        if (schema.ratings() != null) {
            SparkRatings.check(schema, types, fieldNames);
            return;
        }
        if (schema.vector() != null) {
            DataType t = types.get(schema.vector());
            if (t == null) {
                throw new IllegalArgumentException("the source has no column [" + schema.vector() + "]; it has "
                        + Arrays.toString(fieldNames));
            }
            if (!(t instanceof BinaryType) && !(t instanceof ArrayType a && a.elementType() instanceof DoubleType)) {
                throw new IllegalArgumentException("the vector column '" + schema.vector() + "' is "
                        + t.simpleString() + ", not a list of doubles (array<double>) or a binary of 8·d bytes");
            }
            return; // the vector's length is checked per row (another length: the zero row)
        }
        Set<String> missing = new HashSet<>();
        for (String c : schema.columns()) {
            DataType t = types.get(c);
            if (t == null) {
                missing.add(c);
            } else if (!(t instanceof NumericType) && !(t instanceof StringType && schema.format()
                    == ExternalSchema.Format.CSV)) {
                throw new IllegalArgumentException("column '" + c + "' is " + t.simpleString() + ", not numeric");
            }
        }
        if (!missing.isEmpty()) {
            List<String> sorted = missing.stream().sorted().toList();
            throw new IllegalArgumentException("the source has no column " + sorted + "; it has "
                    + Arrays.toString(fieldNames));
        }
    }

    private static String firstLine(@Nullable String message) {
        if (message == null) {
            return "(no message)";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    @Override
    public DataAccess open(Dataset dataset, ExternalSchema schema, PublicFacts facts, EngineRun context) {
        return schema.ratings() != null ? new SparkRatings(this, schema, context)
                : new SparkDataAccess(this, schema, facts, context);
    }

    int treeDepth() {
        return Math.max(1, settings.treeDepth());
    }

    int rowBlock() {
        return Math.max(1, settings.rowBlock());
    }

    @Override
    public void destroy() {
        passThreads.shutdownNow();
        SparkSession s = session;
        if (s != null) {
            s.stop();
            session = null;
        }
    }
}
