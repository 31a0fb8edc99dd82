package io.privmat.mechanism.linear;

import io.privmat.mechanism.catalog.OptimizationControl;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.linalg.SymmetricEigen;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The Low-Rank Mechanism's strategy (Yuan, Zhang, Winslett, Xiao, Yang, Hao, "Low-Rank Mechanism:
 * optimizing batch queries under differential privacy", PVLDB 5(11), 2012):
 *
 * <pre>  min ½·tr(BᵀB)  s.t.  W = B·L,  ‖L e_j‖₁ ≤ 1 for every column j,</pre>
 *
 * solved by the augmented Lagrangian method of the authors' MATLAB code (LowRankDP.m), with its
 * defaults: r = ⌈1.2·rank(W)⌉ (singular values above 0.01), the "wise" SVD start scaled by √r,
 * 5 alternations per outer step of an accelerated projected-gradient L-step (at most 5 steps with
 * backtracking, Lipschitz estimate as in the code, projection of each column onto the unit L1 ball
 * by Duchi et al. 2008 with the code's 10⁻⁸ floor, a 10⁻⁶ ridge, and the ±10⁻⁵ jitter of near-zero
 * entries) and the closed-form B-step B = (βW + Π)Lᵀ(βLLᵀ + I)⁻¹; β ← min(10⁵, 5β) every 8 outer
 * steps; stop when ‖W − BL‖_F &lt; 0.01 or after 100 outer steps.
 *
 * <p><b>Reduction to the Gram</b> (exact, ours): with WᵀW = UΣ²Uᵀ and V = ΣUᵀ (rank(W) × n),
 * W = P·V with P = WUΣ⁻¹ having orthonormal columns. For any L, B_V ↦ B = P·B_V maps
 * factorisations of V to factorisations of W with the same tr(BᵀB) and the same residual
 * ‖W − BL‖_F = ‖V − B_V L‖_F, and back (B_V = PᵀB). So the solver runs on V, never on the m × n
 * W, and B = W·M with M = UΣ⁻¹B_V (n × r): answers B·y = W·(M·y).
 *
 * <p><b>Failure</b>: the code flags failure when tr(BᵀB) &gt; ‖W‖_F² or ‖W − BL‖_F &gt; 0.1; we use
 * Δ_L²·tr(BᵀB) &gt; ‖W‖_F² with Δ_L of the final L (the mechanism would be worse than Laplace noise
 * on x) or the residual above 0.1, and then fall back to L = I. Every decision reads W only: the
 * jitter draws from a {@link SplittableRandom} seeded from the workload's hash (public optimisation
 * randomness, not DP noise), so the same workload always gives the same strategy.
 */
final class LowRankSolver {

    private static final double RIDGE = 1e-6;
    private static final double BETA_MAX = 1e5;
    private static final double BETA_STOP = 1e10;

    private LowRankSolver() {}

