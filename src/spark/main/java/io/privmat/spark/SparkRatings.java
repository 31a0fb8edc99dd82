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
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
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
 * columnar, groups the triples by user (one shuffle of Spark's binary rows, sorted within
 * partitions), maps item labels to the declared ids, bounds each user under the public rule of
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
     * {@code long} when the column is integral (strings otherwise), grouped by one shuffle of
     * Spark's binary rows ({@code repartition} by user, sorted within partitions), then each
     * partition's runs of one user bounded by {@link BoundedUser} into {@link UserState} blocks.
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
                functions.col(SparkEngine.quoted(c.get(2))).try_cast("double").as("r"))
                .repartition(functions.col("u")).sortWithinPartitions(functions.col("u"));
        if (!(triples instanceof org.apache.spark.sql.classic.Dataset<Row> classic)) {
            throw new IllegalStateException("the Spark session is not a classic (in-process driver) session");
        }
        Bounds bounds = new Bounds(domain.items(), domain.lo(), domain.hi(), domain.perUserCap(), ratings.labels());
        return classic.queryExecution().toRdd().toJavaRDD().mapPartitions(new Users(bounds, longUsers, itemIds,
                Users.BLOCK_RATINGS));
    }

    /** The public declaration as the executors need it (a plain serializable value). */
    record Bounds(int items, double lo, double hi, int cap, @Nullable List<String> labels)
            implements java.io.Serializable {

        RatingsDomain domain() {
            return new RatingsDomain(items, lo, hi, cap);
        }
    }

    /**
     * A partition's (user, item, rating) rows, sorted by user, into blocks of bounded users: null
     * fields and invalid triples dropped, each user's triples bounded by the public rule
     * (docs/ratings.md), a user who kept none left out. A block closes after the user that takes it
     * past its size in ratings
     * ({@link #BLOCK_RATINGS} in a job).
     */
    static final class Users implements FlatMapFunction<Iterator<InternalRow>, UserState> {
        private static final long serialVersionUID = 1L;
        /** Ratings per cached block (12 bytes each, so about 12 MB). */
        static final int BLOCK_RATINGS = 1 << 20;
        private final Bounds bounds;
        private final boolean longUsers;
        private final boolean itemIds;
        private final int blockRatings;

        Users(Bounds bounds, boolean longUsers, boolean itemIds, int blockRatings) {
            this.bounds = bounds;
            this.longUsers = longUsers;
            this.itemIds = itemIds;
            this.blockRatings = blockRatings;
        }

        @Override
        public Iterator<UserState> call(Iterator<InternalRow> rows) {
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
            UserState.Builder blocks = new UserState.Builder(domain);
            return new Iterator<>() {
                private @Nullable BoundedUser user;
                private long longKey;
                private @Nullable UTF8String stringKey;
                private @Nullable UserState next = advance();

                private @Nullable UserState advance() {
                    while (rows.hasNext()) {
                        InternalRow row = rows.next();
                        if (row.isNullAt(0)) {
                            continue;
                        }
                        boolean same = user != null && (longUsers ? row.getLong(0) == longKey
                                : row.getUTF8String(0).equals(stringKey));
                        boolean full = false;
                        if (!same) {
                            if (user != null) {
                                full = blocks.add(user).ratings() >= blockRatings;
                            }
                            user = new BoundedUser(domain);
                            if (longUsers) {
                                longKey = row.getLong(0);
                            } else {
                                stringKey = row.getUTF8String(0).clone(); // the row's buffer is reused
                            }
                        }
                        if (!row.isNullAt(1) && !row.isNullAt(2)) {
                            user.add(item(row), row.getDouble(2));
                        }
                        if (full) {
                            return blocks.build();
                        }
                    }
                    if (user != null) {
                        blocks.add(user);
                        user = null;
                    }
                    return blocks.ratings() > 0 ? blocks.build() : null;
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
