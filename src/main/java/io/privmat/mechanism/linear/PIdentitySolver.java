package io.privmat.mechanism.linear;

import io.privmat.mechanism.catalog.OptimizationControl;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * HDMM's p-Identity template (McKenna, Miklau, Hay, Machanavajjhala, PVLDB 2018) for the L2
 * (Gaussian) objective: A(Θ) = [I; Θ]·D, Θ ∈ ℝ^{p×n}, D = diag(1/√(1 + ‖Θ_{:,j}‖²)), so every
 * column has unit L2 norm and the objective is tr(G·(AᵀA)⁻¹) = tr(D⁻¹GD⁻¹·(I + ΘᵀΘ)⁻¹). For L2 the
 * sign of Θ does not matter, so it is unconstrained and minimised by {@link Lbfgs}.
 *
 * <p>With s = 1/diag(D), Ĝ = diag(s)·G·diag(s), C = (I_p + ΘΘᵀ)⁻¹ (Woodbury:
 * (I + ΘᵀΘ)⁻¹ = I − ΘᵀCΘ =: M, ΘM = CΘ), the objective is f = tr(Ĝ) − ⟨CΘ, ΘĜ⟩ and
 * ∇f = −2·CΘĜM + Θ·diag(2·((G∘M)s)/s), evaluated with one p × n × n product (ΘĜ) and
 * O(p²n) more. Restarts draw Θ from U[0, 1) with a {@link SplittableRandom} seeded from the
 * workload's hash: optimisation randomness over public inputs, not DP noise, so the same request
 * always yields the same strategy.
 */
final class PIdentitySolver {

    record Solution(DenseFactor factor, double objective, int iterations, boolean converged, double[] theta) {}

    private PIdentitySolver() {}

    /** p-Identity objective and gradient; Θ is p × n row-major. */
    static double evaluate(double[] g, int n, int p, double[] theta, double @Nullable [] gradient) {
        double[] s = new double[n];
        for (int j = 0; j < n; j++) {
            double u = 1;
            for (int a = 0; a < p; a++) {
                u += theta[a * n + j] * theta[a * n + j];
            }
            s[j] = Math.sqrt(u);
        }
        double[] gh = new double[n * n];
        double traceGh = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                gh[i * n + j] = g[i * n + j] * s[i] * s[j];
            }
            traceGh += gh[i * n + i];
        }
        double[] ttT = new double[p * p];
        LinearAlgebraOps.multiplyTransB(theta, p, n, theta, p, ttT);
        for (int a = 0; a < p; a++) {
            for (int b = 0; b < a; b++) {
                double v = 0.5 * (ttT[a * p + b] + ttT[b * p + a]);
                ttT[a * p + b] = v;
                ttT[b * p + a] = v;
            }
            ttT[a * p + a] += 1;
        }
        double[] c = LinearAlgebra.inverseSpd(ttT, p);
        double[] tg = new double[p * n];
        LinearAlgebraOps.multiply(theta, p, n, gh, n, tg);
        double[] ct = new double[p * n];
        LinearAlgebraOps.multiply(c, p, p, theta, n, ct);
        double f = traceGh - Lbfgs.dot(ct, tg);
        if (gradient == null) {
            return f;
        }
        double[] z = new double[p * n];
        LinearAlgebraOps.multiply(c, p, p, tg, n, z);
        double[] ztT = new double[p * p];
        LinearAlgebraOps.multiplyTransB(z, p, n, theta, p, ztT);
        double[] correction = new double[p * n];
        LinearAlgebraOps.multiply(ztT, p, p, ct, n, correction);
        for (int j = 0; j < n; j++) {
            double gm = g[j * n + j] * s[j];
            for (int a = 0; a < p; a++) {
                gm -= theta[a * n + j] * z[a * n + j] / s[j];
            }
            double scale = 2 * gm / s[j];
            for (int a = 0; a < p; a++) {
                int idx = a * n + j;
                gradient[idx] = -2 * (z[idx] - correction[idx]) + theta[idx] * scale;
            }
        }
        return f;
    }

    static Solution solve(double[] g, int n, int p, double @Nullable [] warmTheta, int restarts, long seed, int maxIterations,
            double ftol, OptimizationControl control) {
        Lbfgs.Result best = null;
        int runs = warmTheta != null ? 1 : restarts;
        for (int r = 0; r < runs; r++) {
            double[] start;
            if (warmTheta != null) {
                start = warmTheta.clone();
            } else {
                SplittableRandom random = new SplittableRandom(seed + 0x9E3779B97F4A7C15L * (r + 1));
                start = new double[p * n];
                for (int i = 0; i < start.length; i++) {
                    start[i] = random.nextDouble();
                }
            }
            OptimizationControl part = control.slice((double) r / runs, (double) (r + 1) / runs);
            Lbfgs.Result result = Lbfgs.minimize((x, grad) -> evaluate(g, n, p, x, grad), start, maxIterations, ftol,
                    10, part);
            if (best == null || result.value() < best.value()) {
                best = result;
            }
        }
        return new Solution(factor(g, n, p, best.x()), best.value(), best.iterations(), best.converged(), best.x());
    }

    /** A = [I; Θ]·D ((n + p) × n) and K = (AᵀA)⁻¹ = D⁻¹(I − ΘᵀCΘ)D⁻¹. */
    static DenseFactor factor(double[] g, int n, int p, double[] theta) {
        double[] s = new double[n];
        for (int j = 0; j < n; j++) {
            double u = 1;
            for (int a = 0; a < p; a++) {
                u += theta[a * n + j] * theta[a * n + j];
            }
            s[j] = Math.sqrt(u);
        }
        double[] a = new double[(n + p) * n];
        for (int j = 0; j < n; j++) {
            a[j * n + j] = 1 / s[j];
        }
        for (int r = 0; r < p; r++) {
            for (int j = 0; j < n; j++) {
                a[(n + r) * n + j] = theta[r * n + j] / s[j];
            }
        }
        double[] ttT = new double[p * p];
        LinearAlgebraOps.multiplyTransB(theta, p, n, theta, p, ttT);
        for (int i = 0; i < p; i++) {
            for (int j = 0; j < i; j++) {
                double v = 0.5 * (ttT[i * p + j] + ttT[j * p + i]);
                ttT[i * p + j] = v;
                ttT[j * p + i] = v;
            }
            ttT[i * p + i] += 1;
        }
        double[] c = LinearAlgebra.inverseSpd(ttT, p);
        double[] ct = new double[p * n];
        LinearAlgebraOps.multiply(c, p, p, theta, n, ct);
        double[] tct = new double[n * n];
        LinearAlgebraOps.addMultiplyTransA(theta, p, n, ct, n, tct);
        double[] k = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double m = 0.5 * (tct[i * n + j] + tct[j * n + i]);
                k[i * n + j] = s[i] * s[j] * ((i == j ? 1 : 0) - m);
            }
        }
        return new DenseFactor(n + p, n, a, k);
    }
}
