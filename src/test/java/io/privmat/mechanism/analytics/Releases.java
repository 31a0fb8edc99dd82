package io.privmat.mechanism.analytics;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.covariance.AnalyzeGaussMechanism;
import io.privmat.mechanism.covariance.WishartMechanism;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.mechanism.sketch.JlMatrixSketch;
import java.math.BigDecimal;
import java.util.SplittableRandom;

/** Seeded releases of the three covariance-type mechanisms on a given Gram matrix, for tests and benchmarks. */
public final class Releases {

    private Releases() {}

    /** Which mechanism released the second moment. */
    public enum Kind { ANALYZE_GAUSS, WISHART, JL }

    /** The release of {@code gram} (d × d, rows of norm ≤ 1) by {@code kind} at (ε, δ = 1e-6), seeded. */
    public static SecondMoment release(Kind kind, double[] gram, int d, double epsilon, long seed) {
        var random = TestNoiseSources.seeded(seed);
        return switch (kind) {
            case ANALYZE_GAUSS -> {
                AnalyzeGaussMechanism ag = AnalyzeGaussMechanism.forApproxDp(d, 1.0, NeighbouringRelation.REPLACE_ONE,
                        epsilon, 1e-6);
                yield new SecondMoment(d, ag.release(gram, random), new NoiseModel.Gaussian(ag.sigma(), ag.granularity()));
            }
            case WISHART -> {
                WishartMechanism w = WishartMechanism.of(d, 1.0, BigDecimal.valueOf(epsilon), new BigDecimal("1e-6"));
                yield new SecondMoment(d, w.release(gram, random), new NoiseModel.Wishart(w.degrees(), 1.0,
                        w.granularity()));
            }
            case JL -> {
                JlMatrixSketch jl = JlMatrixSketch.of(d, 1.0, BigDecimal.valueOf(epsilon), new BigDecimal("1e-6"), 0.2,
                        0.05);
                yield SecondMoment.ofSketch(jl.release(gram, random), jl.parameters().r(), d, jl.parameters().floor());
            }
        };
    }

    /**
     * A regression dataset: n rows (x, y) with x ∈ ℝ^{d−1} of independent coordinates with standard
     * deviations 0.3, 0.2, 0.1, … and y = xᵀβ + 0.05·noise, each row scaled to norm ≤ 1.
     */
    public static double[][] regressionRows(int n, int d, double[] beta, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[][] rows = new double[n][d];
        for (int i = 0; i < n; i++) {
            double y = 0;
            for (int j = 0; j < d - 1; j++) {
                rows[i][j] = random.nextGaussian() * 0.3 / (1 + j);
                y += rows[i][j] * beta[j];
            }
            rows[i][d - 1] = y + 0.05 * random.nextGaussian();
            clip(rows[i]);
        }
        return rows;
    }

    static void clip(double[] row) {
        double n = 0;
        for (double v : row) {
            n += v * v;
        }
        n = Math.sqrt(n);
        if (n > 1) {
            for (int j = 0; j < row.length; j++) {
                row[j] /= n;
            }
        }
    }

    public static double[] gram(double[][] rows) {
        int d = rows[0].length;
        GramAccumulator acc = new GramAccumulator(d);
        for (double[] r : rows) {
            acc.addRows(r, 0, 1);
        }
        return acc.result();
    }

    /** The data's ridge solution (A + λI)⁻¹b for predictors 0..d−2 and response d−1, from the exact Gram. */
    public static double[] ridgeTruth(double[] gram, int d, double lambda) {
        int p = d - 1;
        double[] a = new double[p * p];
        double[] b = new double[p];
        for (int i = 0; i < p; i++) {
            for (int j = 0; j < p; j++) {
                a[i * p + j] = gram[i * d + j] + (i == j ? lambda : 0);
            }
            b[i] = gram[i * d + p];
        }
        return LinearRegression.Inverse.of(a, p).times(b);
    }
}
