package io.privmat.mechanism.linear;

import io.privmat.mechanism.catalog.OptimizationControl;

/**
 * Limited-memory BFGS (Nocedal, "Updating quasi-Newton matrices with limited storage", 1980; the
 * two-loop recursion of Nocedal and Wright, Numerical Optimization, Algorithm 7.4) with a
 * backtracking Armijo line search, for smooth unconstrained problems. Deterministic.
 */
final class Lbfgs {

    /** f(x), writing ∇f(x) into {@code gradient}. */
    @FunctionalInterface
    interface Objective {
        double evaluate(double[] x, double[] gradient);
    }

    record Result(double[] x, double value, int iterations, boolean converged) {}

    private Lbfgs() {}

    static Result minimize(Objective objective, double[] start, int maxIterations, double ftol, int memory,
            OptimizationControl control) {
        int n = start.length;
        double[] x = start.clone();
        double[] g = new double[n];
        double f = objective.evaluate(x, g);
        double[][] sHist = new double[memory][];
        double[][] yHist = new double[memory][];
        double[] rho = new double[memory];
        int stored = 0;
        int head = 0;
        double[] d = new double[n];
        double[] xNew = new double[n];
        double[] gNew = new double[n];
        double[] alpha = new double[memory];
        boolean converged = false;
        int it = 0;
        for (; it < maxIterations; it++) {
            control.checkpoint((double) it / maxIterations);
            // Two-loop recursion: d = −H·g.
            System.arraycopy(g, 0, d, 0, n);
            for (int i = 0; i < stored; i++) {
                int idx = Math.floorMod(head - 1 - i, memory);
                alpha[idx] = rho[idx] * dot(sHist[idx], d);
                axpy(-alpha[idx], yHist[idx], d);
            }
            double gamma;
            if (stored > 0) {
                int last = Math.floorMod(head - 1, memory);
                gamma = dot(sHist[last], yHist[last]) / dot(yHist[last], yHist[last]);
            } else {
                double norm = Math.sqrt(dot(g, g));
                gamma = norm > 0 ? 1 / norm : 1;
            }
            scale(gamma, d);
            for (int i = stored - 1; i >= 0; i--) {
                int idx = Math.floorMod(head - 1 - i, memory);
                double beta = rho[idx] * dot(yHist[idx], d);
                axpy(alpha[idx] - beta, sHist[idx], d);
            }
            scale(-1, d);
            double slope = dot(g, d);
            if (!(slope < 0)) {
                // Not a descent direction: restart from steepest descent.
                stored = 0;
                double norm = Math.sqrt(dot(g, g));
                if (norm == 0) {
                    converged = true;
                    break;
                }
                for (int i = 0; i < n; i++) {
                    d[i] = -g[i] / norm;
                }
                slope = dot(g, d);
            }
            double step = 1;
            double fNew = Double.NaN;
            boolean accepted = false;
            for (int tries = 0; tries < 40; tries++) {
                for (int i = 0; i < n; i++) {
                    xNew[i] = x[i] + step * d[i];
                }
                fNew = objective.evaluate(xNew, gNew);
                if (Double.isFinite(fNew) && fNew <= f + 1e-4 * step * slope) {
                    accepted = true;
                    break;
                }
                step *= 0.5;
            }
            if (!accepted) {
                converged = true; // no further decrease representable
                break;
            }
            double[] s = new double[n];
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                s[i] = xNew[i] - x[i];
                y[i] = gNew[i] - g[i];
            }
            double sy = dot(s, y);
            if (sy > 1e-12 * Math.sqrt(dot(s, s) * dot(y, y))) {
                sHist[head] = s;
                yHist[head] = y;
                rho[head] = 1 / sy;
                head = (head + 1) % memory;
                stored = Math.min(stored + 1, memory);
            }
            double decrease = f - fNew;
            System.arraycopy(xNew, 0, x, 0, n);
            System.arraycopy(gNew, 0, g, 0, n);
            double previous = f;
            f = fNew;
            if (decrease <= ftol * Math.max(Math.max(Math.abs(previous), Math.abs(f)), 1)) {
                converged = true;
                it++;
                break;
            }
        }
        return new Result(x, f, it, converged);
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static void axpy(double a, double[] x, double[] y) {
        for (int i = 0; i < x.length; i++) {
            y[i] += a * x[i];
        }
    }

    private static void scale(double a, double[] x) {
        for (int i = 0; i < x.length; i++) {
            x[i] *= a;
        }
    }
}
