package io.privmat.spark;

import io.privmat.dataset.EngineRun;
import io.privmat.dataset.ExternalSchema;
import io.privmat.dataset.RatingsSchema;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.completion.BoundedUser;
import io.privmat.mechanism.completion.ExactSums;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.completion.UserPasses;
import io.privmat.mechanism.completion.UserState;
import io.privmat.mechanism.completion.UserStatistic;
import io.privmat.mechanism.catalog.GramOperator;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.catalog.EdgeSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.apache.spark.storage.StorageLevel;
import org.jspecify.annotations.Nullable;

/**
 * An EXTERNAL ratings dataset read by Spark for one job (docs/ratings.md, "EXTERNAL ratings"): the
 * (user, item, rating) triples stay on the executors. The first pass reads the three columns
 * columnar, maps item labels to the declared ids and packs each run of one user's consecutive
 * triples into one row where they are read, groups the rows by user (one shuffle of Spark's binary
 * rows, sorted within partitions), bounds each user under the public rule of
 * {@link BoundedUser} and caches the users, in canonical form, as blocks of primitive arrays
 * ({@link UserState}; spilled serialised to local disk under memory pressure) on the executors for the later passes of the run; the run's close drops
 * them. Every pass runs the mechanism's {@link UserStatistic} per user there (a statistic with state
 * — private Frank–Wolfe's predictions — produces the next cached generation of users) and returns
 * only {@link ExactSums}: integers, merged by {@code treeReduce}, the same whatever the partitions,
 * the merge order or task re-runs. Nothing is counted or returned about the users: no number of
 * users, ratings or ignored triples. Progress is a function of the number of passes done.
 */
final class SparkRatings implements DataAccess {

    private final SparkEngine engine;
    private final ExternalSchema schema;
    private final RatingsSchema ratings;
    private final EngineRun context;
    private final String group;

    SparkRatings(SparkEngine engine, ExternalSchema schema, EngineRun context) {
        RatingsSchema declared = schema.ratings();
        if (declared == null) {
            throw new IllegalStateException("not an EXTERNAL ratings declaration");
        }
        this.engine = engine;
        this.schema = schema;
        this.ratings = declared;
        this.context = context;
        this.group = "privmat-job-" + context.id();
    }

    /**
     * The declared columns against the source's schema (metadata only): the user column of strings or
     * integers, the item column of strings or integers (labels, or ids written in decimal), the rating
     * numeric (a string in CSV).
     */
    static void check(ExternalSchema schema, Map<String, DataType> types, String[] found) {
        List<String> c = schema.columns();
        String[] role = {"user", "item", "rating"};
        for (int k = 0; k < 3; k++) {
            DataType t = types.get(c.get(k));
            if (t == null) {
                throw new IllegalArgumentException("the source has no column [" + c.get(k) + "] (the " + role[k]
                        + "); it has " + Arrays.toString(found));
            }
            boolean ok = k == 2 ? t instanceof NumericType || t instanceof StringType
                    && schema.format() == ExternalSchema.Format.CSV
                    : t instanceof StringType || t instanceof IntegralType;
            if (!ok) {
                throw new IllegalArgumentException("column '" + c.get(k) + "' (the " + role[k] + ") is "
                        + t.simpleString() + ", not " + (k == 2 ? "numeric" : "a string or an integer"));
            }
        }
    }

    @Override
    public RatingsSource ratings() {
        return new UserPasses.Engine() {
            @Override
            public int items() {
                return ratings.items();
            }

            @Override
            public void forEachUser(UserVisitor visitor) {
                throw new UnsupportedOperationException("EXTERNAL ratings are read where they are, by per-user "
                        + "passes only");
            }

            @Override
            public UserPasses passes(RatingsDomain domain) {
                if (!domain.equals(ratings.domain())) {
                    throw new IllegalStateException("the plan's domain differs from the declaration's");
                }
                return new Passes(domain);
            }
        };
    }

    /**
     * The passes of one mechanism run: the users cached on the executors between passes, dropped at
     * {@link #close} (the mechanisms close their passes also when one failed).
     */
    private final class Passes implements UserPasses {

