package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.completion.BoundedUser;
import io.privmat.mechanism.completion.ExactSums;
import io.privmat.mechanism.completion.UserState;
import io.privmat.mechanism.completion.UserStatistic;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * The two-step bounding of EXTERNAL ratings ({@link SparkRatings.Runs} where
 * read, {@link SparkRatings.Users} after the shuffle) against one {@link BoundedUser} per user fed
 * every triple: string keys and item labels, s = 1, runs longer than a shuffled row's chunk, rows
 * converted to Spark's binary form as the shuffle does, runs arriving in any order, the sorted
 * shuffle partitions concatenated as the coalesce does.
 */
class SparkRatingsRunsTest {

    private static final StructType PACKED_LONG = packed(true);
    private static final StructType PACKED_STRING = packed(false);

    private static StructType packed(boolean longUsers) {
        return new StructType().add("u", longUsers ? DataTypes.LongType : DataTypes.StringType, false)
                .add("i", DataTypes.IntegerType, false).add("r", DataTypes.DoubleType, false)
                .add("more", DataTypes.BinaryType, true);
    }

    /** One triple: the user (Long or String), the item (Long id or String label), the rating (or null). */
    record Triple(Object user, Object item, Double rating) {}

    private static final double[] ODD = {Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -0.0, 0.0,
            1e300, -1e300, -7, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, 1, 5, Math.nextDown(1.0),
            Math.nextUp(5.0)};

    /** s = 1 with string users and item labels: every user kept one item, the smallest id, its smallest rating. */
    @Test
    void sOneStringUsersAndLabels() throws Exception {
        List<String> labels = IntStream.range(0, 60).mapToObj(i -> i % 3 == 0 ? "0" + i : "film-" + i).toList();
        SparkRatings.Bounds bounds = new SparkRatings.Bounds(60, -1, 5, 1, labels);
        List<Object> users = new ArrayList<>(List.of("", " ", "a", "a ", "ä", "a\u0000", "x".repeat(5000),
                "\uD83D\uDE00", "01", "1"));
        check(bounds, false, false, triples(users, labels, 60, 23, 40), 3, 7);
    }

    /** s larger than half a chunk: runs of more than 4 096 pairs cross the shuffle as several rows. */
    @Test
    void runsLongerThanAChunk() throws Exception {
        int n = 20_000;
        SparkRatings.Bounds bounds = new SparkRatings.Bounds(n, 1, 5, 3_000, null);
        List<Object> users = new ArrayList<>();
        for (long u = 0; u < 6; u++) {
            users.add(u == 0 ? Long.MIN_VALUE : u == 1 ? Long.MAX_VALUE : u);
        }
        List<Triple> all = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(5);
        // User MIN_VALUE: 50 000 triples in one run; user MAX_VALUE: runs of 4 097 … 6 000; the rest scattered.
        for (int t = 0; t < 50_000; t++) {
            all.add(new Triple(Long.MIN_VALUE, (long) random.nextInt(n + 5) - 2, value(random)));
        }
        for (int run = 0; run < 6; run++) {
            int len = 4_095 + random.nextInt(5_000);
            for (int t = 0; t < len; t++) {
                all.add(new Triple(Long.MAX_VALUE, (long) random.nextInt(n), value(random)));
            }
            for (int t = 0; t < 300; t++) {
                all.add(new Triple(users.get(2 + random.nextInt(4)), (long) random.nextInt(n), value(random)));
            }
            // User 2: a run of its own past 2s, of items above 10 000 only.
            for (int t = 0; t < 6_500; t++) {
                all.add(new Triple(2L, (long) (10_000 + random.nextInt(n - 10_000)), value(random)));
            }
        }
        check(bounds, true, true, all, 4, 3);
    }

    /** Long users, item ids, s = 1 and s = 2, triples shuffled into runs of every length over many partitions. */
    @Test
    void smallCapsLongUsers() throws Exception {
        for (int cap : new int[] {1, 2}) {
            SparkRatings.Bounds bounds = new SparkRatings.Bounds(40, 0, 1, cap, null);
            List<Object> users = new ArrayList<>(List.of(Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE));
            check(bounds, true, true, triples(users, null, 40, 31 + cap, 60), 5, 11);
        }
    }

