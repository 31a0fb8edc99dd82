package io.privmat.mechanism.catalog;

import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.noise.GaussianMatrices;
import io.privmat.mechanism.noise.NoiseSource;
import java.util.Arrays;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Synthetic data with the same public facts as a dataset, for a dry run (docs/dry-run.md): made from
 * {@link PublicFacts} and a public stand-in size only, so it cannot depend on, or reveal, anything
 * private; it never sees the dataset's rows. Its randomness is the caller's (a fresh secure source in
 * the service), so a stand-in is not reproducible and means nothing about the real data.
 *
 * <ul>
 *   <li>MATRIX: n rows of d columns, each a common direction (1, …, 1)/√d plus Gaussian variation of
 *       variance 1/j along axis j (a decaying spectrum), scaled to a norm uniform in [B/2, B];</li>
 *   <li>GRAPH: n vertices in two halves, edges of weight 1 drawn with probability four times higher
 *       inside a half than across, {@code size} edges in all (the edge count is private: a stand-in);</li>
 *   <li>HISTOGRAM: {@code size} records over the cells in proportions drawn from a flat Dirichlet,
 *       counts rounded to integers;</li>
 *   <li>RATINGS: {@code size} users, each rating a uniform 1..s of the n items along a rank-two taste
 *       (two user groups liking opposite halves of the items) plus noise, inside [lo, hi].</li>
 * </ul>
 */
public final class StandInData implements DataAccess {

    /** Stand-in size when the real one is private and the request names none. */
    public static final long DEFAULT_SIZE = 1000;
    /** Largest stand-in: matrix entries, edges, ratings (a dry run is computed while the caller waits). */
    public static final long MAX_ENTRIES = 5_000_000L;
    /**
     * Largest matrix dimension d of a dry run: a stand-in's Gram XᵀX and a d×d eigendecomposition are
     * computed while the caller waits, and their work grows with d² and d³.
     */
    public static final int MAX_COLUMNS = 1000;
    /** Largest n·d² of a matrix stand-in (the work of its Gram): 1000 rows at d = 1000. */
    public static final long MAX_GRAM_WORK = 1_000_000_000L;
    /** Largest stand-in graph. */
    public static final long MAX_EDGES = 1_000_000L;
    /** Largest stand-in histogram record count (counts are computed per cell, not per record). */
    public static final long MAX_RECORDS = 1_000_000_000_000L;

    private final PublicFacts facts;
    private final int d;
    private final double @Nullable [] rows;
    private final int rowCount;
    private final int @Nullable [] edgeList;
    private final double @Nullable [] counts;
    private final @Nullable RatingsSource ratings;

    private StandInData(PublicFacts facts, double @Nullable [] rows, int rowCount, int @Nullable [] edgeList,
            double @Nullable [] counts, @Nullable RatingsSource ratings) {
        this.facts = facts;
        this.d = facts.cols();
        this.rows = rows;
        this.rowCount = rowCount;
        this.edgeList = edgeList;
        this.counts = counts;
        this.ratings = ratings;
    }

    /**
     * The largest stand-in size for these facts: rows (MATRIX: at most {@link #MAX_ENTRIES} entries and
     * {@link #MAX_GRAM_WORK} for n·d²), edges (GRAPH), records (HISTOGRAM) or users (RATINGS).
     *
     * @throws PlanningException (DATASET_TOO_LARGE) for a matrix of more than {@link #MAX_COLUMNS} columns
     */
    public static long maxSize(PublicFacts facts) {
        return switch (facts.shape()) {
            case MATRIX -> {
                long d = facts.cols();
                if (d > MAX_COLUMNS) {
                    throw new PlanningException(PlanningException.Reason.DATASET_TOO_LARGE, "A dry run takes matrices "
                            + "of at most " + MAX_COLUMNS + " columns (its stand-in's Gram and decompositions are "
                            + "computed while the caller waits); this dataset has " + d + ". Quote the query instead.",
                            Map.of("limit", MAX_COLUMNS, "columns", d));
                }
                yield Math.max(1, Math.min(MAX_ENTRIES / d, MAX_GRAM_WORK / (d * d)));
            }
            // At most half of all vertex pairs, so that distinct pairs are found quickly.
            case GRAPH -> Math.max(1, Math.min(MAX_EDGES, (long) facts.cols() * (facts.cols() - 1) / 4));
            case HISTOGRAM -> MAX_RECORDS;
            case RATINGS -> Math.max(1, MAX_ENTRIES / facts.ratings().domain().perUserCap());
            default -> throw PlanningException.invalid("dryRun", "MATRIX, GRAPH, HISTOGRAM or RATINGS",
                    "a " + facts.shape() + " dataset has no stand-in");
        };
    }