        private final RatingsDomain domain;
        private @Nullable JavaRDD<UserState> users;
        /** Every generation persisted, to drop at close even when its pass did not finish. */
        private final List<JavaRDD<UserState>> cached = new ArrayList<>();
        private int done;
        /** Set by {@link #close}: a pass still being planned on Spark's side caches nothing after it. */
        private boolean closed;

        Passes(RatingsDomain domain) {
            this.domain = domain;
        }

        @Override
        public double[] pass(UserStatistic statistic) {
            // The number of passes is the plan's (public); progress moves towards READ_SHARE with each.
            double at = SparkDataAccess.READ_SHARE * done / (done + 1.0);
            double after = SparkDataAccess.READ_SHARE * (done + 1) / (done + 2.0);
            ExactSums sums = SparkDataAccess.pass(engine, context, group, at, after, () -> run(statistic));
            done++;
            if (sums.size() != statistic.size()) {
                throw new IllegalStateException("the engine returned a statistic of the wrong shape");
            }
            double[] out = statistic.finish(sums);
            for (double v : out) {
                if (!Double.isFinite(v)) {
                    throw new IllegalStateException("the engine returned a non-finite statistic");
                }
            }
            return out;
        }

        private ExactSums run(UserStatistic statistic) {
            JavaRDD<UserState> current = users == null ? cache(read(domain)) : users;
            JavaRDD<UserState> next = current;
            if (statistic.advances()) {
                next = cache(current.map(new Advance(statistic)));
            }
            ExactSums sums = next.getNumPartitions() == 0 ? new ExactSums(statistic.size())
                    : next.mapPartitions(new Contribute(statistic)).treeReduce(ExactSums::merge, engine.treeDepth());
            if (next != current) {
                current.unpersist(false);
                synchronized (this) {
                    cached.remove(current);
                }
            }
            users = next;
            return sums;
        }

        /**
         * Cached as objects, spilled serialised: a block is a few primitive arrays, as small in memory
         * as serialised, so keeping it deserialised only saves every later pass the copy.
         */
        private synchronized JavaRDD<UserState> cache(JavaRDD<UserState> rdd) {
            if (closed) {
                // The run was closed while this pass was still being planned (a stopped job): cache
                // nothing that no one would drop.
                throw new IllegalStateException("the passes of this run are closed");
            }
            cached.add(rdd);
            return rdd.persist(StorageLevel.MEMORY_AND_DISK());
        }

        @Override
        public synchronized void close() {
            closed = true;
            for (JavaRDD<UserState> rdd : cached) {
                try {
                    rdd.unpersist(false);
                } catch (RuntimeException stopped) {
                    // The context is gone (stopped with the service): nothing of it is left to drop.
                }
            }
            cached.clear();
            users = null;
        }
    }

