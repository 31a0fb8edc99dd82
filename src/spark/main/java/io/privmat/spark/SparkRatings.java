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
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.storage.StorageLevel;
import org.jspecify.annotations.Nullable;
import scala.Tuple2;

/**
 * An EXTERNAL ratings dataset read by Spark for one job (docs/ratings.md, "EXTERNAL ratings"): the
 * (user, item, rating) triples stay on the executors. The first pass reads them, maps item labels to
 * the declared ids, groups them by user (a shuffle, combined map-side) under the public bounding rule
 * of {@link BoundedUser}, and keeps the users, in canonical form, cached on the executors for the
 * later passes. Every pass runs the mechanism's {@link UserStatistic} per user there (a statistic
 * with state — private Frank–Wolfe's predictions — produces the next cached generation of users)
 * and returns only {@link ExactSums}: integers, merged by {@code treeReduce}, the same whatever the
 * partitions, the merge order or task re-runs. Nothing is counted or returned about the users: no
 * number of users, ratings or ignored triples. Progress is a function of the number of passes done.
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

    /** The passes of one mechanism run: the users cached on the executors between passes. */
    private final class Passes implements UserPasses {

        private final RatingsDomain domain;
        private @Nullable JavaRDD<UserState> users;
        private int done;

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
            JavaRDD<UserState> current = users == null ? read(domain) : users;
            JavaRDD<UserState> next = current;
            if (statistic.advances()) {
                next = current.map(new Advance(statistic)).persist(StorageLevel.MEMORY_AND_DISK());
            }
            ExactSums sums = next.getNumPartitions() == 0 ? new ExactSums(statistic.size())
                    : next.mapPartitions(new Contribute(statistic)).treeReduce(ExactSums::merge, engine.treeDepth());
            if (next != current) {
                current.unpersist(false);
            }
            users = next;
            return sums;
        }
    }

    /** The users, bounded and canonical, cached on the executors (read once per job). */
    private JavaRDD<UserState> read(RatingsDomain domain) {
        List<String> c = schema.columns();
        org.apache.spark.sql.Dataset<Row> frame = engine.read(schema).select(
                functions.col(SparkEngine.quoted(c.get(0))).cast("string"),
                functions.col(SparkEngine.quoted(c.get(1))).cast("string"),
                functions.col(SparkEngine.quoted(c.get(2))).try_cast("double"));
        int partitions = Math.max(1, engine.session().sparkContext().defaultParallelism());
        Bounds bounds = new Bounds(domain.items(), domain.lo(), domain.hi(), domain.perUserCap(), ratings.labels());
        JavaPairRDD<String, BoundedUser> byUser = frame.javaRDD().mapPartitionsToPair(new Triples(bounds))
                .reduceByKey(BoundedUser::merge, partitions);
        return byUser.values().map(new Canonical(bounds)).persist(StorageLevel.MEMORY_AND_DISK());
    }

    /** The public declaration as the executors need it (a plain serializable value). */
    record Bounds(int items, double lo, double hi, int cap, @Nullable List<String> labels)
            implements java.io.Serializable {

        RatingsDomain domain() {
            return new RatingsDomain(items, lo, hi, cap);
        }
    }

    /** Rows → (user, that user's triple), invalid triples dropped (docs/ratings.md: the public rule). */
    static final class Triples implements PairFlatMapFunction<Iterator<Row>, String, BoundedUser> {
        private static final long serialVersionUID = 1L;
        private final Bounds bounds;

        Triples(Bounds bounds) {
            this.bounds = bounds;
        }

        @Override
        public Iterator<Tuple2<String, BoundedUser>> call(Iterator<Row> rows) {
            RatingsDomain domain = bounds.domain();
            List<String> labels = bounds.labels();
            Map<String, Integer> index = null;
            if (labels != null) {
                index = new HashMap<>(labels.size() * 2);
                for (int i = 0; i < labels.size(); i++) {
                    index.put(labels.get(i), i);
                }
            }
            Map<String, Integer> ids = index;
            return new Iterator<>() {
                private @Nullable Tuple2<String, BoundedUser> next = advance();

                private @Nullable Tuple2<String, BoundedUser> advance() {
                    while (rows.hasNext()) {
                        Row row = rows.next();
                        if (row.isNullAt(0) || row.isNullAt(1) || row.isNullAt(2)) {
                            continue;
                        }
                        String label = row.getString(1);
                        int item = ids == null ? RatingsSchema.numbered(label, bounds.items())
                                : ids.getOrDefault(label, -1);
                        BoundedUser user = new BoundedUser(domain).add(item, row.getDouble(2));
                        if (!user.isEmpty()) {
                            return new Tuple2<>(row.getString(0), user);
                        }
                    }
                    return null;
                }

                @Override
                public boolean hasNext() {
                    return next != null;
                }

                @Override
                public Tuple2<String, BoundedUser> next() {
                    Tuple2<String, BoundedUser> out = next;
                    if (out == null) {
                        throw new java.util.NoSuchElementException();
                    }
                    next = advance();
                    return out;
                }
            };
        }
    }

    /** A user's bounded triples → canonical form (cannot fail: {@link BoundedUser} keeps only valid ones). */
    static final class Canonical implements Function<BoundedUser, UserState> {
        private static final long serialVersionUID = 1L;
        private final Bounds bounds;

        Canonical(Bounds bounds) {
            this.bounds = bounds;
        }

        @Override
        public UserState call(BoundedUser user) {
            return user.user(bounds.domain());
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
