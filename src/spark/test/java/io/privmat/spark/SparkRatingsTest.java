package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.dataset.ExternalSchema;
import io.privmat.dataset.RatingsSchema;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.MechanismDefinition;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.RatingsFacts;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.completion.AlsRelease;
import io.privmat.mechanism.completion.CompletionModel;
import io.privmat.mechanism.completion.ExactSums;
import io.privmat.mechanism.completion.UserPasses;
import io.privmat.mechanism.completion.UserState;
import io.privmat.mechanism.completion.UserStatistic;
import io.privmat.mechanism.completion.FrankWolfeRelease;
import io.privmat.mechanism.catalog.InMemoryRatings;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.completion.CompletionRelease;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.completion.SvdCompletionRelease;
import io.privmat.mechanism.catalog.GramOperator;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.mechanism.catalog.EdgeSource;
import io.privmat.privacy.AccountingMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * EXTERNAL ratings on Spark against the stored path's in-process passes: every completion mechanism
 * of the catalogue, under USER and USER_ADD_REMOVE, releases the same values bit for bit with the
 * same seed from (user, item, rating) triples in Parquet (three files, integer item ids) and in CSV
 * (two files, declared item labels) as from the same triples held in memory — the per-user
 * statistics are exact integer sums on both paths. Malformed triples follow the public bounding
 * rule (ignored, clamped, deduplicated, capped) and fail nothing.
 */
class SparkRatingsTest {

    static final int USERS = 120;
    static final int ITEMS = 12;
    static final int CAP = 5;
    static final RatingsSchema PARQUET_DECLARATION = new RatingsSchema(ITEMS, null, 1, 5, CAP,
            RatingsSchema.Declared.USER);
    static final RatingsSchema CSV_DECLARATION = new RatingsSchema(ITEMS,
            IntStream.range(0, ITEMS).mapToObj(i -> "film-" + i).toList(), 1, 5, CAP, RatingsSchema.Declared.USER);

    /** user label → (item → rating), users in order of first appearance. */
    static Map<String, TreeMap<Integer, Double>> triples;
    static ExternalSchema parquet;
    static ExternalSchema csv;

    @BeforeAll
    static void write() {
        triples = triples(USERS, 31);
        Path dir = SparkTestData.tempDir();
        parquet = new ExternalSchema(writeTriples(rows(triples, false), dir, "ratings-parquet", false, 3),
                ExternalSchema.Format.PARQUET, List.of("user", "item", "rating"), null, null, PARQUET_DECLARATION);
        csv = new ExternalSchema(writeTriples(rows(triples, true), dir, "ratings-csv", true, 2),
                ExternalSchema.Format.CSV, List.of("user", "item", "rating"), null, null, CSV_DECLARATION);
    }

    /** Seeded users with 1 to CAP distinct items each; ratings on [1, 5] in halves, a few at the ends. */
    static Map<String, TreeMap<Integer, Double>> triples(int users, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Map<String, TreeMap<Integer, Double>> out = new LinkedHashMap<>();
        for (int u = 0; u < users; u++) {
            TreeMap<Integer, Double> rated = new TreeMap<>();
            int k = 1 + random.nextInt(CAP);
            // A low-rank signal: users of two kinds like the even or the odd items.
            boolean even = u % 2 == 0;
            while (rated.size() < k) {
                int item = random.nextInt(ITEMS);
                double base = (item % 2 == 0) == even ? 4.5 : 1.5;
                rated.put(item, Math.min(5, Math.max(1, base + 0.5 * (random.nextInt(5) - 2))));
            }
            out.put("user-" + Integer.toString(u * 7919 % 1000, 36), rated);
        }
        return out;
    }

    static List<Object[]> rows(Map<String, TreeMap<Integer, Double>> t, boolean labels) {
        List<Object[]> rows = new ArrayList<>();
        t.forEach((user, rated) -> rated.forEach((item, r) -> rows.add(new Object[] {user,
                labels ? (Object) ("film-" + item) : (Object) item, r})));
        return rows;
    }

