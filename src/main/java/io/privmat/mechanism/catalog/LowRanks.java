package io.privmat.mechanism.catalog;

import io.privmat.mechanism.lowrank.Factorization;
import java.util.LinkedHashMap;
import java.util.Map;

/** Shared pieces of the low-rank mechanisms. */
final class LowRanks {

    private LowRanks() {}

    static Param k(int max) {
        return Param.integer("k", 1, max, null, "the rank (required; at most min(d, " + max + "))");
    }

    static Param shrink() {
        return Param.bool("shrink", false, "shrink the released singular values by the public noise level "
                + "(Gavish–Donoho; free post-processing)");
    }

    /** The rows X as one vector (row-major), for the contract tests' sensitivity check. */
    static double[] rows(DataAccess data, int d) {
        double[][] all = {new double[0]};
        data.rows(1).forEachBlock((block, count, first) -> {
            double[] grown = java.util.Arrays.copyOf(all[0], all[0].length + count * d);
            System.arraycopy(block, 0, grown, all[0].length, count * d);
            all[0] = grown;
        });
        return all[0];
    }

    /** XᵀX·V for the public V = the first k unit vectors (the power method's per-step statistic). */
    static double[] gramTimesBasis(DataAccess data, int d, int k) {
        double[] c = data.gram(false).gram();
        double[] out = new double[d * k];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < k; j++) {
                out[i * k + j] = c[i * d + j];
            }
        }
        return out;
    }

    static Map<String, Object> noise(String distribution) {
        Map<String, Object> noise = new LinkedHashMap<>();
        noise.put("distribution", distribution);
        return noise;
    }

    static Release factors(Factorization f, QueryKind kind) {
        return new Release.Factors(f, kind == QueryKind.LOW_RANK);
    }
}
