package io.privmat.mechanism.linear;

import io.privmat.mechanism.catalog.OptimizationControl;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Optimised strategies: a Kronecker product ⊗A_i with one optimised factor per attribute (HDMM's
 * approach for multi-attribute domains), minimising the Gaussian matrix mechanism's expected error
 * ‖A‖²_{1→2}·tr(WᵀW·(AᵀA)⁻¹) = Π_i‖A_i‖²_{1→2} · Σ_t Π_i tr(G_{t,i}·K_i) by block-coordinate descent:
 * with the other factors fixed, attribute i's problem is exactly the one-attribute problem for the
 * effective Gram Ĝ_i = Σ_t (Π_{l≠i} tr(G_{t,l}K_l))·G_{t,i}, solved by {@link ConvexFactorSolver}
 * (the optimum over all unit-norm factors) or {@link PIdentitySolver}. Each block step cannot
 * increase the objective; sweeps stop when it improves by less than 10⁻⁶ relative. A one-term
 * workload (e.g. k-D all-range) needs one sweep. Attributes of size 1 get the identity, attributes
 * above {@link LinearLimits#MAX_OPTIMIZED_ATTRIBUTE} the hierarchical factor. A workload without
 * product structure (CUSTOM) is optimised as one factor over the flattened domain.
 */
final class ProductOptimizer {

    private ProductOptimizer() {}

    static ProductStrategy optimize(Workload workload, OptimizerOptions options, OptimizationControl control) {
        // The canonical order of the Gram's terms: the strategy is a function of WᵀW (and the options),
        // the same bits for every workload with the same Gram (Workload#gramHash, its cache key).
        KronGram gram = workload.kronGram().canonical();
        String gramHash = workload.gramHash();
        int[] shape = gram.shape();
        int k = shape.length;
        List<KronGram.Factor[]> terms = gram.terms();
        Factor[] factors = new Factor[k];
        Covariance1D[] cov = new Covariance1D[k];
        boolean[] optimised = new boolean[k];
        int optimisedCount = 0;
        for (int i = 0; i < k; i++) {
            int n = shape[i];
            if (n == 1) {
                factors[i] = new IdentityFactor(1);
            } else if (n > LinearLimits.MAX_OPTIMIZED_ATTRIBUTE) {
                factors[i] = new TreeFactor(n);
            } else {
                factors[i] = new IdentityFactor(n);
                optimised[i] = true;
                optimisedCount++;
            }
            cov[i] = factors[i].covariance();
        }
        int terms_ = terms.size();
        double[][] t = new double[terms_][k];
        for (int j = 0; j < terms_; j++) {
            for (int i = 0; i < k; i++) {
                t[j][i] = terms.get(j)[i].trace(cov[i]);
            }
        }
        long seed = Long.parseUnsignedLong(gramHash.substring(0, 16), 16);
        Map<KronGram.Factor, double[]> denseCache = new HashMap<>();
        double[][] warm = new double[k][];
        double objective = objective(t);
        double lowerBound = Double.NaN;
        int iterations = 0;
        boolean converged = true;
        int sweeps = optimisedCount <= 1 ? 1 : options.maxSweeps();
        int step = 0;
        int steps = Math.max(1, sweeps * optimisedCount);
        // The work cap (CONVEX): counted as StrategyCost counts it, so the stop is a function of public
        // inputs only; a solve gets the iterations that still fit, and none at all ends the sweeps.
        double work = options.maxWork();
        boolean exhausted = false;
        for (int sweep = 0; sweep < sweeps && optimisedCount > 0 && !exhausted; sweep++) {
            double before = objective;
            for (int i = 0; i < k; i++) {
                if (!optimised[i]) {
                    continue;
                }
                OptimizationControl part = control.slice((double) step / steps, (double) (step + 1) / steps);
                step++;
                int n = shape[i];
                int allowed = options.maxIterations();
                if (options.template() == OptimizerOptions.Template.CONVEX) {
                    double fixed = StrategyCost.convexBuild(n) + 4.0 * n * n + 10.0 * terms_ * k;
                    allowed = (int) Math.min(allowed, Math.floor((work - fixed) / StrategyCost.convexIteration(n)));
                    if (allowed < 1) {
                        exhausted = true;
                        converged = false;
                        break;
                    }
                }
                double[] g = effectiveGram(terms, t, i, shape[i], denseCache);
                if (options.template() == OptimizerOptions.Template.CONVEX) {
                    ConvexFactorSolver.Solution s = ConvexFactorSolver.solve(g, n, warm[i], allowed,
                            options.tolerance(), part);
                    work -= s.iterations() * StrategyCost.convexIteration(n) + StrategyCost.convexBuild(n)
                            + 4.0 * n * n + 10.0 * terms_ * k;
                    factors[i] = s.factor();
                    warm[i] = s.mu();
                    iterations += s.iterations();
                    converged &= s.converged();
                    if (optimisedCount == 1 && k == 1) {
                        lowerBound = s.lowerBound();
                    }
                } else {
                    int p = options.p() > 0 ? options.p() : Math.max(1, n / 16);
                    PIdentitySolver.Solution s = PIdentitySolver.solve(g, n, p, warm[i], options.restarts(),
                            seed ^ (0x632BE59BD9B4E019L * (i + 1)), options.maxIterations(), options.tolerance(), part);
                    factors[i] = s.factor();
                    warm[i] = s.theta();
                    iterations += s.iterations();
                    converged &= s.converged();
                }
                cov[i] = factors[i].covariance();
                for (int j = 0; j < terms_; j++) {
                    t[j][i] = terms.get(j)[i].trace(cov[i]);
                }
                objective = objective(t);
            }
            if (before - objective <= 1e-6 * before) {
                break;
            }
        }
        control.checkpoint(1);
        double sensitivity2 = 1;
        for (Factor f : factors) {
            sensitivity2 *= f.maxColumnL2() * f.maxColumnL2();
        }
        List<Factor> list = new ArrayList<>(List.of(factors));
        String method = "OPTIMIZED/" + options.template();
        StrategyInfo info = new StrategyInfo(gramHash, method, options.canonical(), sensitivity2 * objective,
                lowerBound, iterations, converged);
        return new ProductStrategy("OPTIMIZED", list, info);
    }

    static double objective(double[][] t) {
        double total = 0;
        for (double[] row : t) {
            double p = 1;
            for (double v : row) {
                p *= v;
            }
            total += p;
        }
        return total;
    }

    /** Ĝ_i = Σ_t (Π_{l≠i} t_{t,l})·G_{t,i}, dense n × n. */
    static double[] effectiveGram(List<KronGram.Factor[]> terms, double[][] t, int i, int n,
            Map<KronGram.Factor, double[]> denseCache) {
        Map<KronGram.Factor, Double> weights = new LinkedHashMap<>();
        double[] diff = null;
        int[] shape2 = {n, n};
        int[] strides2 = {n, 1};
        for (int j = 0; j < terms.size(); j++) {
            double c = 1;
            for (int l = 0; l < t[j].length; l++) {
                if (l != i) {
                    c *= t[j][l];
                }
            }
            if (c == 0) {
                continue;
            }
            KronGram.Factor f = terms.get(j)[i];
            if (f instanceof KronGram.Interval r) {
                if (diff == null) {
                    diff = new double[n * n];
                }
                BoxSums.addBox(diff, shape2, strides2, new int[] {r.lo(), r.lo()}, new int[] {r.hi(), r.hi()}, c);
            } else {
                weights.merge(f, c, Double::sum);
            }
        }
        double[] g;
        if (diff != null) {
            BoxSums.integrate(diff, shape2);
            g = diff;
        } else {
            g = new double[n * n];
        }
        for (Map.Entry<KronGram.Factor, Double> e : weights.entrySet()) {
            double[] d = denseCache.computeIfAbsent(e.getKey(), KronGram.Factor::dense);
            double c = e.getValue();
            for (int x = 0; x < g.length; x++) {
                g[x] += c * d[x];
            }
        }
        return g;
    }
}