    static String writeTriples(List<Object[]> rows, Path dir, String name, boolean asCsv, int files) {
        DataType itemType = asCsv ? DataTypes.StringType : DataTypes.IntegerType;
        StructType type = new StructType(new StructField[] {
                DataTypes.createStructField("user", DataTypes.StringType, true),
                DataTypes.createStructField("item", itemType, true),
                DataTypes.createStructField("rating", DataTypes.DoubleType, true),
                DataTypes.createStructField("note", DataTypes.StringType, true)});
        List<Row> out = rows.stream().map(r -> RowFactory.create(r[0], r[1], r[2], "x")).toList();
        String location = dir.resolve(name).toString();
        var frame = SparkTestData.engine().session().createDataFrame(out, type).repartition(files).write();
        if (asCsv) {
            frame.option("header", "true").csv(location);
        } else {
            frame.parquet(location);
        }
        return location;
    }

    /** The triples as the stored path reads them: users in order of appearance, dense ids. */
    static InMemoryRatings inMemory(Map<String, TreeMap<Integer, Double>> t) {
        int[] users = new int[t.size()];
        int[] offsets = new int[t.size() + 1];
        List<Integer> items = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        int u = 0;
        for (TreeMap<Integer, Double> rated : t.values()) {
            users[u] = u;
            rated.forEach((i, r) -> {
                items.add(i);
                values.add(r);
            });
            offsets[++u] = items.size();
        }
        return new InMemoryRatings(ITEMS, users, offsets, items.stream().mapToInt(Integer::intValue).toArray(),
                values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** A DataAccess over ratings held in memory: the stored path's default passes. */
    record Held(RatingsSource source) implements DataAccess {
        @Override
        public RatingsSource ratings() {
            return source;
        }

        @Override
        public double[] columnSums() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Gram gram(boolean withSums) {
            throw new UnsupportedOperationException();
        }

        @Override
        public RowStream rows(int passes) {
            throw new UnsupportedOperationException();
        }

        @Override
        public GramOperator gramOperator(int d, int passes) {
            throw new UnsupportedOperationException();
        }

        @Override
        public EdgeSource edges() {
            throw new UnsupportedOperationException();
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (MechanismDefinition m : MechanismCatalog.standard().all()) {
            if (!m.kinds().contains(QueryKind.COMPLETION)) {
                continue;
            }
            for (RatingsRelation r : m.ratingsRelations()) {
                if (r != RatingsRelation.RATING) {
                    out.add(Arguments.of(m.name(), r));
                }
            }
        }
        assertThat(out).hasSizeGreaterThanOrEqualTo(6);
        return out.stream();
    }

    static Plan plan(String name, RatingsRelation relation, RatingsSchema declaration) {
        return plan(name, relation, declaration, Map.of());
    }

    static Plan plan(String name, RatingsRelation relation, RatingsSchema declaration, Map<String, Object> extra) {
        MechanismCatalog catalog = MechanismCatalog.standard();
        MechanismDefinition m = catalog.find(name).orElseThrow();
        PublicFacts facts = PublicFacts.ratings(new RatingsFacts(declaration.domain(), relation), null,
                AccountingMode.ZCDP);
        Map<String, Object> params = new LinkedHashMap<>(m.exampleParams(QueryKind.COMPLETION).asMap());
        params.putAll(extra);
        return catalog.plan(QueryKind.COMPLETION.name(), name, SparkParityTest.budget(m), RequestParams.of(params), facts);
    }

    /**
     * The paper's steps carry each user's predictions from pass to pass (a new cached generation of
     * users on the executors per pass): four iterations give the same release as in process.
     */
    @Test
    void frankWolfesPaperStepsCarryTheUsersStateAcrossPasses() {
        Plan plan = plan("PRIVATE_FRANK_WOLFE", RatingsRelation.USER, PARQUET_DECLARATION,
                Map.of("schedule", "STANDARD", "nuclearRadius", 40, "iterations", 4));
        double[] local = values(plan.release(new Held(inMemory(triples)), TestNoiseSources.seeded(3)));
        double[] spark = values(plan.release(new SparkRatings(SparkTestData.engine(), parquet,
                new SparkTestData.Recorder()), TestNoiseSources.seeded(3)));
        assertThat(spark).containsExactly(local);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void sparkAndInProcessCompletionsAreIdenticalWithTheSameSeed(String name, RatingsRelation relation) {
        Plan plan = plan(name, relation, PARQUET_DECLARATION);
        double[] local = values(plan.release(new Held(inMemory(triples)), TestNoiseSources.seeded(11)));
        for (ExternalSchema source : List.of(parquet, csv)) {
            SparkTestData.Recorder progress = new SparkTestData.Recorder();
            DataAccess spark = new SparkRatings(SparkTestData.engine(), source, progress);
            double[] a = values(plan.release(spark, TestNoiseSources.seeded(11)));
            assertThat(a).as(source.location()).isNotEmpty().containsExactly(local);
            // Progress moves with passes only, below the read share.
            assertThat(progress.values).isNotEmpty().allMatch(v -> v >= 0 && v < SparkDataAccess.READ_SHARE);
        }
        // A different seed gives another release: the comparison above is not vacuous.
        assertThat(values(plan.release(new Held(inMemory(triples)), TestNoiseSources.seeded(12)))).isNotEqualTo(local);
    }

    /**
     * A source with malformed triples (no user, an unknown item, no or a non-finite rating), a rating
     * outside [min, max], a repeated (user, item) and a user with more than s items: the release is
     * the one of the triples after the public rule — ignored, clamped to [1, 5], the smallest rating
     * of the repeat, the s smallest items — and nothing fails.
     */
    @Test
    void malformedTriplesFollowThePublicRuleAndFailNothing() {
        Map<String, TreeMap<Integer, Double>> good = triples(60, 41);
        List<Object[]> rows = rows(good, false);
        rows.add(new Object[] {null, 3, 4.0});
        rows.add(new Object[] {"user-new", ITEMS, 4.0}); // item ids 0 … n − 1 only
        rows.add(new Object[] {"user-new", -1, 4.0});
        rows.add(new Object[] {"user-new", null, 4.0});
        rows.add(new Object[] {"user-new", 2, null});
        rows.add(new Object[] {"user-new", 3, Double.NaN});
        rows.add(new Object[] {"user-new", 4, Double.POSITIVE_INFINITY});
        rows.add(new Object[] {"user-high", 1, 9.0});
        rows.add(new Object[] {"user-high", 2, -3.0});
        rows.add(new Object[] {"user-dup", 5, 4.0});
        rows.add(new Object[] {"user-dup", 5, 2.5});
        for (int item = ITEMS - 1; item >= ITEMS - CAP - 2; item--) {
            rows.add(new Object[] {"user-many", item, 1.0 + item % 5});
        }
        Map<String, TreeMap<Integer, Double>> expected = new LinkedHashMap<>(good);
        expected.put("user-high", new TreeMap<>(Map.of(1, 5.0, 2, 1.0)));
        expected.put("user-dup", new TreeMap<>(Map.of(5, 2.5)));
        TreeMap<Integer, Double> many = new TreeMap<>();
        for (int item = ITEMS - CAP - 2; item < ITEMS - 2; item++) {
            many.put(item, 1.0 + item % 5);
        }
        expected.put("user-many", many);
        ExternalSchema source = new ExternalSchema(writeTriples(rows, SparkTestData.tempDir(), "ratings-bad", false, 4),
                ExternalSchema.Format.PARQUET, List.of("user", "item", "rating"), null, null, PARQUET_DECLARATION);
        for (String name : List.of("PRIVATE_SVD", "DP_ALS")) {
            Plan plan = plan(name, RatingsRelation.USER, PARQUET_DECLARATION);
            double[] local = values(plan.release(new Held(inMemory(expected)), TestNoiseSources.seeded(5)));
            double[] spark = values(plan.release(new SparkRatings(SparkTestData.engine(), source,
                    new SparkTestData.Recorder()), TestNoiseSources.seeded(5)));
            assertThat(spark).as(name).containsExactly(local);
        }
    }

    /**
     * Integer user columns are grouped by their values as {@code long} keys (a user's triples in
     * several files, negative and extreme ids, a null user ignored): the same releases as in process,
     * for a statistic without state (private SVD) and one whose users carry state (Frank–Wolfe).
     */
    @Test
    void integerUserKeysGroupByTheirValues() {
        List<Long> ids = new ArrayList<>();
        List<Object[]> rows = new ArrayList<>();
        long[] extremes = {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE};
        int u = 0;
        for (TreeMap<Integer, Double> rated : triples.values()) {
            long id = u < extremes.length ? extremes[u] : 1_000_003L * u - 50_000_000L;
            ids.add(id);
            rated.forEach((item, r) -> rows.add(new Object[] {id, item, r}));
            u++;
        }
        rows.add(new Object[] {null, 3, 4.0});
        StructType type = new StructType(new StructField[] {
                DataTypes.createStructField("user", DataTypes.LongType, true),
                DataTypes.createStructField("item", DataTypes.IntegerType, true),
                DataTypes.createStructField("rating", DataTypes.DoubleType, true)});
        String location = SparkTestData.tempDir().resolve("ratings-long-users").toString();
        SparkTestData.engine().session().createDataFrame(rows.stream().map(RowFactory::create).toList(), type)
                .repartition(3).write().parquet(location);
        ExternalSchema source = new ExternalSchema(location, ExternalSchema.Format.PARQUET,
                List.of("user", "item", "rating"), null, null, PARQUET_DECLARATION);
        assertThat(ids).doesNotHaveDuplicates();
        for (Plan plan : List.of(plan("PRIVATE_SVD", RatingsRelation.USER, PARQUET_DECLARATION),
                plan("PRIVATE_FRANK_WOLFE", RatingsRelation.USER, PARQUET_DECLARATION,
                        Map.of("schedule", "STANDARD", "nuclearRadius", 40, "iterations", 3)))) {
            double[] local = values(plan.release(new Held(inMemory(triples)), TestNoiseSources.seeded(9)));
            double[] spark = values(plan.release(new SparkRatings(SparkTestData.engine(), source,
                    new SparkTestData.Recorder()), TestNoiseSources.seeded(9)));
            assertThat(spark).containsExactly(local);
        }
    }

    /**
     * The users cached on the executors between the passes of a run are dropped when the run closes
     * its passes: after a finished release, and after a pass that failed on the executors.
     */
    @Test
    void theCachedUsersAreDroppedWhenTheRunEndsAlsoAfterAFailure() {
        var sc = SparkTestData.engine().session().sparkContext();
        java.util.Set<Object> before = new java.util.HashSet<>(scala.jdk.javaapi.CollectionConverters.asJava(
                sc.getPersistentRDDs()).keySet());
        UserPasses passes = ((UserPasses.Engine) new SparkRatings(SparkTestData.engine(), parquet,
                new SparkTestData.Recorder()).ratings()).passes(PARQUET_DECLARATION.domain());
        // A pass that reads and caches the users, then one that fails on the executors.
        assertThatThrownBy(() -> passes.pass(new Failing())).isInstanceOf(RuntimeException.class);
        assertThat(added(sc, before)).isNotEmpty(); // the read users stay cached between passes
        passes.close();
        assertThat(added(sc, before)).isEmpty();
        // A whole release, which closes its passes itself.
        Plan plan = plan("PRIVATE_FRANK_WOLFE", RatingsRelation.USER, PARQUET_DECLARATION,
                Map.of("schedule", "STANDARD", "nuclearRadius", 40, "iterations", 2));
        plan.release(new SparkRatings(SparkTestData.engine(), parquet, new SparkTestData.Recorder()),
                TestNoiseSources.seeded(4));
        assertThat(added(sc, before)).isEmpty();
    }

    private static java.util.Set<Object> added(org.apache.spark.SparkContext sc, java.util.Set<Object> before) {
        java.util.Set<Object> now = new java.util.HashSet<>(scala.jdk.javaapi.CollectionConverters.asJava(
                sc.getPersistentRDDs()).keySet());
        now.removeAll(before);
        return now;
    }

    /** A statistic that fails on the executors (after the users were read and cached). */
    static final class Failing implements UserStatistic {
        private static final long serialVersionUID = 1L;

        @Override
        public int size() {
            return 1;
        }

        @Override
        public void contribute(int[] items, double[] centred, int from, int to, double[] state, ExactSums out) {
            throw new IllegalStateException("fails on purpose");
        }

        @Override
        public double[] finish(ExactSums sums) {
            return new double[1];
        }
    }

    /**
     * A partition's rows sorted by user become blocks of whole users: with a block of at most 7
     * ratings, 40 users of 1 to 5 ratings make several blocks, no user split or lost, null fields and
     * invalid triples dropped, a user who kept nothing left out.
     */
    @Test
    void aPartitionsUsersBecomeBlocksOfWholeUsers() throws Exception {
        List<InternalRow> rows = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(13);
        int ratings = 0;
        for (long user = 0; user < 40; user++) {
            int k = 1 + random.nextInt(CAP);
            for (int item = 0; item < k; item++) {
                rows.add(new GenericInternalRow(new Object[] {user, (long) item, 3.0}));
            }
            rows.add(new GenericInternalRow(new Object[] {user, null, 3.0}));
            ratings += k;
        }
        rows.add(new GenericInternalRow(new Object[] {40L, (long) ITEMS, 3.0})); // a user of one invalid triple
        rows.add(0, new GenericInternalRow(new Object[] {null, 1L, 3.0}));
        List<UserState> blocks = blocks(List.of(rows), 7);
        assertThat(blocks).hasSizeGreaterThan(2);
        assertThat(blocks).allMatch(b -> b.count() < 7 + CAP);
        assertThat(blocks.stream().mapToInt(UserState::users).sum()).isEqualTo(40);
        assertThat(blocks.stream().mapToInt(UserState::count).sum()).isEqualTo(ratings);
    }

    /**
     * Bounding each run of a user's consecutive triples where they are read, then merging the runs
     * after the shuffle, keeps exactly what bounding all the user's triples at once keeps: users with
     * repeats, out-of-range and non-finite ratings, unknown items and more than s items (one of 20 000
     * triples), their triples shuffled into runs of every length across three partitions, give the
     * same canonical users (items and centred ratings, bit for bit) as one {@link BoundedUser} per
     * user fed every triple.
     */
    @Test
    void runsBoundedWhereReadMergeToTheUsersOfAllTheirTriples() throws Exception {
        SplittableRandom random = new SplittableRandom(17);
        double[] odd = {Double.NaN, Double.NEGATIVE_INFINITY, -0.0, 0.0, 1e300, -7, 5.25, 0.999};
        List<long[]> triples = new ArrayList<>(); // user, item, index into values
        List<Double> values = new ArrayList<>();
        for (long user = 0; user < 30; user++) {
            int count = user == 7 ? 20_000 : 1 + random.nextInt(3 * CAP);
            for (int t = 0; t < count; t++) {
                long item = random.nextInt(ITEMS + 3) - 1; // −1 and n, n + 1 are unknown items
                double value = random.nextInt(4) == 0 ? odd[random.nextInt(odd.length)] : 1 + random.nextInt(9) / 2.0;
                triples.add(new long[] {user == 3 ? Long.MIN_VALUE : user, item, values.size()});
                values.add(value);
            }
        }
        // Runs of every length: shuffled, then stretches of it sorted by user.
        java.util.Collections.shuffle(triples, new java.util.Random(19));
        for (int from = 0; from < triples.size(); ) {
            int to = Math.min(triples.size(), from + 1 + random.nextInt(200));
            triples.subList(from, to).sort(java.util.Comparator.comparingLong(t -> t[0]));
            from = to;
        }
        List<List<InternalRow>> partitions = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int k = 0; k < triples.size(); k++) {
            long[] t = triples.get(k);
            partitions.get(k * 3 / triples.size()).add(new GenericInternalRow(new Object[] {t[0], t[1],
                    values.get((int) t[2])}));
        }
        Map<Long, io.privmat.mechanism.completion.BoundedUser> whole = new TreeMap<>();
        RatingsDomain domain = PARQUET_DECLARATION.domain();
        for (long[] t : triples) {
            whole.computeIfAbsent(t[0], u -> new io.privmat.mechanism.completion.BoundedUser(domain))
                    .add(t[1] >= 0 && t[1] < ITEMS ? (int) t[1] : -1, values.get((int) t[2]));
        }
        UserState.Builder expected = new UserState.Builder(domain);
        whole.values().forEach(expected::add);
        assertThat(canonical(blocks(partitions, 64))).containsExactlyElementsOf(canonical(List.of(expected.build())));
    }

    /**
     * The blocks of users from partitions of (user, item id, rating) rows: each partition's runs
     * bounded ({@link SparkRatings.Runs}), the runs sorted by user as the shuffle does, then merged
     * ({@link SparkRatings.Users}).
     */
    private static List<UserState> blocks(List<List<InternalRow>> partitions, int blockRatings) throws Exception {
        RatingsSchema d = PARQUET_DECLARATION;
        SparkRatings.Bounds bounds = new SparkRatings.Bounds(d.items(), d.min(), d.max(), d.perUserCap(), null);
        List<InternalRow> runs = new ArrayList<>();
        for (List<InternalRow> rows : partitions) {
            new SparkRatings.Runs(bounds, true, true).call(rows.iterator()).forEachRemaining(runs::add);
        }
        assertThat(runs).allMatch(r -> r.isNullAt(3) || r.getBinary(3).length > 0
                && r.getBinary(3).length <= 12 * (2 * CAP - 1));
        runs.sort(java.util.Comparator.comparingLong(r -> r.getLong(0)));
        List<UserState> blocks = new ArrayList<>();
        new SparkRatings.Users(bounds, true, blockRatings).call(runs.iterator()).forEachRemaining(blocks::add);
        return blocks;
    }

    /** Each user of the blocks as its items and the bits of its centred ratings, sorted. */
    static List<String> canonical(List<UserState> blocks) {
        List<String> users = new ArrayList<>();
        UserStatistic recording = new UserStatistic() {
            @Override
            public int size() {
                return 1;
            }

            @Override
            public void contribute(int[] items, double[] centred, int from, int to, double[] state, ExactSums out) {
                StringBuilder user = new StringBuilder();
                for (int k = from; k < to; k++) {
                    user.append(items[k]).append(':').append(Double.doubleToRawLongBits(centred[k])).append(' ');
                }
                users.add(user.toString());
            }

            @Override
            public double[] finish(ExactSums sums) {
                return new double[1];
            }
        };
        for (UserState block : blocks) {
            block.contribute(recording, new ExactSums(1));
        }
        users.sort(null);
        return users;
    }

    @Test
    void matrixStatisticsAndOneByOneReadsAreRefused() {
        DataAccess spark = new SparkRatings(SparkTestData.engine(), parquet, new SparkTestData.Recorder());
        assertThatThrownBy(spark::columnSums).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> spark.ratings().forEachUser((u, i, r, c) -> {}))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    static double[] values(Release r) {
        CompletionModel model = ((CompletionRelease) r).model();
        if (model instanceof FrankWolfeRelease f) {
            return concat(f.directions(), f.lambdaHat(), f.lambdaPrime());
        }
        if (model instanceof SvdCompletionRelease s) {
            return concat(s.directions(), s.eigenvalues());
        }
        return ((AlsRelease) model).itemFactors();
    }

    static double[] concat(double[]... parts) {
        return Arrays.stream(parts).flatMapToDouble(Arrays::stream).toArray();
    }
}