    /**
     * End to end on Spark, s = 1 and s = 2, string users split across files (runs in each, repeated
     * items with other ratings in other runs, odd ratings), CSV written line by line and Parquet
     * written one file per part in that order: the releases equal those over one BoundedUser per user.
     */
    @Test
    void endToEndStringUsersSplitAcrossFiles() throws Exception {
        List<String> labels = IntStream.range(0, SparkRatingsTest.ITEMS).mapToObj(i -> "film-" + i).toList();
        SplittableRandom random = new SplittableRandom(77);
        String[] odd = {"NaN", "-Infinity", "Infinity", "-0", "0", "1e400", "-7", "5", "1", "4.9999999999999999", "x", ""};
        List<List<String[]>> files = new ArrayList<>();
        for (int f = 0; f < 3; f++) {
            List<String[]> lines = new ArrayList<>();
            for (int u = 0; u < 40; u++) {
                String user = u == 0 ? "big" : "user-" + (u * 37 % 40);
                int count = u == 0 ? 3_000 : 1 + random.nextInt(6);
                for (int t = 0; t < count; t++) {
                    int item = random.nextInt(SparkRatingsTest.ITEMS + 2);
                    String label = item < SparkRatingsTest.ITEMS ? labels.get(item) : "unknown-" + item;
                    String r = random.nextInt(5) == 0 ? odd[random.nextInt(odd.length)]
                            : Double.toString(1 + random.nextInt(9) / 2.0);
                    lines.add(new String[] {user, label, r});
                }
            }
            files.add(lines);
        }
        for (int cap : new int[] {1, 2}) {
            io.privmat.dataset.RatingsSchema declared = new io.privmat.dataset.RatingsSchema(SparkRatingsTest.ITEMS,
                    labels, 1, 5, cap, io.privmat.dataset.RatingsSchema.Declared.USER);
            RatingsDomain domain = declared.domain();
            Map<String, BoundedUser> whole = new LinkedHashMap<>();
            for (List<String[]> lines : files) {
                for (String[] l : lines) {
                    Double r;
                    try {
                        r = Double.parseDouble(l[2]);
                    } catch (NumberFormatException e) {
                        r = null;
                    }
                    BoundedUser u = whole.computeIfAbsent(l[0], k -> new BoundedUser(domain));
                    if (r != null) {
                        u.add(labels.indexOf(l[1]), r);
                    }
                }
            }
            Map<String, java.util.TreeMap<Integer, Double>> expected = new LinkedHashMap<>();
            whole.forEach((user, b) -> {
                int[] items = new int[cap];
                double[] ratings = new double[cap];
                int k = b.kept(items, ratings);
                java.util.TreeMap<Integer, Double> m = new java.util.TreeMap<>();
                for (int j = 0; j < k; j++) {
                    m.put(items[j], ratings[j]);
                }
                if (!m.isEmpty()) {
                    expected.put(user, m);
                }
            });
            java.nio.file.Path dir = SparkTestData.tempDir();
            java.nio.file.Path csvDir = java.nio.file.Files.createDirectories(dir.resolve("csv"));
            String parquetDir = dir.resolve("parquet").toString();
            org.apache.spark.sql.types.StructType type = new org.apache.spark.sql.types.StructType()
                    .add("user", DataTypes.StringType).add("item", DataTypes.StringType)
                    .add("rating", DataTypes.DoubleType);
            for (int f = 0; f < files.size(); f++) {
                StringBuilder text = new StringBuilder("user,item,rating\n");
                List<org.apache.spark.sql.Row> rows = new ArrayList<>();
                for (String[] l : files.get(f)) {
                    text.append(l[0]).append(',').append(l[1]).append(',').append(l[2]).append('\n');
                    Double r;
                    try {
                        r = Double.parseDouble(l[2]);
                    } catch (NumberFormatException e) {
                        r = null;
                    }
                    rows.add(org.apache.spark.sql.RowFactory.create(l[0], l[1], r));
                }
                java.nio.file.Files.writeString(csvDir.resolve("part-" + f + ".csv"), text);
                SparkTestData.engine().session().createDataFrame(rows, type).coalesce(1).write()
                        .mode("append").parquet(parquetDir);
            }
            for (io.privmat.dataset.ExternalSchema source : List.of(
                    new io.privmat.dataset.ExternalSchema(csvDir.toString(), io.privmat.dataset.ExternalSchema.Format.CSV,
                            List.of("user", "item", "rating"), null, null, declared),
                    new io.privmat.dataset.ExternalSchema(parquetDir, io.privmat.dataset.ExternalSchema.Format.PARQUET,
                            List.of("user", "item", "rating"), null, null, declared))) {
                io.privmat.mechanism.catalog.Plan plan = SparkRatingsTest.plan("PRIVATE_SVD",
                        io.privmat.mechanism.catalog.RatingsRelation.USER, declared);
                double[] local = SparkRatingsTest.values(plan.release(new SparkRatingsTest.Held(
                        SparkRatingsTest.inMemory(expected)), io.privmat.mechanism.noise.TestNoiseSources.seeded(5)));
                double[] spark = SparkRatingsTest.values(plan.release(new SparkRatings(SparkTestData.engine(), source,
                        new SparkTestData.Recorder()), io.privmat.mechanism.noise.TestNoiseSources.seeded(5)));
                assertThat(spark).as(source.format() + " s = " + cap).containsExactly(local);
            }
        }
    }