    static LowRankStrategy solve(Workload workload, LowRankOptions options, OptimizationControl control) {
        int n = workload.cells();
        if (n > LinearLimits.MAX_DENSE_CELLS) {
            throw LinearQueryException.tooLarge("workload", "the Low-Rank Mechanism needs WᵀW dense; n", n,
                    LinearLimits.MAX_DENSE_CELLS);
        }
        double[] g = workload.denseGram();
        SymmetricEigen eig = LinearAlgebra.eigen(g, n);
        double[] lambda = eig.values();
        double[] u = eig.vectors();
        double frob2 = 0;
        for (int i = 0; i < n; i++) {
            frob2 += g[i * n + i];
        }
        int rw = 0;
        while (rw < n && Math.sqrt(Math.max(lambda[rw], 0)) > options.rankTolerance()) {
            rw++;
        }
        rw = Math.max(rw, 1);
        if ((long) rw * n > LinearLimits.MAX_LOW_RANK_WORK) {
            throw LinearQueryException.tooLarge("workload", "the Low-Rank Mechanism's work rank(W)·n", (long) rw * n,
                    LinearLimits.MAX_LOW_RANK_WORK);
        }
        int r = (int) Math.ceil(options.rankFactor() * rw - 1e-9);
        double[] sigma = new double[rw];
        for (int a = 0; a < rw; a++) {
            sigma[a] = Math.sqrt(Math.max(lambda[a], 0));
        }
        // V = ΣUᵀ (rw × n).
        double[] v = new double[rw * n];
        for (int a = 0; a < rw; a++) {
            for (int j = 0; j < n; j++) {
                v[a * n + j] = sigma[a] * u[j * n + a];
            }
        }
        // Wise initialisation: SVD of V is I·Σ·U_rwᵀ, so B = Σ (padded with 1e-8 columns), L = U_rwᵀ (padded).
        double root = Math.sqrt(r);
        double[] b = new double[rw * r];
        double[] l = new double[r * n];
        for (int a = 0; a < rw; a++) {
            for (int c = 0; c < r; c++) {
                b[a * r + c] = (c < rw ? (a == c ? sigma[a] : 0) : 1e-8) * root;
            }
        }
        for (int c = 0; c < r; c++) {
            for (int j = 0; j < n; j++) {
                l[c * n + j] = (c < rw ? u[j * n + c] : 1e-8) / root;
            }
        }
        SplittableRandom jitter = new SplittableRandom(Long.parseUnsignedLong(workload.hash().substring(0, 16), 16));
        double[] pi = new double[rw * n];
        double beta = 1;
        double residual = Double.POSITIVE_INFINITY;
        int outer = 0;
        boolean converged = false;
        Problem problem = new Problem(v, rw, r, n);
        while (true) {
            outer++;
            control.checkpoint((double) (outer - 1) / options.maxIterations());
            for (int it = 0; it < 5; it++) {
                problem.updateL(b, l, beta, pi, jitter);
                problem.updateB(b, l, beta, pi);
            }
            double[] diff = problem.residual(b, l);
            residual = Math.sqrt(Lbfgs.dot(diff, diff));
            if (outer % 8 == 0) {
                beta = Math.min(BETA_MAX, beta * 5);
            }
            if (residual < options.residualTolerance()) {
                converged = true;
                break;
            }
            for (int i = 0; i < pi.length; i++) {
                pi[i] += beta * diff[i];
            }
            if (outer >= options.maxIterations() || beta > BETA_STOP) {
                break;
            }
        }
        control.checkpoint(1);
        double traceBtB = Lbfgs.dot(b, b);
        double deltaL = LowRankStrategy.columnL1(l, r, n);
        // M = U_rw·Σ⁻¹·B_V (n × r).
        double[] m = new double[n * r];
        for (int j = 0; j < n; j++) {
            for (int a = 0; a < rw; a++) {
                double w = u[j * n + a] / sigma[a];
                if (w == 0) {
                    continue;
                }
                for (int c = 0; c < r; c++) {
                    m[j * r + c] += w * b[a * r + c];
                }
            }
        }
        double exactResidual = residualFrobenius(g, n, m, l, r);
        boolean failed = deltaL * deltaL * traceBtB > frob2 || exactResidual > 0.1 || !Double.isFinite(traceBtB);
        String params = options.canonical();
        if (failed) {
            StrategyInfo info = new StrategyInfo(workload.hash(), "LOW_RANK/FALLBACK_IDENTITY", params, frob2,
                    Double.NaN, outer, converged);
            return new LowRankStrategy(n, n, new double[0], new double[0], 0, frob2, rw, true, info);
        }
        StrategyInfo info = new StrategyInfo(workload.hash(), "LOW_RANK", params, deltaL * deltaL * traceBtB,
                Double.NaN, outer, converged);
        return new LowRankStrategy(n, r, l, m, exactResidual, traceBtB, rw, false, info);
    }

