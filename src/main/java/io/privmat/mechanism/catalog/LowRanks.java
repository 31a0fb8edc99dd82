package io.privmat.mechanism.catalog;

/** Shared pieces of the low-rank mechanisms. */
public final class LowRanks {

    private LowRanks() {}

    /**
     * The rank of a mechanism whose rank is post-processing (its noise does not depend on k): absent,
     * every component whose released singular value exceeds the noise's bound is kept
     * (docs/mechanisms/catalogue.md, "Defaults").
     */
    public static Param kAuto(int max) {
        return Param.integer("k", 1, max, null, "the rank, at most min(d, " + max + "); default: every component "
                + "whose released singular value exceeds the noise's 95% bound (at least 1), chosen after the release "
                + "from the released values");
    }

    /** The rank of a mechanism whose noise grows with k: 1 unless asked (docs/mechanisms/catalogue.md, "Defaults"). */
    public static Param kOne(int max) {
        return Param.integer("k", 1, max, 1, "the rank, at most min(d, " + max + "); default 1 (the noise grows "
                + "with k: ask for more when the result resolves every component it has)");
    }

    /** How many of {@code values} exceed {@code bound}: at least 1 (the top component is always kept). */
    public static int aboveNoise(double[] values, double bound) {
        int k = 0;
        for (double v : values) {
            k += v > bound ? 1 : 0;
        }
        return Math.max(1, k);
    }

    /** The first {@code k} components of a factorisation (u, s, v cut to k columns). */
    public static Factorization trim(Factorization f, int k) {
        if (k >= f.k()) {
            return f;
        }
        return new Factorization(f.u() == null ? null : columns(f.u(), f.m(), f.k(), k),
                java.util.Arrays.copyOf(f.s(), k), columns(f.v(), f.d(), f.k(), k), f.m(), f.d(), k, f.facts());
    }

    /** The first {@code k} columns of a rows × cols row-major matrix. */
    public static double[] columns(double[] a, int rows, int cols, int k) {
        double[] out = new double[rows * k];
        for (int i = 0; i < rows; i++) {
            System.arraycopy(a, i * cols, out, i * k, k);
        }
        return out;
    }

    public static Param shrink() {
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
    public static double[] gramTimesBasis(DataAccess data, int d, int k) {
        double[] c = data.gram(false).gram();
        double[] out = new double[d * k];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < k; j++) {
                out[i * k + j] = c[i * d + j];
            }
        }
        return out;
    }

    public static Facts.Builder noise(String distribution) {
        Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
        noise.put(NoiseFacts.DISTRIBUTION, distribution);
        return noise;
    }

    public static Release factors(Factorization f, QueryKind kind) {
        return new Release.Factors(f, kind == QueryKind.LOW_RANK);
    }
}