    /**
     * A job stopped while its first pass reads and shuffles (the progress callback throws, as for a
     * stopped job): the pass fails, Spark's jobs of the group end, and nothing stays cached after the
     * passes close — with the shuffle now coalesced to one partition per core.
     */
    @Test
    void aStoppedFirstPassLeavesNothingCachedOrRunning() throws Exception {
        var session = SparkTestData.engine().session();
        var sc = session.sparkContext();
        String location = SparkTestData.tempDir().resolve("stopped").toString();
        session.range(3_000_000).selectExpr("id div 20 as user", "cast(id % 12 as int) as item",
                "cast(1 + id % 5 as double) as rating").write().parquet(location);
        io.privmat.dataset.ExternalSchema source = new io.privmat.dataset.ExternalSchema(location,
                io.privmat.dataset.ExternalSchema.Format.PARQUET, List.of("user", "item", "rating"), null, null,
                SparkRatingsTest.PARQUET_DECLARATION);
        java.util.Set<Object> before = new java.util.HashSet<>(scala.jdk.javaapi.CollectionConverters.asJava(
                sc.getPersistentRDDs()).keySet());
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        io.privmat.dataset.EngineRun stopping = new io.privmat.dataset.EngineRun() {
            private final java.util.UUID id = java.util.UUID.randomUUID();

            @Override
            public java.util.UUID id() {
                return id;
            }

            @Override
            public void progress(double fraction) {
                if (calls.incrementAndGet() >= 2) {
                    throw new IllegalStateException("stopped");
                }
            }
        };
        io.privmat.mechanism.completion.UserPasses passes = ((io.privmat.mechanism.completion.UserPasses.Engine)
                new SparkRatings(SparkTestData.engine(), source, stopping).ratings())
                .passes(SparkRatingsTest.PARQUET_DECLARATION.domain());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> passes.pass(new Quiet()))
                .hasMessageContaining("stopped");
        passes.close();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline && sc.statusTracker().getActiveJobIds().length > 0) {
            Thread.sleep(50);
        }
        Thread.sleep(2_000); // a pass thread still planning would cache now, if it could
        assertThat(sc.statusTracker().getActiveJobIds()).isEmpty();
        java.util.Set<Object> now = new java.util.HashSet<>(scala.jdk.javaapi.CollectionConverters.asJava(
                sc.getPersistentRDDs()).keySet());
        now.removeAll(before);
        assertThat(now).isEmpty();
    }

    /** A statistic that adds nothing. */
    static final class Quiet implements UserStatistic {
        private static final long serialVersionUID = 1L;

        @Override
        public int size() {
            return 1;
        }

        @Override
        public void contribute(int[] items, double[] centred, int from, int to, double[] state, ExactSums out) {}

        @Override
        public double[] finish(ExactSums sums) {
            return new double[1];
        }
    }

    private static double value(SplittableRandom random) {
        return random.nextInt(4) == 0 ? ODD[random.nextInt(ODD.length)] : 1 + random.nextInt(9) / 2.0;
    }

    /** Users' triples, items among n + 3 (some unknown), null items and ratings, shuffled then stretches sorted. */
    private static List<Triple> triples(List<Object> users, List<String> labels, int n, long seed, int most) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Triple> out = new ArrayList<>();
        for (int index = 0; index < users.size(); index++) {
            Object user = users.get(index);
            int count = 1 + random.nextInt(most);
            for (int t = 0; t < count; t++) {
                // Mostly items of this user's own residue class (so a pair leaking to another user shows).
                int item = random.nextInt(10) == 0 ? random.nextInt(n + 3) - 1
                        : index + users.size() * random.nextInt(Math.max(1, (n - index + users.size() - 1) / users.size()));
                Object it;
                if (labels == null) {
                    it = random.nextInt(30) == 0 ? null : (Object) (long) item;
                } else {
                    it = item >= 0 && item < n ? labels.get(item) : (random.nextBoolean() ? "nope" : Integer.toString(item));
                }
                Double r = random.nextInt(30) == 0 ? null : value(random);
                out.add(new Triple(user, it, r));
            }
        }
        Collections.shuffle(out, new Random(seed));
        for (int from = 0; from < out.size(); ) {
            int to = Math.min(out.size(), from + 1 + random.nextInt(40));
            out.subList(from, to).sort(java.util.Comparator.comparing(t -> t.user().toString()));
            from = to;
        }
        return out;
    }

    /**
     * Runs over {@code readParts} read partitions, the rows converted to UnsafeRows, hashed into
     * {@code shuffleParts} partitions, each sorted by user (ties in random order), concatenated (the
     * coalesce), then Users; against one BoundedUser per user.
     */
    private static void check(SparkRatings.Bounds bounds, boolean longUsers, boolean itemIds, List<Triple> all,
            int readParts, int shuffleParts) throws Exception {
        RatingsDomain domain = bounds.domain();
        // The reference: one BoundedUser per user fed every triple.
        Map<Object, BoundedUser> whole = new LinkedHashMap<>();
        for (Triple t : all) {
            BoundedUser u = whole.computeIfAbsent(t.user(), k -> new BoundedUser(domain));
            if (t.item() == null || t.rating() == null) {
                continue;
            }
            int item;
            if (t.item() instanceof Long id) {
                item = id >= 0 && id < bounds.items() ? (int) (long) id : -1;
            } else {
                item = bounds.labels() == null ? io.privmat.dataset.RatingsSchema.numbered((String) t.item(), bounds.items())
                        : bounds.labels().indexOf(t.item());
            }
            u.add(item, t.rating());
        }
        UserState.Builder expected = new UserState.Builder(domain);
        whole.values().forEach(expected::add);
        List<UserState> expectedBlocks = List.of(expected.build());

        // Runs where read.
        List<InternalRow> shuffled = new ArrayList<>();
        UnsafeProjection project = UnsafeProjection.create(longUsers ? PACKED_LONG : PACKED_STRING);
        for (int p = 0; p < readParts; p++) {
            List<InternalRow> rows = new ArrayList<>();
            for (int k = p * all.size() / readParts; k < (p + 1) * all.size() / readParts; k++) {
                Triple t = all.get(k);
                Object u = longUsers ? t.user() : UTF8String.fromString((String) t.user());
                Object i = t.item() == null ? null : itemIds ? t.item() : UTF8String.fromString((String) t.item());
                rows.add(new GenericInternalRow(new Object[] {u, i, t.rating()}));
            }
            Iterator<InternalRow> runs = new SparkRatings.Runs(bounds, longUsers, itemIds).call(rows.iterator());
            runs.forEachRemaining(r -> shuffled.add(project.apply(r).copy()));
        }
        // The shuffle: hash partitions, sorted by user, ties in any order; then concatenated.
        Collections.shuffle(shuffled, new Random(3));
        List<List<InternalRow>> parts = new ArrayList<>();
        for (int p = 0; p < shuffleParts; p++) {
            parts.add(new ArrayList<>());
        }
        for (InternalRow r : shuffled) {
            Object key = longUsers ? (Object) r.getLong(0) : r.getUTF8String(0).toString();
            parts.get(Math.floorMod(key.hashCode(), shuffleParts)).add(r);
        }
        List<InternalRow> coalesced = new ArrayList<>();
        for (List<InternalRow> part : parts) {
            part.sort(longUsers ? java.util.Comparator.comparingLong(r -> r.getLong(0))
                    : (a, b) -> a.getUTF8String(0).compareTo(b.getUTF8String(0)));
            coalesced.addAll(part);
        }
        List<UserState> blocks = new ArrayList<>();
        new SparkRatings.Users(bounds, longUsers, 1 << 20).call(coalesced.iterator()).forEachRemaining(blocks::add);
        assertThat(SparkRatingsTest.canonical(blocks)).containsExactlyElementsOf(SparkRatingsTest.canonical(expectedBlocks));
    }
}
