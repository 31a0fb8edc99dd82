package io.privmat.mechanism.linear;

import io.privmat.mechanism.catalog.OptimizationControl;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.linalg.SymmetricEigen;
import org.jspecify.annotations.Nullable;

/**
 * The best strategy with unit column L2 norms for a one-attribute Gram G (the Gaussian matrix
 * mechanism's strategy problem, convex in X = AᵀA):
 *
 * <pre>  minimise tr(G·X⁻¹)  subject to  X ≻ 0,  X_jj ≤ 1.</pre>
 *
 * <p>Its Lagrange dual: for λ ≥ 0, inf_X tr(GX⁻¹) + tr(ΛX) − Σλ = 2·tr((Λ^½GΛ^½)^½) − Σλ
 * (substitute Y = Λ^½XΛ^½; inf_Y tr(MY⁻¹) + tr(Y) = 2 tr(M^½)). Writing λ = t·μ with μ on the
 * simplex and maximising over t gives the lower bound T(μ)² with T(μ) = tr((M_μ)^½),
 * M_μ = diag(√μ)·G·diag(√μ), valid for every μ; at uniform μ it is the SVD bound (tr G^½)²/n.
 * The matching primal point X(μ) = Λ^{−½}M_μ^½Λ^{−½}, scaled by its largest diagonal entry d, has
 * objective T(μ)·d ≥ T(μ)², with equality iff diag X(μ) is constant on the support of μ. We iterate
 * μ_j ← μ_j·diag X(μ)_j^ω (normalised; ω = 2, falling back to 1 if the dual value decreases), one
 * symmetric eigendecomposition per iteration, and stop when T·d ≤ (1 + tolerance)·T² (a certified
 * relative gap) or after maxIterations, keeping the best primal point.
 *
 * <p>G is regularised to G + η·(tr G/n)·I, η = 10⁻⁸, so that X is invertible even for rank-deficient
 * G (every value is then measured, possibly with large variance); the reported lower bound is
 * corrected for it (Weyl: eig(M_μ of G) ≥ eig(M_μ of G + ηI) − η·max μ). The strategy returned is
 * A = E^{¼}·Vᵀ·diag(1/√μ)/√d (with M_μ = VEVᵀ; AᵀA = X/d), square n × n, K = (AᵀA)⁻¹ from the same
 * eigendecomposition. Deterministic: no randomness.
 */
final class ConvexFactorSolver {

    static final double REGULARISATION = 1e-8;

    /** The solution on one attribute. */
    record Solution(DenseFactor factor, double objective, double lowerBound, int iterations, boolean converged,
            double[] mu) {}

    private ConvexFactorSolver() {}