    /**
     * The users, bounded and canonical, in blocks (read once per run): the three columns read
     * columnar (Parquet's vectorised reader, Spark's generated code, no row objects), user keys as
     * {@code long} when the column is integral (strings otherwise); where they are read, each run of
     * consecutive triples of one user becomes one row (the key, the run's valid pairs, bounded by
     * {@link BoundedUser} once a run reaches 2·s: {@link Runs}); one shuffle of Spark's binary rows
     * into the session's number of shuffle partitions ({@code repartition} by user, sorted within
     * partitions, spilled to disk as Spark's sort does), coalesced to one partition per core, then
     * each user's rows merged and bounded into {@link UserState} blocks ({@link Users}). The rule is
     * a function of the user's multiset of triples, so bounding a run and merging the runs keeps what
     * bounding all the triples at once keeps (docs/ratings.md; {@code SparkRatingsTest}).
     */
    private JavaRDD<UserState> read(RatingsDomain domain) {
        List<String> c = schema.columns();
        org.apache.spark.sql.Dataset<Row> source = engine.read(schema);
        StructType found = source.schema(); // metadata: Parquet footers or the CSV header
        boolean longUsers = found.apply(c.get(0)).dataType() instanceof IntegralType;
        boolean itemIds = ratings.labels() == null && found.apply(c.get(1)).dataType() instanceof IntegralType;
        org.apache.spark.sql.Dataset<Row> triples = source.select(
                functions.col(SparkEngine.quoted(c.get(0))).cast(longUsers ? "long" : "string").as("u"),
                functions.col(SparkEngine.quoted(c.get(1))).cast(itemIds ? "long" : "string").as("i"),
                functions.col(SparkEngine.quoted(c.get(2))).try_cast("double").as("r"));
        if (!(triples instanceof org.apache.spark.sql.classic.Dataset<Row> classic)) {
            throw new IllegalStateException("the Spark session is not a classic (in-process driver) session");
        }
        Bounds bounds = new Bounds(domain.items(), domain.lo(), domain.hi(), domain.perUserCap(), ratings.labels());
        org.apache.spark.sql.classic.SparkSession session = classic.sparkSession();
        JavaRDD<InternalRow> runs = classic.queryExecution().toRdd().toJavaRDD()
                .mapPartitions(new Runs(bounds, longUsers, itemIds));
        StructType packed = new StructType()
                .add("u", longUsers ? DataTypes.LongType : DataTypes.StringType, false)
                .add("i", DataTypes.IntegerType, false)
                .add("r", DataTypes.DoubleType, false)
                .add("more", DataTypes.BinaryType, true);
        // An explicit number of partitions: adaptive execution would coalesce them to about the number
        // of cores, unevenly (3 tasks on 2 cores at 10⁶ ratings), and the sort spills what memory
        // does not hold, so partitions of any size are safe.
        org.apache.spark.sql.Dataset<Row> grouped = session.internalCreateDataFrame(runs.rdd(), packed, false)
                .repartition(session.sessionState().conf().numShufflePartitions(), functions.col("u"))
                .sortWithinPartitions(functions.col("u"));
        if (!(grouped instanceof org.apache.spark.sql.classic.Dataset<Row> sorted)) {
            throw new IllegalStateException("the Spark session is not a classic (in-process driver) session");
        }
        // As many cached partitions as cores (each task merges several sorted shuffle partitions in
        // turn): the later passes run one task per core and reduce without an intermediate level.
        int cores = Math.max(1, session.sparkContext().defaultParallelism());
        JavaRDD<InternalRow> partitions = sorted.queryExecution().toRdd().toJavaRDD();
        return (partitions.getNumPartitions() > cores ? partitions.coalesce(cores) : partitions)
                .mapPartitions(new Users(bounds, longUsers, Users.BLOCK_RATINGS));
    }

    /** The public declaration as the executors need it (a plain serializable value). */
    record Bounds(int items, double lo, double hi, int cap, @Nullable List<String> labels)
            implements java.io.Serializable {

        RatingsDomain domain() {
            return new RatingsDomain(items, lo, hi, cap);
        }
    }

    /**
     * Where the triples are read: a partition's (user, item, rating) rows, in the order read, into
     * one row per run of consecutive triples of one user — (user, item, rating, the run's other pairs
     * packed as ints then doubles, or null) — item labels mapped to ids, null fields, unknown items
     * and non-finite ratings dropped, a run of no valid pair left out, a run that reaches 2·s pairs
     * bounded by the public rule to at most s as it goes. At most {@link #CHUNK} pairs a row (a longer
     * run, possible only when s is larger, becomes several rows). Memory O(s) whatever the source
     * holds; a user whose triples lie together in the files (a file sorted or written by user) crosses
     * the shuffle as one row per run, of at most 2·s pairs, instead of one row per triple.
     */
    static final class Runs implements FlatMapFunction<Iterator<InternalRow>, InternalRow> {
        private static final long serialVersionUID = 1L;
        /** Ratings per shuffled row at most (12 bytes each). */
        static final int CHUNK = 4096;
        private final Bounds bounds;
        private final boolean longUsers;
        private final boolean itemIds;

        Runs(Bounds bounds, boolean longUsers, boolean itemIds) {
            this.bounds = bounds;
            this.longUsers = longUsers;
            this.itemIds = itemIds;
        }