    /** ‖W(I − ML)‖_F = √tr((I − ML)ᵀ·WᵀW·(I − ML)). */
    static double residualFrobenius(double[] g, int n, double[] m, double[] l, int r) {
        double[] e = new double[n * n];
        LinearAlgebraOps.multiply(m, n, r, l, n, e);
        for (int i = 0; i < e.length; i++) {
            e[i] = -e[i];
        }
        for (int i = 0; i < n; i++) {
            e[i * n + i] += 1;
        }
        double[] ge = new double[n * n];
        LinearAlgebraOps.multiply(g, n, n, e, n, ge);
        double s = 0;
        for (int i = 0; i < e.length; i++) {
            s += e[i] * ge[i];
        }
        return Math.sqrt(Math.max(s, 0));
    }

    /** The solver's state-free steps on a target V (rw × n) with B (rw × r), L (r × n), Π (rw × n). */
    private static final class Problem {
        private final double[] v;
        private final int rw;
        private final int r;
        private final int n;

        Problem(double[] v, int rw, int r, int n) {
            this.v = v;
            this.rw = rw;
            this.r = r;
            this.n = n;
        }

        /** V − B·L. */
        double[] residual(double[] b, double[] l) {
            double[] bl = new double[rw * n];
            LinearAlgebraOps.multiply(b, rw, r, l, n, bl);
            for (int i = 0; i < bl.length; i++) {
                bl[i] = v[i] - bl[i];
            }
            return bl;
        }

        /** B = (βV + Π)·Lᵀ·(β·LLᵀ + I)⁻¹. */
        void updateB(double[] b, double[] l, double beta, double[] pi) {
            double[] p = new double[rw * n];
            for (int i = 0; i < p.length; i++) {
                p[i] = beta * v[i] + pi[i];
            }
            double[] rhs = new double[rw * r];
            LinearAlgebraOps.multiplyTransB(p, rw, n, l, r, rhs);
            double[] s = new double[r * r];
            LinearAlgebraOps.multiplyTransB(l, r, n, l, r, s);
            for (int i = 0; i < r; i++) {
                for (int j = 0; j < i; j++) {
                    double x = 0.5 * (s[i * r + j] + s[j * r + i]);
                    s[i * r + j] = x;
                    s[j * r + i] = x;
                }
            }
            for (int i = 0; i < s.length; i++) {
                s[i] *= beta;
            }
            for (int i = 0; i < r; i++) {
                s[i * r + i] += 1;
            }
            double[] inv = LinearAlgebra.inverseSpd(s, r);
            LinearAlgebraOps.multiply(rhs, rw, r, inv, r, b);
        }

        /** The accelerated projected-gradient L-step of the authors' code (UpdateT). */
        void updateL(double[] b, double[] l, double beta, double[] pi, SplittableRandom jitter) {
            double[] qq = new double[r * r];
            LinearAlgebraOps.addMultiplyTransA(b, rw, r, b, r, qq);
            double[] qw = new double[r * n];
            LinearAlgebraOps.addMultiplyTransA(b, rw, r, v, n, qw);
            double[] qpi = new double[r * n];
            LinearAlgebraOps.addMultiplyTransA(b, rw, r, pi, n, qpi);
            double maxColSum = 0;
            for (int c = 0; c < r; c++) {
                double sum = 0;
                for (int a = 0; a < r; a++) {
                    sum += Math.abs(qq[a * r + c]);
                }
                maxColSum = Math.max(maxColSum, sum);
            }
            double threshold = (double) r * n * 1e-12;
            double lip = Math.max(1, beta * maxColSum / 100);
            double[] xxp = new double[r * n];
            double alphaPrev = 0;
            double alpha = 1;
            double[] s = new double[r * n];
            double[] grad = new double[r * n];
            double[] candidate = new double[r * n];
            double[] work = new double[r * n];
            for (int iter = 0; iter < 5; iter++) {
                double alpha1 = (alphaPrev - 1) / alpha;
                for (int i = 0; i < s.length; i++) {
                    s[i] = l[i] + alpha1 * xxp[i];
                }
                double fLast = objective(s, qq, qw, qpi, beta, grad, work);
                double[] previous = l.clone();
                boolean small = false;
                for (int inner = 1; ; inner++) {
                    for (int i = 0; i < s.length; i++) {
                        candidate[i] = s[i] - grad[i] / lip;
                    }
                    projectColumns(candidate, r, n);
                    System.arraycopy(candidate, 0, l, 0, l.length);
                    double fCurrent = objective(l, qq, qw, qpi, beta, null, work);
                    double rSum = 0;
                    double dg = 0;
                    for (int i = 0; i < l.length; i++) {
                        double d = l[i] - s[i];
                        rSum += d * d;
                        dg += d * grad[i];
                    }
                    rSum *= 0.5;
                    double lSum = fCurrent - fLast - dg;
                    if (rSum <= threshold) {
                        small = true;
                        break;
                    }
                    if (lSum - rSum * lip <= 0) {
                        break;
                    }
                    lip = Math.max(2 * lip, lSum / rSum);
                    if (inner == 5) {
                        lip = beta * maxColSum;
                        break;
                    }
                }
                alphaPrev = alpha;
                alpha = (1 + Math.sqrt(4 * alpha * alpha + 1)) / 2;
                for (int i = 0; i < l.length; i++) {
                    xxp[i] = l[i] - previous[i];
                }
                if (small) {
                    break;
                }
            }
            for (int i = 0; i < l.length; i++) {
                if (Math.abs(l[i]) < 1e-5) {
                    l[i] += jitter.nextGaussian() * 1e-5;
                }
            }
        }

