package io.privmat.mechanism.analytics;

import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Sparse and non-negative principal components of a released second moment, by deterministic power
 * iterations on the debiased matrix S = Ĉ − τI: no randomness, a fixed number of iterations and a
 * start computed from the release only. Free post-processing.
 *
 * <p>Both iterate on S + cI with c = max(0, −λ_min(S)), which makes S + cI positive semi-definite
 * (so each step ascends xᵀSx) without changing the objective xᵀSx over unit vectors. Further
 * components come from projection deflation S ← (I − xxᵀ)S(I − xxᵀ) (Mackey, NIPS 2008), which keeps
 * S + cI semi-definite.
 *
 * <p><b>Error statement.</b> For each component x the variance it explains in the data, xᵀXᵀXx, gets
 * an interval from the release's {@link NoiseModel.Envelope}: uniform over every s-sparse unit vector
 * (union bound over the C(d, s) supports) for sparse PCA, over every unit vector for non-negative
 * PCA. So the intervals hold for all components at once, although the components were chosen from the
 * release. Estimates below 0 are clamped to 0 (as are the interval ends).
 */
public final class PrincipalComponents {

    /** Largest number of components per request. */
    public static final int MAX_COMPONENTS = 50;
    /** Largest number of iterations per component. */
    public static final int MAX_ITERATIONS = 1000;

    private PrincipalComponents() {}

    /** Components (d × k, row-major) with their supports and explained-variance intervals. */
    public record Result(int d, int k, double[] components, int[][] supports, List<Bounds> explainedVariance,
            double level) {}

    /**
     * Sparse PCA by the truncated power method (Yuan and Zhang, JMLR 2013): component c starts from the
     * s largest-magnitude entries of the c-th eigenvector of S (normalised), then repeats
     * x ← truncate_s(S₊x)/‖·‖, keeping the s entries of largest magnitude (ties to the lower index).
     * (A start from the s largest diagonal entries, also in Yuan and Zhang, stalled on wrong supports
     * under heavy noise: docs/accuracy/analytics.md.)
     */
    public static Result sparse(SecondMoment release, int k, int s, int iterations, double level) {
        int d = release.d();
        checkCommon(d, k, iterations, level);
        AnalyticsArgumentException.check(s >= 1 && s <= d, "s", "[1, " + d + "]", "s must be in [1, " + d + "]");
        double[] work = release.debiased();
        SymmetricEigen eigen = LinearAlgebra.eigen(work, d);
        double shift = Math.max(0, -eigen.values()[d - 1]);
        double[] components = new double[d * k];
        int[][] supports = new int[k][];
        List<Bounds> explained = new ArrayList<>();
        NoiseModel.Envelope envelope = release.noise().sparseEnvelope(d, s, 1 - level);
        for (int c = 0; c < k; c++) {
            double[] start = new double[d];
            for (int i = 0; i < d; i++) {
                start[i] = eigen.vectors()[i * d + c];
            }
            int[] support = top(abs(start), s);
            double[] x = new double[d];
            for (int i : support) {
                x[i] = start[i];
            }
            normalise(x);
            for (int it = 0; it < iterations; it++) {
                double[] y = times(work, d, x, shift);
                int[] next = top(abs(y), s);
                double[] candidate = new double[d];
                for (int i : next) {
                    candidate[i] = y[i];
                }
                if (!normalise(candidate)) {
                    break;
                }
                x = candidate;
                support = next;
            }
            orient(x);
            store(components, d, k, c, x);
            int[] sorted = support.clone();
            Arrays.sort(sorted);
            supports[c] = sorted;
            explained.add(envelope.invert(quadratic(release.matrix(), d, x), release.noise().shift()));
            deflate(work, d, x);
        }
        return new Result(d, k, components, supports, explained, level);
    }

