package io.privmat.mechanism.linear;

import java.util.Locale;

/**
 * Options of the optimised strategy (all public; part of the strategy cache key).
 *
 * @param template {@link Template#CONVEX} (default) or {@link Template#P_IDENTITY}
 * @param maxIterations per factor solve: eigendecompositions (CONVEX, default 100) or L-BFGS
 *     iterations (P_IDENTITY, default 1000)
 * @param tolerance CONVEX: stop when the relative duality gap is below it (default 1e-4);
 *     P_IDENTITY: relative decrease of the objective per iteration (default 1e-7)
 * @param restarts P_IDENTITY: random starts (default 4; HDMM uses 25); ignored by CONVEX
 * @param p P_IDENTITY: extra rows per attribute, 0 for HDMM's default max(1, n_i/16)
 * @param maxSweeps block-coordinate sweeps over the attributes (default 20)
 * @param maxWork CONVEX: floating-point operations the optimisation may use, counted as
 *     {@link StrategyCost} counts them (default unlimited): it stops before an iteration that would
 *     exceed them, keeping the best strategy so far (a deterministic cap, part of the cache key)
 */
public record OptimizerOptions(Template template, int maxIterations, double tolerance, int restarts, int p,
        int maxSweeps, double maxWork) {

    /** The per-attribute template. */
    public enum Template {
        /**
         * Every strategy with unit column norms on the attribute: the convex problem
         * min tr(G·X⁻¹) s.t. diag(X) ≤ 1 over X = AᵀA, solved through its Lagrange dual.
         */
        CONVEX,
        /** HDMM's p-Identity template A = [I; Θ]·D with columns normalised to unit L2 norm. */
        P_IDENTITY
    }

    public OptimizerOptions {
        if (maxIterations < 1 || maxIterations > 100_000) {
            throw LinearQueryException.invalid("options.maxIterations", "maxIterations must be in [1, 100000]");
        }
        if (!(tolerance > 0) || !(tolerance < 1)) {
            throw LinearQueryException.invalid("options.tolerance", "tolerance must be in (0, 1)");
        }
        if (restarts < 1 || restarts > 100) {
            throw LinearQueryException.invalid("options.restarts", "restarts must be in [1, 100]");
        }
        if (p < 0 || p > LinearLimits.MAX_OPTIMIZED_ATTRIBUTE) {
            throw LinearQueryException.invalid("options.p", "p must be in [0, " + LinearLimits.MAX_OPTIMIZED_ATTRIBUTE
                    + "]");
        }
        if (maxSweeps < 1 || maxSweeps > 1000) {
            throw LinearQueryException.invalid("options.maxSweeps", "maxSweeps must be in [1, 1000]");
        }
        if (!(maxWork > 0)) {
            throw LinearQueryException.invalid("options.maxWork", "maxWork must be positive");
        }
    }

    public OptimizerOptions(Template template, int maxIterations, double tolerance, int restarts, int p, int maxSweeps) {
        this(template, maxIterations, tolerance, restarts, p, maxSweeps, Double.POSITIVE_INFINITY);
    }

    public static OptimizerOptions defaults() {
        return convex();
    }

    public static OptimizerOptions convex() {
        return new OptimizerOptions(Template.CONVEX, 100, 1e-4, 1, 0, 20);
    }

    public static OptimizerOptions pIdentity() {
        return new OptimizerOptions(Template.P_IDENTITY, 1000, 1e-7, 4, 0, 20);
    }

    public OptimizerOptions withMaxIterations(int iterations) {
        return new OptimizerOptions(template, iterations, tolerance, restarts, p, maxSweeps, maxWork);
    }

    public OptimizerOptions withRestarts(int r) {
        return new OptimizerOptions(template, maxIterations, tolerance, r, p, maxSweeps, maxWork);
    }

    public OptimizerOptions withP(int newP) {
        return new OptimizerOptions(template, maxIterations, tolerance, restarts, newP, maxSweeps, maxWork);
    }

    public OptimizerOptions withTolerance(double t) {
        return new OptimizerOptions(template, maxIterations, t, restarts, p, maxSweeps, maxWork);
    }

    /** With a cap on the floating-point operations (CONVEX). */
    public OptimizerOptions withMaxWork(double work) {
        return new OptimizerOptions(template, maxIterations, tolerance, restarts, p, maxSweeps, work);
    }

    /** Canonical text (part of the cache key and of {@link StrategyInfo#parameters()}); a finite work cap included. */
    public String canonical() {
        String text = String.format(Locale.ROOT, "template=%s;maxIterations=%d;tolerance=%s;restarts=%d;p=%d;maxSweeps=%d",
                template, maxIterations, Double.toString(tolerance), restarts, p, maxSweeps);
        return Double.isInfinite(maxWork) ? text : text + ";maxWork=" + String.format(Locale.ROOT, "%.6e", maxWork);
    }
}