        /**
         * f(L) = ½β(−2⟨BᵀV, L⟩ + ⟨L, BᵀB·L⟩) − ⟨L, BᵀΠ⟩ + ½·10⁻⁶‖L‖²; gradient
         * β(BᵀB·L − BᵀV) − BᵀΠ + 10⁻⁶L when {@code gradient} is not null.
         */
        private double objective(double[] t, double[] qq, double[] qw, double[] qpi, double beta, double[] gradient,
                double[] work) {
            LinearAlgebraOps.multiply(qq, r, r, t, n, work);
            double f = 0;
            for (int i = 0; i < t.length; i++) {
                f += 0.5 * beta * (-2 * qw[i] * t[i] + t[i] * work[i]) - t[i] * qpi[i] + 0.5 * RIDGE * t[i] * t[i];
            }
            if (gradient != null) {
                for (int i = 0; i < t.length; i++) {
                    gradient[i] = beta * (work[i] - qw[i]) - qpi[i] + RIDGE * t[i];
                }
            }
            return f;
        }
    }

    /** Each column of T (r × n) onto {w : ‖w‖₁ ≤ 1}, magnitudes floored at 10⁻⁸ as in the code. */
    static void projectColumns(double[] t, int r, int n) {
        double[] column = new double[r];
        double[] sorted = new double[r];
        for (int j = 0; j < n; j++) {
            for (int a = 0; a < r; a++) {
                column[a] = t[a * n + j];
                sorted[a] = Math.abs(column[a]);
            }
            double theta = l1Threshold(sorted, 1);
            for (int a = 0; a < r; a++) {
                double x = column[a];
                double mag = Math.max(Math.abs(x) - theta, 1e-8);
                t[a * n + j] = x > 0 ? mag : x < 0 ? -mag : 0;
            }
        }
    }

    /** θ of the L1-ball projection (Duchi et al. 2008); {@code abs} is overwritten (sorted). */
    static double l1Threshold(double[] abs, double radius) {
        Arrays.sort(abs);
        int len = abs.length;
        double cumulative = 0;
        double theta = 0;
        // Descending order: u_j = abs[len − 1 − j]; ρ = the last j with u_j > (c_j − b)/j.
        for (int j = 1; j <= len; j++) {
            double uj = abs[len - j];
            cumulative += uj;
            double candidate = (cumulative - radius) / j;
            if (uj > candidate) {
                theta = candidate;
            }
        }
        return Math.max(0, theta);
    }
}
