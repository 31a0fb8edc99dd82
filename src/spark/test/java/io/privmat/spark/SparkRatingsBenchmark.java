package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.ExternalSchema;
import io.privmat.dataset.RatingsSchema;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.completion.CompletionStatistics;
import io.privmat.mechanism.catalog.InMemoryRatings;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.completion.UserPasses;
import io.privmat.mechanism.completion.UserStatistic;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Ratings per second of the completion passes over an EXTERNAL ratings dataset on embedded
 * {@code local[2]} ({@link SparkRatings}: columnar Parquet read, one shuffle grouping by user, the
 * public bounding rule, canonical blocks cached on the executors, the per-user statistic, exact
 * sums, tree reduction) against the stored path's in-process passes over the same triples held in
 * memory (the default {@code UserPasses.of}: one validated load, then each pass over the held
 * users), in the same run, at each size of {@code -Dprivmat.bench.ratings} (comma-separated,
 * default 1000000): one pass alone (the Gram of the centred ratings, private SVD's statistic,
 * without noise; on Spark read and grouping included) with integer user keys and with string user
 * keys, and with integer keys over the same triples written in an order unrelated to the user (no
 * runs of one user's triples to pack where they are read), and a DP_ALS release with T = 5 whose passes are timed one by one (on Spark the first pass
 * reads, groups and caches, the later ones run over the cached users; in process the first includes
 * the load into memory). The statistics and releases of both paths are checked equal (same seed).
 *
 * <p>The triples: user u (m = R/s users) rates s = 20 distinct items (37u + 53k) mod n, k &lt; s,
 * n = 300, with rating 1 + ⌊9·h⌋/2, h = ((id·2654435761) mod 2³²)/2³² for the triple's index id —
 * a deterministic (seedless) function of the index, written once per size by Spark (8 Parquet files of consecutive triples,
 * the user both as a {@code long} column and as a string column "u⟨id⟩"; and again as 8 files each
 * sorted by a hash of the triple, "scattered") into a temporary directory deleted afterwards. Each measurement is repeated ({@code -Dprivmat.bench.reps}, default 3) and the
 * median reported, with the load average. Run:
 * {@code ./mvnw -o -Pspark,benchmark test -Dtest=SparkRatingsBenchmark -Dprivmat.bench.ratings=1000000,10000000}.
 * Prints the table and writes target/benchmarks/spark-ratings.txt.
 */
@Tag("benchmark")
class SparkRatingsBenchmark {

    static final int ITEMS = 300;
    static final int CAP = 20;
    static final RatingsSchema DECLARATION = new RatingsSchema(ITEMS, null, 1, 5, CAP, RatingsSchema.Declared.USER);