    /**
     * Synthetic data of {@code size} rows, edges, records or users with {@code facts}' public shape.
     *
     * @throws IllegalArgumentException when size is outside [1, {@link #maxSize}]
     */
    public static StandInData of(PublicFacts facts, long size, NoiseSource random) {
        if (size < 1 || size > maxSize(facts)) {
            throw new IllegalArgumentException("stand-in size " + size + " outside [1, " + maxSize(facts) + "]");
        }
        return switch (facts.shape()) {
            case MATRIX -> new StandInData(facts, matrix(facts, (int) size, random), (int) size, null, null, null);
            case GRAPH -> new StandInData(facts, null, 0, graph(facts.cols(), size, random), null, null);
            case HISTOGRAM -> new StandInData(facts, null, 0, null, histogram(facts.cols(), size, random), null);
            case RATINGS -> new StandInData(facts, null, 0, null, null, ratings(facts.ratings().domain(), (int) size,
                    random));
            default -> throw new IllegalArgumentException("no stand-in for " + facts.shape());
        };
    }

    /**
     * What a stand-in is, for the dry run's result (all public): its size in its shape's unit (the
     * other three null) and how it was generated.
     *
     * @param rows MATRIX: its rows
     * @param edges GRAPH: its edges
     * @param records HISTOGRAM: its records
     * @param users RATINGS: its users
     */
    public record Description(@Nullable Long rows, @Nullable Long edges, @Nullable Long records, @Nullable Long users,
            String generator) {}

    /** What the stand-in is, in words and numbers. */
    public Description describe() {
        return switch (facts.shape()) {
            case MATRIX -> new Description((long) rowCount, null, null, null, "each row (1, …, 1)/√d plus Gaussian "
                    + "variation of variance 1/j along axis j, scaled to a norm uniform in [B/2, B]");
            case GRAPH -> new Description(null, (long) edgeList.length / 2, null, null, "two halves of the vertices, "
                    + "an edge four times likelier inside a half than across, weight 1");
            case HISTOGRAM -> new Description(null, null, (long) Arrays.stream(counts).sum(), null, "records spread "
                    + "over the cells in proportions from a flat Dirichlet");
            default -> new Description(null, null, null, (long) ((InMemoryRatings) ratings).users(), "each user rates "
                    + "1..s items along one of two opposite tastes plus noise, inside the rating range");
        };
    }

    private static double[] matrix(PublicFacts facts, int n, NoiseSource random) {
        int d = facts.cols();
        double b = facts.rowNormBound();
        double[] out = new double[n * d];
        double[] z = new double[d];
        double mean = 1 / Math.sqrt(d);
        for (int i = 0; i < n; i++) {
            GaussianMatrices.fillStandardNormal(z, random);
            double norm = 0;
            for (int j = 0; j < d; j++) {
                z[j] = mean + z[j] / Math.sqrt(j + 1.0);
                norm += z[j] * z[j];
            }
            double scale = norm > 0 ? b * (0.5 + 0.5 * random.nextDouble()) / Math.sqrt(norm) : 0;
            for (int j = 0; j < d; j++) {
                out[i * d + j] = z[j] * scale;
            }
        }
        return out;
    }

    /** {@code edges} distinct pairs (u &lt; v), drawn inside a half with probability 0.8 (when the halves have pairs). */
    private static int[] graph(int n, long edges, NoiseSource random) {
        int half = n / 2;
        long[] keys = new long[0];
        int unique = 0;
        while (unique < edges) {
            // Draw a quarter more than missing, then sort and drop repeats; repeat until enough.
            int more = (int) Math.min(Integer.MAX_VALUE - 8 - (long) unique, (edges - unique) * 5 / 4 + 16);
            long[] grown = Arrays.copyOf(keys, unique + more);
            for (int k = unique; k < grown.length; k++) {
                int u;
                int v;
                do {
                    boolean inside = half >= 2 && random.nextDouble() < 0.8;
                    int offset = inside && random.nextBoolean() ? half : 0;
                    int range = inside ? (offset == 0 ? half : n - half) : n;
                    u = offset + (int) random.nextLong(range);
                    v = offset + (int) random.nextLong(range);
                } while (u == v);
                grown[k] = (long) Math.min(u, v) * n + Math.max(u, v);
            }
            Arrays.sort(grown);
            unique = 0;
            for (int k = 0; k < grown.length; k++) {
                if (k == 0 || grown[k] != grown[k - 1]) {
                    grown[unique++] = grown[k];
                }
            }
            keys = grown;
        }
        // Keep a uniformly chosen subset of the distinct pairs (a partial shuffle), in any order.
        for (int k = 0; k < edges; k++) {
            int pick = k + (int) random.nextLong(unique - k);
            long t = keys[k];
            keys[k] = keys[pick];
            keys[pick] = t;
        }
        int[] out = new int[(int) (2 * edges)];
        for (int k = 0; k < edges; k++) {
            out[2 * k] = (int) (keys[k] / n);
            out[2 * k + 1] = (int) (keys[k] % n);
        }
        return out;
    }