        @Override
        public Iterator<InternalRow> call(Iterator<InternalRow> rows) {
            RatingsDomain domain = bounds.domain();
            int n = bounds.items();
            List<String> labels = bounds.labels();
            Map<UTF8String, Integer> index = null;
            if (labels != null) {
                index = new HashMap<>(labels.size() * 2);
                for (int i = 0; i < labels.size(); i++) {
                    index.put(UTF8String.fromString(labels.get(i)), i);
                }
            }
            Map<UTF8String, Integer> ids = index;
            BoundedUser user = new BoundedUser(domain);
            int full = 2 * bounds.cap();
            return new Iterator<>() {
                private boolean open;
                private long longKey;
                private @Nullable UTF8String stringKey;
                /** The open run's valid (item, rating) pairs: at most 2·s (bounded when it fills). */
                private int[] items = new int[Math.min(16, full)];
                private double[] values = new double[items.length];
                private int count;
                /** The rows of the last closed run not yet returned (several only past {@link #CHUNK}). */
                private final java.util.ArrayDeque<InternalRow> ready = new java.util.ArrayDeque<>();

                private void fill() {
                    while (ready.isEmpty() && rows.hasNext()) {
                        InternalRow row = rows.next();
                        if (row.isNullAt(0)) {
                            continue;
                        }
                        boolean same = open && (longUsers ? row.getLong(0) == longKey
                                : row.getUTF8String(0).equals(stringKey));
                        if (!same) {
                            close();
                            open = true;
                            if (longUsers) {
                                longKey = row.getLong(0);
                            } else {
                                stringKey = row.getUTF8String(0).clone(); // the row's buffer is reused
                            }
                        }
                        if (!row.isNullAt(1) && !row.isNullAt(2)) {
                            int item = item(row);
                            double value = row.getDouble(2);
                            if (item >= 0 && Double.isFinite(value)) {
                                add(item, value);
                            }
                        }
                    }
                    if (ready.isEmpty()) {
                        close();
                    }
                }

                /**
                 * Holds a valid pair of the open run. A run's pairs cross the shuffle as they are
                 * (merged and bounded after it); only a run that reaches 2·s pairs is bounded here,
                 * to at most s, by the rule itself.
                 */
                private void add(int item, double value) {
                    if (count == items.length) {
                        if (count >= full) {
                            for (int k = 0; k < count; k++) {
                                user.add(items[k], values[k]);
                            }
                            count = user.kept(items, values);
                            user.clear();
                        } else {
                            items = Arrays.copyOf(items, Math.min(full, 2 * count));
                            values = Arrays.copyOf(values, items.length);
                        }
                    }
                    items[count] = item;
                    values[count++] = value;
                }

                /** The open run's pairs as rows of the run's user. */
                private void close() {
                    if (!open) {
                        return;
                    }
                    open = false;
                    Object key = longUsers ? (Object) longKey : stringKey;
                    for (int from = 0; from < count; from += CHUNK) {
                        int to = Math.min(count, from + CHUNK);
                        byte[] more = null;
                        if (to - from > 1) {
                            java.nio.ByteBuffer run = java.nio.ByteBuffer.allocate(12 * (to - from - 1));
                            for (int k = from + 1; k < to; k++) {
                                run.putInt(items[k]);
                            }
                            for (int k = from + 1; k < to; k++) {
                                run.putDouble(values[k]);
                            }
                            more = run.array();
                        }
                        ready.add(new GenericInternalRow(new Object[] {key, items[from], values[from], more}));
                    }
                    count = 0;
                }

                private int item(InternalRow row) {
                    if (itemIds) {
                        long id = row.getLong(1);
                        return id >= 0 && id < n ? (int) id : -1;
                    }
                    UTF8String label = row.getUTF8String(1);
                    return ids == null ? RatingsSchema.numbered(label.toString(), n) : ids.getOrDefault(label, -1);
                }

                @Override
                public boolean hasNext() {
                    fill();
                    return !ready.isEmpty();
                }

                @Override
                public InternalRow next() {
                    if (!hasNext()) {
                        throw new java.util.NoSuchElementException();
                    }
                    return ready.poll();
                }
            };
        }
    }

