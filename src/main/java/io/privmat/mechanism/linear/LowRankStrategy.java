package io.privmat.mechanism.linear;

import io.privmat.mechanism.linalg.LinearAlgebraOps;
import org.jspecify.annotations.Nullable;

/**
 * The Low-Rank Mechanism's factorisation W ≈ B·L (Yuan, Zhang, Winslett, Xiao, Yang, Hao, PVLDB
 * 2012), stored as L (r × n) and M (n × r) with B = W·M, so that the answers are
 * B·(Lx + z) = W·(M·(Lx + z)) = W·x̂ with the n-vector x̂ = M·y: no m × r matrix is held.
 *
 * <p>{@link #maxColumnL1()} is Δ_L = max_j ‖L e_j‖₁ recomputed from the final L (never assumed to
 * be 1). When the solver failed (see {@link #fallback()}) the strategy is L = I (Laplace noise on x,
 * as the authors' code falls back to), with M = I.
 */
public final class LowRankStrategy implements Strategy {

    private final int n;
    private final int r;
    private final double[] l;
    private final double[] m;
    private final double deltaL;
    private final double residualFrobenius;
    private final double traceBtB;
    private final int workloadRank;
    private final boolean fallback;
    private final StrategyInfo info;
    private volatile double @Nullable [] covariance;

    LowRankStrategy(int n, int r, double[] l, double[] m, double residualFrobenius, double traceBtB, int workloadRank,
            boolean fallback, StrategyInfo info) {
        if (!fallback && (l.length != r * n || m.length != n * r)) {
            throw LinearQueryException.shape("strategy", "L must be r × n and M n × r");
        }
        this.n = n;
        this.r = fallback ? n : r;
        this.l = l;
        this.m = m;
        this.fallback = fallback;
        this.deltaL = fallback ? 1 : columnL1(l, r, n);
        this.residualFrobenius = residualFrobenius;
        this.traceBtB = traceBtB;
        this.workloadRank = workloadRank;
        this.info = info;
    }

    static double columnL1(double[] l, int r, int n) {
        double[] s = new double[n];
        for (int i = 0; i < r; i++) {
            for (int j = 0; j < n; j++) {
                s[j] += Math.abs(l[i * n + j]);
            }
        }
        double max = 0;
        for (double v : s) {
            max = Math.max(max, v);
        }
        return max;
    }

    @Override
    public String kind() {
        return "LOW_RANK";
    }

    @Override
    public int cells() {
        return n;
    }

    /** r, the number of noisy measurements. */
    @Override
    public long rows() {
        return r;
    }

    public int rank() {
        return r;
    }

    /** rank(W) at tolerance 0.01 on the singular values (the authors' default). */
    public int workloadRank() {
        return workloadRank;
    }

    /** True when the solver failed its checks and the strategy is L = I. */
    public boolean fallback() {
        return fallback;
    }

    /** ‖W − BL‖_F of the final factors (the answers' bias is (BL − W)x, data-dependent). */
    public double residualFrobenius() {
        return residualFrobenius;
    }

    /** tr(BᵀB) (= ‖W‖_F² for the fallback). */
    public double traceBtB() {
        return traceBtB;
    }

    /** L (r × n, row-major), a copy; the identity for the fallback. */
    public double[] l() {
        return fallback ? identity(n) : l.clone();
    }

    /** M (n × r, row-major), a copy: B = W·M. */
    public double[] m() {
        return fallback ? identity(n) : m.clone();
    }

    double[] lView() {
        return l;
    }

    double[] mView() {
        return m;
    }

    private static double[] identity(int n) {
        double[] i = new double[n * n];
        for (int j = 0; j < n; j++) {
            i[j * n + j] = 1;
        }
        return i;
    }

    @Override
    public double maxColumnL1() {
        return deltaL;
    }

    @Override
    public double maxColumnL2() {
        if (fallback) {
            return 1;
        }
        double[] s = new double[n];
        for (int i = 0; i < r; i++) {
            for (int j = 0; j < n; j++) {
                s[j] += l[i * n + j] * l[i * n + j];
            }
        }
        double max = 0;
        for (double v : s) {
            max = Math.max(max, v);
        }
        return Math.sqrt(max);
    }

    @Override
    public boolean gramNonNegative() {
        return fallback;
    }

    @Override
    public double[] measure(double[] x) {
        if (x.length != n) {
            throw LinearQueryException.shape("x", "expected " + n + " cells but got " + x.length);
        }
        if (fallback) {
            return x.clone();
        }
        double[] y = new double[r];
        LinearAlgebraOps.multiply(l, r, n, x, 1, y);
        return y;
    }

    @Override
    public double[] estimate(double[] y) {
        if (y.length != r) {
            throw LinearQueryException.shape("y", "expected " + r + " measurements but got " + y.length);
        }
        if (fallback) {
            return y.clone();
        }
        double[] x = new double[n];
        LinearAlgebraOps.multiply(m, n, r, y, 1, x);
        return x;
    }

    /** M·Mᵀ (n × n): Cov(x̂) per unit noise variance. */
    double[] mmT() {
        double[] k = covariance;
        if (k == null) {
            k = new double[n * n];
            if (fallback) {
                for (int j = 0; j < n; j++) {
                    k[j * n + j] = 1;
                }
            } else {
                LinearAlgebraOps.multiplyTransB(m, n, r, m, n, k);
            }
            covariance = k;
        }
        return k;
    }

    @Override
    public CellCovariance covariance(double noiseVariance, Domain domain) {
        if (domain.cells() != n) {
            throw LinearQueryException.shape("strategy", "the strategy has " + n + " cells, the domain "
                    + domain.cells());
        }
        if (fallback) {
            java.util.List<Covariance1D> identity = new java.util.ArrayList<>();
            for (int i = 0; i < domain.attributes(); i++) {
                identity.add(Covariance1D.identity(domain.size(i)));
            }
            return new CellCovariance.Product(noiseVariance, identity);
        }
        if (domain.attributes() == 1) {
            return new CellCovariance.Product(noiseVariance, java.util.List.of(Covariance1D.dense(n, mmT())));
        }
        return new CellCovariance.Dense(noiseVariance, mmT(), domain);
    }

    @Override
    public StrategyInfo info() {
        return info;
    }

    @Override
    public String toString() {
        return "LOW_RANK strategy r = " + r + ", Δ_L = " + deltaL + ", ‖W − BL‖_F = " + residualFrobenius
                + (fallback ? " (fallback L = I)" : "");
    }
}
