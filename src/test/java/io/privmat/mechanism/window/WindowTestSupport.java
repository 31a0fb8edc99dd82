package io.privmat.mechanism.window;

import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;

/** Test helpers: seeded stream keys (test code only), fixed streams, exact window sums. */
final class WindowTestSupport {

    private WindowTestSupport() {}

    /** A deterministic 32-byte key for seeded runs (production keys come from SecureRandom). */
    static byte[] key(long seed) {
        byte[] k = new byte[32];
        new SplittableRandom(seed).nextBytes(k);
        return k;
    }

    /** n rows of width d with norms in [0.3, 1], from a seed. */
    static double[] rows(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < n; i++) {
            double norm = 0;
            for (int c = 0; c < d; c++) {
                x[i * d + c] = r.nextDouble(-1, 1);
                norm += x[i * d + c] * x[i * d + c];
            }
            double target = r.nextDouble(0.3, 1.0);
            for (int c = 0; c < d; c++) {
                x[i * d + c] *= target / Math.sqrt(norm);
            }
        }
        return x;
    }

    /** Σ aaᵀ over rows [from, to) of a row-major matrix, d×d row-major. */
    static double[] gram(double[] rows, int d, int from, int to) {
        double[] g = new double[d * d];
        for (int r = from; r < to; r++) {
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    g[i * d + j] += rows[r * d + i] * rows[r * d + j];
                }
            }
        }
        return g;
    }

    /** The exact window Gram after block {@code block} of a ROW_COUNT stream. */
    static double[] exactWindow(double[] rows, int d, int blockRows, int windowBlocks, long block) {
        long first = Math.max(0, block - windowBlocks + 1);
        return gram(rows, d, (int) (first * blockRows), (int) ((block + 1) * blockRows));
    }

    /** A deep copy, as a store would hand the state back after a restart. */
    static WindowState copy(WindowState s) {
        return new WindowState(s.mechanism(), s.d(), s.completedBlocks(), s.openRows(), s.openBlock().clone(),
                deep(s.secret()), deep(s.published()));
    }

    private static SortedMap<Long, double[]> deep(SortedMap<Long, double[]> m) {
        SortedMap<Long, double[]> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.clone()));
        return out;
    }
}