    /**
     * A partition's rows of {@link Runs} (user, item, rating, the run's other pairs packed), sorted by
     * user, into blocks of bounded users: each user's rows merged and bounded by the public rule
     * (docs/ratings.md), one {@link BoundedUser} reused. A block closes after the
     * user that takes it past its size in ratings ({@link #BLOCK_RATINGS} in a job).
     */
    static final class Users implements FlatMapFunction<Iterator<InternalRow>, UserState> {
        private static final long serialVersionUID = 1L;
        /** Ratings per cached block (12 bytes each, so about 12 MB). */
        static final int BLOCK_RATINGS = 1 << 20;
        private final Bounds bounds;
        private final boolean longUsers;
        private final int blockRatings;

        Users(Bounds bounds, boolean longUsers, int blockRatings) {
            this.bounds = bounds;
            this.longUsers = longUsers;
            this.blockRatings = blockRatings;
        }

        @Override
        public Iterator<UserState> call(Iterator<InternalRow> rows) {
            RatingsDomain domain = bounds.domain();
            UserState.Builder blocks = new UserState.Builder(domain);
            BoundedUser user = new BoundedUser(domain);
            return new Iterator<>() {
                private boolean open;
                private long longKey;
                private @Nullable UTF8String stringKey;
                private @Nullable UserState next = advance();

                private @Nullable UserState advance() {
                    while (rows.hasNext()) {
                        InternalRow row = rows.next();
                        boolean same = open && (longUsers ? row.getLong(0) == longKey
                                : row.getUTF8String(0).equals(stringKey));
                        boolean full = false;
                        if (!same) {
                            if (open) {
                                full = blocks.add(user).ratings() >= blockRatings;
                                user.clear();
                            }
                            open = true;
                            if (longUsers) {
                                longKey = row.getLong(0);
                            } else {
                                stringKey = row.getUTF8String(0).clone(); // the row's buffer is reused
                            }
                        }
                        user.add(row.getInt(1), row.getDouble(2));
                        if (!row.isNullAt(3)) {
                            java.nio.ByteBuffer more = java.nio.ByteBuffer.wrap(row.getBinary(3));
                            int count = more.capacity() / 12;
                            for (int k = 0; k < count; k++) {
                                user.add(more.getInt(4 * k), more.getDouble(4 * count + 8 * k));
                            }
                        }
                        if (full) {
                            return blocks.build();
                        }
                    }
                    if (open) {
                        blocks.add(user);
                        user.clear();
                        open = false;
                    }
                    return blocks.ratings() > 0 ? blocks.build() : null;
                }

                @Override
                public boolean hasNext() {
                    return next != null;
                }

                @Override
                public UserState next() {
                    UserState out = next;
                    if (out == null) {
                        throw new java.util.NoSuchElementException();
                    }
                    next = advance();
                    return out;
                }
            };
        }
    }

    /** A user moved by the statistic's step (a new object: cached generations are never changed). */
    static final class Advance implements Function<UserState, UserState> {
        private static final long serialVersionUID = 1L;
        private final UserStatistic statistic;

        Advance(UserStatistic statistic) {
            this.statistic = statistic;
        }

        @Override
        public UserState call(UserState user) {
            return user.advanced(statistic);
        }
    }

    /** A partition's users' contributions, summed exactly. */
    static final class Contribute implements FlatMapFunction<Iterator<UserState>, ExactSums> {
        private static final long serialVersionUID = 1L;
        private final UserStatistic statistic;

        Contribute(UserStatistic statistic) {
            this.statistic = statistic;
        }

        @Override
        public Iterator<ExactSums> call(Iterator<UserState> users) {
            ExactSums out = new ExactSums(statistic.size());
            while (users.hasNext()) {
                users.next().contribute(statistic, out);
            }
            List<ExactSums> one = new ArrayList<>(1);
            one.add(out);
            return one.iterator();
        }
    }

    private static UnsupportedOperationException holdsRatings() {
        return new UnsupportedOperationException("an EXTERNAL ratings dataset holds ratings, not matrix rows");
    }

    @Override
    public double[] columnSums() {
        throw holdsRatings();
    }

    @Override
    public Gram gram(boolean withSums) {
        throw holdsRatings();
    }

    @Override
    public RowStream rows(int passes) {
        throw holdsRatings();
    }

    @Override
    public GramOperator gramOperator(int d, int passes) {
        throw holdsRatings();
    }

    @Override
    public EdgeSource edges() {
        throw holdsRatings();
    }
}