    @Test
    void completionPassRatingsPerSecond() throws IOException {
        int reps = Integer.getInteger("privmat.bench.reps", 3);
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "Completion passes; cores: %d; heap: %d MB; medians of %d%n", Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, reps));
        for (String size : System.getProperty("privmat.bench.ratings", "1000000").split(",")) {
            measure(Long.parseLong(size.trim()), reps, report);
        }
        System.out.print(report);
        Path out = Path.of("target/benchmarks/spark-ratings.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
    }

    private static void measure(long total, int reps, StringBuilder report) throws IOException {
        int users = Math.toIntExact(total / CAP);
        long ratings = (long) users * CAP;
        Path dir = Files.createTempDirectory("privmat-ratings-bench");
        try {
            String location = dir.resolve("triples").toString();
            long written = System.nanoTime();
            var user = functions.col("id").divide(CAP).cast("long");
            var triples = SparkTestData.engine().session().range(0, ratings, 1, 8)
                    .select(user.as("user"), functions.concat(functions.lit("u"), user.cast("string")).as("name"),
                            functions.pmod(user.multiply(37).plus(functions.col("id").mod(CAP).multiply(53)),
                                    functions.lit(ITEMS)).cast("int").as("item"),
                            functions.floor(functions.pmod(functions.col("id").multiply(2654435761L),
                                    functions.lit(1L << 32)).divide((double) (1L << 32)).multiply(9)).divide(2).plus(1)
                                    .as("rating"));
            triples.write().parquet(location);
            double writeSeconds = (System.nanoTime() - written) / 1e9;
            // The same triples in an order unrelated to the user (no two consecutive triples of one
            // user, almost surely): the layout where bounding runs where they are read saves nothing.
            String scattered = dir.resolve("scattered").toString();
            triples.repartition(8).sortWithinPartitions(functions.hash(functions.col("item"), functions.col("rating"),
                    functions.col("user"))).write().parquet(scattered);
            ExternalSchema byIdScattered = new ExternalSchema(scattered, ExternalSchema.Format.PARQUET,
                    List.of("user", "item", "rating"), null, null, DECLARATION);
            ExternalSchema byId = new ExternalSchema(location, ExternalSchema.Format.PARQUET,
                    List.of("user", "item", "rating"), null, null, DECLARATION);
            ExternalSchema byName = new ExternalSchema(location, ExternalSchema.Format.PARQUET,
                    List.of("name", "item", "rating"), null, null, DECLARATION);
            InMemoryRatings held = inMemory(users);
            report.append(String.format(Locale.ROOT, "%n%d ratings (%d users x %d, n = %d); Parquet written in %.1f s; "
                    + "load average before: %s%n", ratings, users, CAP, ITEMS, writeSeconds, load()));
            report.append(String.format(Locale.ROOT, "%-16s %-30s %7s %9s %15s %9s%n", "what", "path", "passes",
                    "seconds", "ratings/s/pass", "÷ local"));
            // One pass alone: the Gram of the centred ratings (private SVD's statistic, no noise).
            RatingsDomain domain = DECLARATION.domain();
            double[] expected = CompletionStatistics.firstGram(held, domain);
            assertThat(CompletionStatistics.firstGram(access(byId).ratings(), domain)).containsExactly(expected);
            assertThat(CompletionStatistics.firstGram(access(byName).ratings(), domain)).containsExactly(expected);
            assertThat(CompletionStatistics.firstGram(access(byIdScattered).ratings(), domain)).containsExactly(expected);
            double localPass = median(reps, () -> CompletionStatistics.firstGram(held, domain));
            double idPass = median(reps, () -> CompletionStatistics.firstGram(access(byId).ratings(), domain));
            double namePass = median(reps, () -> CompletionStatistics.firstGram(access(byName).ratings(), domain));
            double scatteredPass = median(reps, () -> CompletionStatistics.firstGram(access(byIdScattered).ratings(),
                    domain));
            row(report, "Gram pass", "in-process (stored path)", 1, localPass, ratings, localPass);
            row(report, "Gram pass", "Spark, long user keys", 1, idPass, ratings, localPass);
            row(report, "Gram pass", "Spark, string user keys", 1, namePass, ratings, localPass);
            row(report, "Gram pass", "Spark, long keys, scattered", 1, scatteredPass, ratings, localPass);
            // A whole release, DP_ALS with T = 5, each pass timed: the first (Spark: read, group, cache;
            // in process: the load into memory) and the later ones over the users already held.
            Plan plan = SparkRatingsTest.plan("DP_ALS", RatingsRelation.USER, DECLARATION,
                    Map.of("rank", 4, "iterations", 5));
            assertThat(SparkRatingsTest.values(plan.release(access(byId), TestNoiseSources.seeded(1))))
                    .containsExactly(SparkRatingsTest.values(plan.release(new SparkRatingsTest.Held(held),
                            TestNoiseSources.seeded(1))));
            Timed localPasses = new Timed(held);
            Timed sparkPasses = new Timed(access(byId).ratings());
            double local = median(reps, () -> plan.release(new SparkRatingsTest.Held(localPasses),
                    TestNoiseSources.seeded(2)));
            double spark = median(reps, () -> plan.release(new SparkRatingsTest.Held(sparkPasses),
                    TestNoiseSources.seeded(2)));
            row(report, "DP_ALS T=5", "in-process (stored path)", 5, local, ratings, local);
            row(report, "DP_ALS T=5", "Spark, long user keys", 5, spark, ratings, local);
            row(report, "  first pass", "in-process: load + pass", 1, localPasses.first(), ratings,
                    localPasses.first());
            row(report, "  first pass", "Spark: read, group, pass", 1, sparkPasses.first(), ratings,
                    localPasses.first());
            row(report, "  later pass", "in-process", 1, localPasses.later(), ratings, localPasses.later());
            row(report, "  later pass", "Spark, cached users", 1, sparkPasses.later(), ratings, localPasses.later());
            report.append(String.format(Locale.ROOT, "load average after: %s%n", load()));
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * A ratings source whose passes are timed one by one: the first of each run includes opening the
     * passes (Spark: nothing until the first pass reads; in process: the load into memory).
     */
    static final class Timed implements UserPasses.Engine {
        private final RatingsSource source;
        private final List<Double> first = new ArrayList<>();
        private final List<Double> later = new ArrayList<>();

        Timed(RatingsSource source) {
            this.source = source;
        }

        @Override
        public int items() {
            return source.items();
        }

        @Override
        public void forEachUser(UserVisitor visitor) {
            source.forEachUser(visitor);
        }

        @Override
        public UserPasses passes(RatingsDomain domain) {
            long start = System.nanoTime();
            UserPasses inner = UserPasses.of(source, domain);
            double opening = (System.nanoTime() - start) / 1e9;
            return new UserPasses() {
                private boolean firstPass = true;

                @Override
                public double[] pass(UserStatistic statistic) {
                    long t = System.nanoTime();
                    double[] out = inner.pass(statistic);
                    double seconds = (System.nanoTime() - t) / 1e9;
                    if (firstPass) {
                        first.add(opening + seconds);
                    } else {
                        later.add(seconds);
                    }
                    firstPass = false;
                    return out;
                }

                @Override
                public void close() {
                    inner.close();
                }
            };
        }

        double first() {
            return medianOf(first);
        }

        double later() {
            return medianOf(later);
        }
    }

    private static DataAccess access(ExternalSchema source) {
        return new SparkRatings(SparkTestData.engine(), source, new SparkTestData.Recorder());
    }

    /** The same triples as Spark writes them, users in id order. */
    static InMemoryRatings inMemory(int users) {
        int[] ids = new int[users];
        int[] offsets = new int[users + 1];
        int[] items = new int[users * CAP];
        double[] values = new double[users * CAP];
        for (int u = 0; u < users; u++) {
            ids[u] = u;
            offsets[u + 1] = (u + 1) * CAP;
            for (int k = 0; k < CAP; k++) {
                long id = (long) u * CAP + k;
                int p = u * CAP + k;
                items[p] = (int) Math.floorMod(37L * u + 53L * k, (long) ITEMS);
                double h = (double) Math.floorMod(id * 2654435761L, 1L << 32) / (double) (1L << 32);
                values[p] = Math.floor(h * 9) / 2 + 1;
            }
        }
        return new InMemoryRatings(ITEMS, ids, offsets, items, values);
    }

    private static double median(int reps, Supplier<Object> run) {
        List<Double> seconds = new ArrayList<>();
        for (int r = 0; r < reps; r++) {
            long t = System.nanoTime();
            run.get();
            seconds.add((System.nanoTime() - t) / 1e9);
        }
        return medianOf(seconds);
    }

    private static double medianOf(List<Double> seconds) {
        double[] s = seconds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s[s.length / 2];
    }

    private static void row(StringBuilder report, String name, String path, int passes, double seconds, long ratings,
            double localSeconds) {
        report.append(String.format(Locale.ROOT, "%-16s %-30s %7d %9.3f %15.0f %9.2f%n", name, path, passes,
                seconds, ratings * passes / seconds, seconds / localSeconds));
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "n/a";
        }
    }
}