    private static double[] histogram(int cells, long records, NoiseSource random) {
        double[] p = new double[cells];
        double total = 0;
        for (int i = 0; i < cells; i++) {
            p[i] = -Math.log(1 - random.nextDouble()); // Exp(1): normalised, a flat Dirichlet
            total += p[i];
        }
        double[] counts = new double[cells];
        long placed = 0;
        for (int i = 0; i < cells; i++) {
            counts[i] = Math.floor(records * p[i] / total);
            placed += (long) counts[i];
        }
        // The remainder, one record at a time to random cells, so that the counts sum to the records.
        for (long r = placed; r < records; r++) {
            counts[(int) random.nextLong(cells)]++;
        }
        return counts;
    }

    private static RatingsSource ratings(RatingsDomain domain, int users, NoiseSource random) {
        int n = domain.items();
        int cap = domain.perUserCap();
        double mid = (domain.lo() + domain.hi()) / 2;
        double spread = (domain.hi() - domain.lo()) / 2;
        int[] ids = new int[users];
        int[] offsets = new int[users + 1];
        int[] items = new int[(int) Math.min((long) users * cap, Integer.MAX_VALUE - 8)];
        double[] values = new double[items.length];
        int[] pool = new int[n];
        for (int j = 0; j < n; j++) {
            pool[j] = j;
        }
        int at = 0;
        for (int u = 0; u < users; u++) {
            ids[u] = u;
            double taste = random.nextBoolean() ? 1 : -1;
            int count = 1 + (int) random.nextLong(cap);
            // A partial Fisher–Yates shuffle picks count distinct items.
            for (int k = 0; k < count; k++) {
                int pick = k + (int) random.nextLong(n - k);
                int t = pool[k];
                pool[k] = pool[pick];
                pool[pick] = t;
            }
            int[] chosen = Arrays.copyOf(pool, count);
            Arrays.sort(chosen);
            for (int item : chosen) {
                double sign = item < n / 2 ? taste : -taste;
                double r = mid + spread * (0.6 * sign + 0.3 * (2 * random.nextDouble() - 1));
                items[at] = item;
                values[at++] = Math.max(domain.lo(), Math.min(domain.hi(), r));
            }
            offsets[u + 1] = at;
        }
        return new InMemoryRatings(n, ids, offsets, Arrays.copyOf(items, at), Arrays.copyOf(values, at));
    }

    // ---- DataAccess ----

    private double[] requireRows() {
        if (rows == null) {
            throw new UnsupportedOperationException("this stand-in holds no matrix");
        }
        return rows;
    }

    @Override
    public double[] columnSums() {
        double[] x = requireRows();
        double[] s = new double[d];
        for (int i = 0; i < rowCount; i++) {
            for (int j = 0; j < d; j++) {
                s[j] += x[i * d + j];
            }
        }
        return s;
    }

    @Override
    public Gram gram(boolean withSums) {
        GramAccumulator g = new GramAccumulator(d);
        g.addRows(requireRows(), 0, rowCount);
        return new Gram(g.result(), withSums ? columnSums() : new double[0]);
    }

    @Override
    public RowStream rows(int passes) {
        double[] x = requireRows();
        return visitor -> visitor.block(x.clone(), rowCount, 0);
    }

    @Override
    public EdgeSource edges() {
        if (edgeList == null) {
            throw new UnsupportedOperationException("this stand-in holds no graph");
        }
        int[] e = edgeList;
        return visitor -> {
            for (int k = 0; k < e.length; k += 2) {
                visitor.edge(e[k], e[k + 1], 1.0);
            }
        };
    }

    @Override
    public double[] histogram() {
        if (counts == null) {
            throw new UnsupportedOperationException("this stand-in holds no histogram");
        }
        return counts.clone();
    }

    @Override
    public RatingsSource ratings() {
        if (ratings == null) {
            throw new UnsupportedOperationException("this stand-in holds no ratings");
        }
        return ratings;
    }
}
