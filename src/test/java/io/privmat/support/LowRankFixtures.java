package io.privmat.support;

import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.RowStream;

/** In-memory row streams and reconstruction errors for the low-rank tests and benchmarks. */
public final class LowRankFixtures {

    private LowRankFixtures() {}

    /** The m × d row-major {@code x} as a row stream, {@code blockRows} rows per block (copies, like stored chunks). */
    public static RowStream stream(double[] x, int m, int d, int blockRows) {
        return visitor -> {
            for (int start = 0; start < m; start += blockRows) {
                int count = Math.min(blockRows, m - start);
                double[] block = new double[count * d];
                System.arraycopy(x, start * d, block, 0, count * d);
                visitor.block(block, count, start);
            }
        };
    }

    /** ‖A − u·diag(s)·vᵀ‖_F / ‖A‖_F for the f.m() × f.d() row-major A = {@code x}. */
    public static double relativeError(double[] x, Factorization f) {
        int k = f.k();
        int d = f.d();
        double err = 0;
        double total = 0;
        for (int i = 0; i < f.m(); i++) {
            for (int j = 0; j < d; j++) {
                double approx = 0;
                for (int t = 0; t < k; t++) {
                    approx += f.u()[i * k + t] * f.s()[t] * f.v()[j * k + t];
                }
                double a = x[i * d + j];
                err += (a - approx) * (a - approx);
                total += a * a;
            }
        }
        return Math.sqrt(err / total);
    }
}
