package io.privmat.mechanism.linear;

/**
 * The binary hierarchical strategy H₂ (Hay, Rastogi, Miklau, Suciu, PVLDB 2010): the attribute is
 * padded to N = 2^L ≥ n leaves and every node of the complete binary tree (2N − 1 nodes, heap
 * order: root 0, children 2h+1 and 2h+2) measures the sum of its leaves. Padding cells are always
 * 0, so measuring them costs nothing; their noisy nodes are kept so the estimate has a closed form:
 * x̂ is the first n leaves of the padded tree's least-squares estimate (unbiased; it does not use that
 * the padding is 0, so for n not a power of two it is slightly worse than least squares on the real
 * columns), with covariance the leading n × n block of K below.
 *
 * <p>With P_k the projection onto vectors constant on the level-k blocks (2^k leaves; k = 0 leaves,
 * k = L root), HᵀH = Σ_l 2^l·P_l = Σ_k (2^{k+1} − 1)·E_k with the orthogonal projections
 * E_k = P_k − P_{k+1} (P_{L+1} = 0), so K = (HᵀH)⁻¹ = Σ_k c_k·E_k with c_k = 1/(2^{k+1} − 1). The
 * least-squares estimate x̂ = K·Hᵀy and K·v are computed by block sums up and down the tree in
 * O(N); 1_rᵀK1_r for an interval r in O(L). For n a power of two this is exactly the H2 strategy of
 * the HDMM and Ektelo code (root included), whose column norms are L + 1 (L1) and √(L + 1) (L2).
 */
final class TreeFactor implements Factor {

    private final int n;
    private final int levels; // L
    private final int leaves; // N = 2^L
    /** c_k = 1/(2^{k+1} − 1). */
    private final double[] c;

    TreeFactor(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1");
        }
        this.n = n;
        int l = 0;
        while ((1L << l) < n) {
            l++;
        }
        this.levels = l;
        this.leaves = 1 << l;
        this.c = new double[l + 1];
        for (int k = 0; k <= l; k++) {
            c[k] = 1.0 / ((double) (2L << k) - 1);
        }
    }

    int levels() {
        return levels;
    }

    @Override
    public int cols() {
        return n;
    }

    @Override
    public int rows() {
        return 2 * leaves - 1;
    }

    @Override
    public void forward(double[] in, int count, double[] out) {
        int rows = rows();
        for (int f = 0; f < count; f++) {
            int o = f * rows;
            int first = leaves - 1;
            for (int i = 0; i < leaves; i++) {
                out[o + first + i] = i < n ? in[f * n + i] : 0;
            }
            for (int h = first - 1; h >= 0; h--) {
                out[o + h] = out[o + 2 * h + 1] + out[o + 2 * h + 2];
            }
        }
    }

    @Override
    public void leastSquares(double[] in, int count, double[] out) {
        int rows = rows();
        double[] node = new double[rows];
        for (int f = 0; f < count; f++) {
            int o = f * rows;
            // u = Hᵀy: per leaf, the sum of y over its ancestors (top-down).
            node[0] = in[o];
            for (int h = 1; h < rows; h++) {
                node[h] = in[o + h] + node[(h - 1) / 2];
            }
            applyK(node);
            for (int i = 0; i < n; i++) {
                out[f * n + i] = node[leaves - 1 + i];
            }
        }
    }

    /** In place: the leaves of {@code node} hold u; afterwards they hold K·u (inner nodes are scratch). */
    private void applyK(double[] node) {
        int first = leaves - 1;
        for (int h = first - 1; h >= 0; h--) {
            node[h] = node[2 * h + 1] + node[2 * h + 2];
        }
        // Top-down: val(h) = val(parent) + d_k·(block sum / 2^k), d_0 = c_0, d_k = c_k − c_{k−1}.
        int depth = 0;
        int levelStart = 0;
        for (int h = 0; h < node.length; h++) {
            if (h == 2 * levelStart + 1) {
                depth++;
                levelStart = h;
            }
            int k = levels - depth;
            double d = k == 0 ? c[0] : c[k] - c[k - 1];
            double value = d * node[h] / (double) (1L << k);
            node[h] = h == 0 ? value : value + node[(h - 1) / 2];
        }
    }

    @Override
    public double maxColumnL1() {
        return levels + 1;
    }

    @Override
    public double maxColumnL2() {
        return Math.sqrt(levels + 1);
    }

    @Override
    public boolean gramNonNegative() {
        return true;
    }

    @Override
    public Covariance1D covariance() {
        return new Covariance1D() {
            @Override
            public int n() {
                return n;
            }

            @Override
            public double rangeQuadratic(int lo, int hi) {
                return treeRangeQuadratic(lo, hi);
            }

            @Override
            public void apply(double[] in, int count, double[] out) {
                double[] node = new double[rows()];
                for (int f = 0; f < count; f++) {
                    java.util.Arrays.fill(node, 0);
                    System.arraycopy(in, f * n, node, leaves - 1, n);
                    applyK(node);
                    System.arraycopy(node, leaves - 1, out, f * n, n);
                }
            }

            @Override
            public double[] dense() {
                return treeDense();
            }
        };
    }

    /** Σ_k c_k (‖P_k 1_r‖² − ‖P_{k+1} 1_r‖²), ‖P_k 1_r‖² = Σ_blocks (overlap)²/2^k. */
    double treeRangeQuadratic(int lo, int hi) {
        double total = 0;
        double previous = 0; // ‖P_{k+1} 1_r‖² as we go down from the root
        for (int k = levels; k >= 0; k--) {
            long b = 1L << k;
            long f = lo >> k;
            long l = hi >> k;
            double norm;
            if (f == l) {
                double o = hi - lo + 1;
                norm = o * o / b;
            } else {
                double o1 = (f + 1) * b - lo;
                double o2 = hi - l * b + 1;
                norm = (o1 * o1 + o2 * o2) / b + (double) (l - f - 1) * b;
            }
            total += c[k] * (norm - previous);
            previous = norm;
        }
        return total;
    }

    /** K_ij = Σ_{k ≥ k*(i,j)} d_k/2^k, k* = bit length of i XOR j (the level of their common block). */
    double[] treeDense() {
        double[] suffix = new double[levels + 2];
        for (int k = levels; k >= 0; k--) {
            double d = k == 0 ? c[0] : c[k] - c[k - 1];
            suffix[k] = suffix[k + 1] + d / (double) (1L << k);
        }
        double[] out = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                int kStar = 32 - Integer.numberOfLeadingZeros(i ^ j);
                out[i * n + j] = suffix[kStar];
            }
        }
        return out;
    }
}
