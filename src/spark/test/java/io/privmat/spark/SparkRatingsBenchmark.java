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
 * Ratings per second of a completion pass over an EXTERNAL ratings dataset on embedded
 * {@code local[2]} ({@link SparkRatings}: Parquet read, item ids, grouping by user under the public
 * bounding rule, canonical form, the per-user statistic, exact sums, tree reduction) against the
 * stored path's in-process passes over the same triples held in memory (the default
 * {@code UserPasses.of}: one validated load, then each pass over the held users), in the same
 * run: one pass alone (the Gram of the centred ratings, private SVD's statistic, without noise; on
 * Spark read and grouping included), and DP_ALS releases with T = 1 and T = 5 (on Spark the first
 * pass reads and groups, the later ones run over the users cached on the executors: (t₅ − t₁)/4 is
 * a later pass). The statistics and releases of both paths are checked equal (same seed).
 *
 * <p>The triples: user u (m = R/s users) rates s = 20 distinct items (37u + 53k) mod n, k &lt; s,
 * n = 300, with rating 1 + ⌊9·h⌋/2, h = ((id·2654435761) mod 2³²)/2³² for the triple's index id —
 * written once by Spark (8 Parquet files) into a temporary directory. Each measurement is repeated
 * ({@code -Dprivmat.bench.reps}, default 3) and the median reported. Run:
 * {@code ./mvnw -o -Pspark,benchmark test -Dtest=SparkRatingsBenchmark -Dprivmat.bench.ratings=1000000}.
 * Prints the table and writes target/benchmarks/spark-ratings.txt.
 */
@Tag("benchmark")
class SparkRatingsBenchmark {

    static final int ITEMS = 300;
    static final int CAP = 20;
    static final RatingsSchema DECLARATION = new RatingsSchema(ITEMS, null, 1, 5, CAP, RatingsSchema.Declared.USER);

    @Test
    void completionPassRatingsPerSecond() throws IOException {
        long total = Long.getLong("privmat.bench.ratings", 1_000_000L);
        int reps = Integer.getInteger("privmat.bench.reps", 3);
        int users = Math.toIntExact(total / CAP);
        long ratings = (long) users * CAP;
        Path dir = Files.createTempDirectory("privmat-ratings-bench");
        String location = dir.resolve("triples").toString();
        long written = System.nanoTime();
        SparkTestData.engine().session().range(ratings).repartition(8)
                .select(functions.concat(functions.lit("u"), functions.col("id").divide(CAP).cast("long")
                                .cast("string")).as("user"),
                        functions.pmod(functions.col("id").divide(CAP).cast("long").multiply(37)
                                .plus(functions.col("id").mod(CAP).multiply(53)), functions.lit(ITEMS)).cast("int")
                                .as("item"),
                        functions.floor(functions.pmod(functions.col("id").multiply(2654435761L),
                                functions.lit(1L << 32)).divide((double) (1L << 32)).multiply(9)).divide(2).plus(1)
                                .as("rating"))
                .write().parquet(location);
        double writeSeconds = (System.nanoTime() - written) / 1e9;
        ExternalSchema source = new ExternalSchema(location, ExternalSchema.Format.PARQUET,
                List.of("user", "item", "rating"), null, null, DECLARATION);
        InMemoryRatings held = inMemory(users);
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "Completion passes, %d ratings (%d users x %d, n = %d); cores: %d; medians of %d; Parquet written "
                        + "in %.1f s; load average before: %s%n", ratings, users, CAP, ITEMS,
                Runtime.getRuntime().availableProcessors(), reps, writeSeconds, load()));
        report.append(String.format(Locale.ROOT, "%-12s %-26s %8s %10s %14s %10s%n", "mechanism", "path", "passes",
                "seconds", "ratings/s/pass", "x local"));
        // One pass alone: the Gram of the centred ratings (private SVD's statistic, no noise).
        RatingsDomain domain = DECLARATION.domain();
        double[] sparkGram = CompletionStatistics.firstGram(access(source).ratings(), domain);
        assertThat(sparkGram).containsExactly(CompletionStatistics.firstGram(held, domain));
        double localPass = median(reps, () -> CompletionStatistics.firstGram(held, domain));
        double sparkPass = median(reps, () -> CompletionStatistics.firstGram(access(source).ratings(), domain));
        row(report, "Gram pass", "in-process (stored path)", 1, localPass, ratings, localPass);
        row(report, "Gram pass", "Spark local[2], Parquet", 1, sparkPass, ratings, localPass);
        // Whole releases: DP_ALS with T = 1 and T = 5 (the later passes run over the cached users).
        for (int t : new int[] {1, 5}) {
            Plan plan = SparkRatingsTest.plan("DP_ALS", RatingsRelation.USER, DECLARATION,
                    Map.of("rank", 4, "iterations", t));
            double[] spark = SparkRatingsTest.values(plan.release(access(source), TestNoiseSources.seeded(1)));
            double[] local = SparkRatingsTest.values(plan.release(new SparkRatingsTest.Held(held),
                    TestNoiseSources.seeded(1)));
            assertThat(spark).containsExactly(local);
            double localSeconds = median(reps, () -> plan.release(new SparkRatingsTest.Held(held),
                    TestNoiseSources.seeded(2)));
            double sparkSeconds = median(reps, () -> plan.release(access(source), TestNoiseSources.seeded(2)));
            row(report, "DP_ALS T=" + t, "in-process (stored path)", t, localSeconds, ratings, localSeconds);
            row(report, "DP_ALS T=" + t, "Spark local[2], Parquet", t, sparkSeconds, ratings, localSeconds);
        }
        report.append(String.format(Locale.ROOT, "load average after: %s%n", load()));
        System.out.print(report);
        Path out = Path.of("target/benchmarks/spark-ratings.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
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
        double[] s = seconds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s[s.length / 2];
    }

    private static void row(StringBuilder report, String name, String path, int passes, double seconds, long ratings,
            double localSeconds) {
        report.append(String.format(Locale.ROOT, "%-12s %-26s %8d %10.2f %14.0f %10.2f%n", name, path, passes,
                seconds, ratings * passes / seconds, localSeconds / seconds));
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "n/a";
        }
    }
}
