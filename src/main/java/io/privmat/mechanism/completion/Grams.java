package io.privmat.mechanism.completion;

import java.util.Arrays;
import java.util.stream.IntStream;

/** Gram matrices Σᵢ aᵢᵀaᵢ of sparse user rows, formed (n × n) or applied (O(|Ω|) per product). */
final class Grams {

    /** Row-ownership tasks for the dense Gram: a fixed number, so sums are the same on every machine. */
    private static final int TASKS = 4;

    private Grams() {}

    /** The gradient rows Aᵢ = P_Ω(Yᵢ − Y*ᵢ) as one value per observed rating. */
    static double[] gradient(RatingsMatrix data, double[] y) {
        double[] r = data.values();
        double[] a = new double[r.length];
        for (int p = 0; p < a.length; p++) {
            a[p] = y[p] - r[p];
        }
        return a;
    }

    static double[] gradientGram(RatingsMatrix data, double[] y) {
        return gram(data, gradient(data, y));
    }

    /**
     * The gradient rows with each user's row scaled to norm ≤ {@code clip} (rows already within it are
     * unchanged): the bound the Gram's sensitivity is calibrated to, enforced here rather than assumed.
     */
    static double[] clippedGradient(RatingsMatrix data, double[] y, double clip) {
        double[] a = gradient(data, y);
        for (int u = 0; u < data.users(); u++) {
            clipRow(a, data.start(u), data.end(u), clip);
        }
        return a;
    }

    /**
     * Scales a[from, to) to norm ≤ clip; a row whose norm is not finite (a NaN or infinite entry, or
     * squares that overflow) becomes zero, which is within the clip too: the sensitivity argument holds
     * for every row the local steps can produce (docs/adr/0011-a-failure-is-an-output.md).
     */
    static void clipRow(double[] a, int from, int to, double clip) {
        double norm2 = 0;
        for (int p = from; p < to; p++) {
            norm2 += a[p] * a[p];
        }
        double norm = Math.sqrt(norm2);
        if (!Double.isFinite(norm)) {
            Arrays.fill(a, from, to, 0.0);
        } else if (norm > clip) {
            double s = clip / norm;
            for (int p = from; p < to; p++) {
                a[p] *= s;
            }
        }
    }

    /**
     * Σᵢ aᵢᵀaᵢ (n × n, row-major) for per-rating values {@code a}; only the upper triangle is filled
     * (each user's items are ascending). Task k owns the rows i ≡ k (mod 4), so every entry is summed
     * in user order whatever the number of cores.
     */
    static double[] gram(RatingsMatrix data, double[] a) {
        int n = data.domain().items();
        double[] w = new double[n * n];
        int[] items = data.items();
        int m = data.users();
        IntStream.range(0, TASKS).parallel().forEach(task -> {
            for (int u = 0; u < m; u++) {
                int from = data.start(u);
                int to = data.end(u);
                for (int p = from; p < to; p++) {
                    int i = items[p];
                    if (i % TASKS != task) {
                        continue;
                    }
                    double ap = a[p];
                    int row = i * n;
                    for (int q = p; q < to; q++) {
                        w[row + items[q]] += ap * a[q];
                    }
                }
            }
        });
        return w;
    }

    /** out = M·x for a symmetric dense n × n M. */
    static void multiplyDense(double[] m, int n, double[] x, double[] out) {
        IntStream.range(0, n).parallel().forEach(i -> {
            double s = 0;
            int row = i * n;
            for (int j = 0; j < n; j++) {
                s += m[row + j] * x[j];
            }
            out[i] = s;
        });
    }

    /** Entries of the packed upper triangle of an n × n matrix. */
    static int packedSize(int n) {
        return Math.toIntExact((long) n * (n + 1) / 2);
    }

    /**
     * Adds q_p·q_q for p ≤ q (items ascending, so entry (items[p], items[q]) is in the upper triangle)
     * to the packed upper triangle: one user's exact Gram contribution, at most one term per entry.
     */
    static void addPacked(long[] q, int[] items, int from, int count, int n, ExactSums out) {
        for (int p = 0; p < count; p++) {
            long qp = q[p];
            if (qp == 0) {
                continue;
            }
            int i = items[from + p];
            long row = (long) i * n - (long) i * (i - 1) / 2 - i;
            for (int k = p; k < count; k++) {
                out.add((int) (row + items[from + k]), qp * q[k]);
            }
        }
    }

    /** The packed upper triangle as an n × n row-major matrix with its upper triangle filled, scaled. */
    static double[] unpack(ExactSums sums, int n, double scale) {
        double[] w = new double[n * n];
        int p = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                w[i * n + j] = sums.value(p++, scale);
            }
        }
        return w;
    }
}