    /**
     * Non-negative PCA by projected power iteration (cf. Montanari and Richard, IEEE Trans. IT 2016):
     * from x = 1/√d, repeat x ← max(S₊x, 0)/‖·‖; should every entry vanish, restart from eⱼ with j the
     * largest diagonal entry of S (deterministic).
     */
    public static Result nonNegative(SecondMoment release, int k, int iterations, double level) {
        int d = release.d();
        checkCommon(d, k, iterations, level);
        double[] work = release.debiased();
        double shift = shift(work, d);
        double[] components = new double[d * k];
        int[][] supports = new int[k][];
        List<Bounds> explained = new ArrayList<>();
        NoiseModel.Envelope envelope = release.noise().envelope(d, 1 - level);
        for (int c = 0; c < k; c++) {
            double[] x = new double[d];
            Arrays.fill(x, 1 / Math.sqrt(d));
            for (int it = 0; it < iterations; it++) {
                double[] y = times(work, d, x, shift);
                for (int i = 0; i < d; i++) {
                    y[i] = Math.max(0, y[i]);
                }
                if (!normalise(y)) {
                    y = new double[d];
                    y[top(diagonal(work, d), 1)[0]] = 1;
                }
                x = y;
            }
            store(components, d, k, c, x);
            double[] found = x;
            supports[c] = java.util.stream.IntStream.range(0, d).filter(i -> found[i] > 0).toArray();
            explained.add(envelope.invert(quadratic(release.matrix(), d, x), release.noise().shift()));
            deflate(work, d, x);
        }
        return new Result(d, k, components, supports, explained, level);
    }

    private static void checkCommon(int d, int k, int iterations, double level) {
        int max = Math.min(d, MAX_COMPONENTS);
        AnalyticsArgumentException.check(k >= 1 && k <= max, "k", "[1, " + max + "]", "k must be in [1, " + max + "]");
        AnalyticsArgumentException.check(iterations >= 1 && iterations <= MAX_ITERATIONS, "iterations",
                "[1, " + MAX_ITERATIONS + "]", "iterations must be in [1, " + MAX_ITERATIONS + "]");
        AnalyticsArgumentException.level(level);
    }

    /** c = max(0, −λ_min(S)). */
    static double shift(double[] s, int d) {
        double[] values = LinearAlgebra.eigen(s, d).values();
        return Math.max(0, -values[d - 1]);
    }

    static double[] times(double[] s, int d, double[] x, double shift) {
        double[] y = new double[d];
        for (int i = 0; i < d; i++) {
            double sum = shift * x[i];
            int row = i * d;
            for (int j = 0; j < d; j++) {
                sum += s[row + j] * x[j];
            }
            y[i] = sum;
        }
        return y;
    }

    static double quadratic(double[] m, int d, double[] x) {
        double total = 0;
        for (int i = 0; i < d; i++) {
            if (x[i] == 0) {
                continue;
            }
            double row = 0;
            for (int j = 0; j < d; j++) {
                row += m[i * d + j] * x[j];
            }
            total += x[i] * row;
        }
        return total;
    }

    /** S ← (I − xxᵀ)S(I − xxᵀ) = S − x(Sx)ᵀ − (Sx)xᵀ + (xᵀSx)xxᵀ, for unit x. */
    static void deflate(double[] s, int d, double[] x) {
        double[] sx = times(s, d, x, 0);
        double q = 0;
        for (int i = 0; i < d; i++) {
            q += x[i] * sx[i];
        }
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                s[i * d + j] += -x[i] * sx[j] - sx[i] * x[j] + q * x[i] * x[j];
            }
        }
    }

    private static double[] diagonal(double[] s, int d) {
        double[] out = new double[d];
        for (int i = 0; i < d; i++) {
            out[i] = s[i * d + i];
        }
        return out;
    }

    private static double[] abs(double[] y) {
        double[] out = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            out[i] = Math.abs(y[i]);
        }
        return out;
    }

    /** Indices of the s largest values, ties to the lower index. */
    static int[] top(double[] values, int s) {
        Integer[] order = new Integer[values.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Double.compare(values[b], values[a]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        int[] out = new int[s];
        for (int i = 0; i < s; i++) {
            out[i] = order[i];
        }
        return out;
    }

    /** Scales to unit norm; false (unchanged) when the vector is zero or not finite. */
    static boolean normalise(double[] x) {
        double n = LinearRegression.norm(x);
        if (!(n > 0) || !Double.isFinite(n)) {
            return false;
        }
        for (int i = 0; i < x.length; i++) {
            x[i] /= n;
        }
        return true;
    }

    /** Sign convention: the entry of largest magnitude is positive (ties to the lower index). */
    static void orient(double[] x) {
        int best = 0;
        for (int i = 1; i < x.length; i++) {
            if (Math.abs(x[i]) > Math.abs(x[best])) {
                best = i;
            }
        }
        if (x[best] < 0) {
            for (int i = 0; i < x.length; i++) {
                x[i] = -x[i];
            }
        }
    }

    static void store(double[] components, int d, int k, int c, double[] x) {
        for (int i = 0; i < d; i++) {
            components[i * k + c] = x[i];
        }
    }
}
