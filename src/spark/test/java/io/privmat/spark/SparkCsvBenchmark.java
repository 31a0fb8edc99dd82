package io.privmat.spark;

import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Rows per second of the Gram pass over an EXTERNAL CSV on embedded {@code local[2]} — privmat's
 * line reader ({@link CsvSource}: parse, the declared fields as doubles, clip, quantise, exact
 * blocks) — against the same pass over the same rows in Parquet's d scalar columns, written by
 * Spark from the same values, in the same run (docs/scale-out.md, "CSV"). The two statistics must
 * be the same bits (the same rows, exactly: the CSV holds Java's shortest decimal of each double).
 *
 * <p>{@code -Dprivmat.bench.rows} (default 20000) seeded rows (six decimals each, or all digits with
 * {@code -Dprivmat.bench.fullDigits=true}) of {@code -Dprivmat.bench.d} (default
 * 784) columns, 4 files each; {@code -Dprivmat.bench.reps} (default 3) alternating repetitions,
 * medians reported. Run: {@code ./mvnw -o test -Pspark,benchmark -Dtest=SparkCsvBenchmark}.
 */
@Tag("benchmark")
class SparkCsvBenchmark {

    @Test
    void gramPass() throws Exception {
        int n = Integer.getInteger("privmat.bench.rows", 20_000);
        int d = Integer.getInteger("privmat.bench.d", 784);
        int reps = Integer.getInteger("privmat.bench.reps", 3);
        SplittableRandom random = new SplittableRandom(34);
        double[][] x = new double[n][d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                // six decimals, as measured features often have (Spark writes each double's shortest
                // decimal, e.g. 0.012345): -Dprivmat.bench.fullDigits=true keeps all 17 digits
                double v = random.nextDouble(-0.05, 0.05);
                row[j] = Boolean.getBoolean("privmat.bench.fullDigits") ? v : Math.round(v * 1e6) / 1e6;
            }
        }
        var dir = SparkTestData.tempDir();
        ExternalSchema csv = new ExternalSchema(SparkTestData.write(x, dir, "csv", ExternalSchema.Format.CSV, 4),
                ExternalSchema.Format.CSV, SparkTestData.columns(d), null);
        ExternalSchema parquet = new ExternalSchema(SparkTestData.write(x, dir, "parquet",
                ExternalSchema.Format.PARQUET, 4), ExternalSchema.Format.PARQUET, SparkTestData.columns(d), null);
        var facts = SparkTestData.facts(d, 1.0, null, NeighbouringRelation.ADD_REMOVE);
        double[] ours = new double[reps];
        double[] columns = new double[reps];
        double[] a = null;
        double[] b = null;
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            a = SparkTestData.access(csv, facts, new SparkTestData.Recorder()).gram(true).gram();
            ours[r] = (System.nanoTime() - t0) / 1e9;
            t0 = System.nanoTime();
            b = SparkTestData.access(parquet, facts, new SparkTestData.Recorder()).gram(true).gram();
            columns[r] = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "round %d: CSV %.2f s, Parquet columns %.2f s%n", r, ours[r], columns[r]);
        }
        if (!Arrays.equals(a, b)) {
            throw new AssertionError("the CSV and Parquet statistics differ");
        }
        Arrays.sort(ours);
        Arrays.sort(columns);
        double o = ours[reps / 2];
        double c = columns[reps / 2];
        System.out.printf(Locale.ROOT, "Gram pass, %d rows × %d, local[2], medians of %d:%n"
                + "  CSV (privmat's line reader)  %.2f s  %.0f rows/s%n"
                + "  Parquet, %d scalar columns  %.2f s  %.0f rows/s%n  CSV / Parquet time %.2f%n",
                n, d, reps, o, n / o, d, c, n / c, o / c);
    }
}