    static Solution solve(double[] g, int n, double @Nullable [] warmMu, int maxIterations, double tolerance,
            OptimizationControl control) {
        double trace = 0;
        for (int i = 0; i < n; i++) {
            trace += g[i * n + i];
        }
        if (!(trace > 0)) {
            // The attribute carries no query weight: measure it directly.
            double[] eye = new double[n * n];
            for (int i = 0; i < n; i++) {
                eye[i * n + i] = 1;
            }
            return new Solution(new DenseFactor(n, n, eye, eye.clone()), 0, 0, 0, true, uniform(n));
        }
        double reg = REGULARISATION * trace / n;
        double[] mu = warmMu != null && warmMu.length == n ? warmMu.clone() : uniform(n);
        double[] m = new double[n * n];
        double[] s = new double[n];
        double[] diag = new double[n];
        double bestPrimal = Double.POSITIVE_INFINITY;
        double bestLower = 0;
        double[] bestVectors = null;
        double[] bestValues = null;
        double[] bestMu = null;
        double bestD = 1;
        double omega = 2;
        double previousDual = Double.NEGATIVE_INFINITY;
        int iterations = 0;
        boolean converged = false;
        for (int it = 0; it < maxIterations; it++) {
            control.checkpoint((double) it / maxIterations);
            iterations = it + 1;
            double maxMu = 0;
            for (int i = 0; i < n; i++) {
                s[i] = Math.sqrt(mu[i]);
                maxMu = Math.max(maxMu, mu[i]);
            }
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    m[i * n + j] = (g[i * n + j] + (i == j ? reg : 0)) * s[i] * s[j];
                }
            }
            SymmetricEigen eig = LinearAlgebra.eigen(m, n);
            double[] e = eig.values();
            double[] v = eig.vectors();
            double t = 0;
            double tLower = 0;
            double[] sq = new double[n];
            for (int k = 0; k < n; k++) {
                double ek = Math.max(e[k], 0);
                sq[k] = Math.sqrt(ek);
                t += sq[k];
                tLower += Math.sqrt(Math.max(ek - reg * maxMu, 0));
            }
            double d = 0;
            for (int j = 0; j < n; j++) {
                double x = 0;
                for (int k = 0; k < n; k++) {
                    double vjk = v[j * n + k];
                    x += vjk * vjk * sq[k];
                }
                diag[j] = x / mu[j];
                d = Math.max(d, diag[j]);
            }
            double primal = t * d;
            double dual = t * t;
            bestLower = Math.max(bestLower, tLower * tLower);
            if (primal < bestPrimal) {
                bestPrimal = primal;
                bestVectors = v;
                bestValues = e.clone();
                bestMu = mu.clone();
                bestD = d;
            }
            if (primal <= (1 + tolerance) * dual) {
                converged = true;
                break;
            }
            if (dual < previousDual) {
                omega = 1;
            }
            previousDual = dual;
            double sum = 0;
            for (int j = 0; j < n; j++) {
                mu[j] *= Math.pow(diag[j], omega);
                sum += mu[j];
            }
            double floor = 0;
            for (int j = 0; j < n; j++) {
                mu[j] /= sum;
                floor = Math.max(floor, mu[j]);
            }
            floor *= 1e-15;
            for (int j = 0; j < n; j++) {
                mu[j] = Math.max(mu[j], floor);
            }
        }
        control.checkpoint(1);
        return build(g, n, bestVectors, bestValues, bestMu, bestD, reg, bestLower, iterations, converged);
    }

    private static Solution build(double[] g, int n, double[] v, double[] e, double[] mu, double d, double reg,
            double lower, int iterations, boolean converged) {
        double minMu = Double.POSITIVE_INFINITY;
        for (double x : mu) {
            minMu = Math.min(minMu, x);
        }
        double floor = reg * minMu;
        double[] s = new double[n];
        for (int j = 0; j < n; j++) {
            s[j] = Math.sqrt(mu[j]);
        }
        double rootD = Math.sqrt(d);
        double[] a = new double[n * n];
        double[] w = new double[n * n]; // V·E^{-1/4}
        for (int k = 0; k < n; k++) {
            double ek = Math.max(e[k], floor);
            double q = Math.sqrt(Math.sqrt(ek));
            for (int j = 0; j < n; j++) {
                a[k * n + j] = q * v[j * n + k] / s[j] / rootD;
                w[j * n + k] = v[j * n + k] / q;
            }
        }
        double[] k = new double[n * n];
        LinearAlgebraOps.multiplyTransB(w, n, n, w, n, k);
        double objective = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                k[i * n + j] *= d * s[i] * s[j];
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                double value = 0.5 * (k[i * n + j] + k[j * n + i]);
                k[i * n + j] = value;
                k[j * n + i] = value;
            }
        }
        for (int i = 0; i < g.length; i++) {
            objective += g[i] * k[i];
        }
        return new Solution(new DenseFactor(n, n, a, k), objective, lower, iterations, converged, mu);
    }

    static double[] uniform(int n) {
        double[] mu = new double[n];
        java.util.Arrays.fill(mu, 1.0 / n);
        return mu;
    }
}
