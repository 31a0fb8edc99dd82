package io.privmat.query;

import io.privmat.api.PrivmatException;
import io.privmat.api.ProblemType;
import io.privmat.dataset.Dataset;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.lowrank.HardtRothMechanism;
import io.privmat.mechanism.lowrank.NoisyPowerMechanism;
import io.privmat.mechanism.lowrank.OrbitSamplingMechanism;
import io.privmat.mechanism.lowrank.PrivateOjaMechanism;
import io.privmat.mechanism.lowrank.RandomizedResponseMechanism;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.Decimals;
import io.privmat.privacy.PrivacyLoss;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Plans LOW_RANK and TOP_SINGULAR_VECTORS queries (mechanisms.md §2, §3, §8, §10.2).
 *
 * <p>Parameters: {@code k} (required, 1..min(d, 200); PRIVATE_OJA: 1 only), {@code oversampling}
 * (HARDT_ROTH, default 10), {@code coherence} (HARDT_ROTH: the public incoherence μ₀ ≥ 1 the owner
 * asserts; it sets the pruning threshold τ = √(4μ₀ℓ·ln m/m) and affects utility only; absent:
 * no pruning), {@code iterations} (NOISY_POWER default 10, PRIVATE_OJA default 30; 1..1000),
 * {@code stepSize} (PRIVATE_OJA, default 1/B²) and {@code spectrum} (ORBIT_SAMPLING: PROJECTION,
 * the default, or PEELING) and {@code shrink} (RANDOMIZED_RESPONSE, HARDT_ROTH; default false: Gavish–Donoho
 * shrinkage of the released singular values by the public noise level, free post-processing).
 * The row-based mechanisms need a public row count (REPLACE_ONE).
 */
final class LowRankPlanner {

    static final int MAX_K = 200;
    static final int DEFAULT_OVERSAMPLING = 10;
    /** Largest m·ℓ a row-based job holds in memory (three m × ℓ float64 arrays: 240 MB). */
    static final long MAX_FACTOR_ENTRIES = 10_000_000L;

    private LowRankPlanner() {}

    private static final Map<String, Set<String>> PARAMS = Map.of(
            "RANDOMIZED_RESPONSE", Set.of("k", "shrink"),
            "HARDT_ROTH", Set.of("k", "oversampling", "coherence", "shrink"),
            "NOISY_POWER", Set.of("k", "iterations"),
            "PRIVATE_OJA", Set.of("k", "iterations", "stepSize"),
            "ORBIT_SAMPLING", Set.of("k", "spectrum"));

    static QueryPlanner.Planned plan(QueryKind kind, String mechanism, Dataset dataset, QueryRequest request,
            AccountingMode mode) {
        int d = Math.toIntExact(dataset.cols());
        long rowsLong = dataset.rows();
        double bound = dataset.rowNormBound();
        NeighbouringRelation relation = QueryPlanner.relation(dataset);
        Map<String, Object> params = request.params() == null ? Map.of() : request.params();
        Set<String> allowed = PARAMS.get(mechanism);
        for (String key : params.keySet()) {
            if (!allowed.contains(key)) {
                throw PrivmatException.invalidParameter("params." + key, String.join(" | ", allowed.stream().sorted()
                        .toList()), mechanism + " accepts params " + String.join(", ", allowed.stream().sorted().toList()));
            }
        }
        int maxK = mechanism.equals("PRIVATE_OJA") ? 1 : Math.min(d, MAX_K);
        Integer k = CovariancePlanner.intParam(params, "k", maxK);
        if (k == null) {
            throw PrivmatException.invalidParameter("params.k", "[1, " + maxK + "]",
                    kind + " needs params.k in [1, " + maxK + "]");
        }
        boolean rowBased = mechanism.equals("RANDOMIZED_RESPONSE") || mechanism.equals("HARDT_ROTH");
        if (rowBased && relation != NeighbouringRelation.REPLACE_ONE) {
            throw PrivmatException.invalidParameter("mechanism", "NOISY_POWER | PRIVATE_OJA | ORBIT_SAMPLING",
                    mechanism + " releases one row per record and needs a public row count (REPLACE_ONE); "
                            + "this dataset is ADD_REMOVE");
        }
        BigDecimal epsilon = request.epsilon();
        BigDecimal delta = request.delta();
        BigDecimal rho = request.rho();
        QueryPlanner.checkRanges(request);
        Map<String, Object> parameters = new TreeMap<>();
        parameters.put("kind", kind.name());
        parameters.put("mechanism", mechanism);
        parameters.put("k", k);
        Map<String, Object> noise = new LinkedHashMap<>();
        boolean left = kind == QueryKind.LOW_RANK;
        int m = rowBased ? Math.toIntExact(rowsLong) : 0;
        if (mechanism.equals("RANDOMIZED_RESPONSE") && d > m) {
            // Wide: the noisy matrix and its m × m Gram are held instead of the d × d Gram.
            if ((long) m * d > RandomizedResponseMechanism.MAX_WIDE_ENTRIES || m > QueryPlanner.MAX_GRAM_DIMENSION) {
                throw new PrivmatException(ProblemType.DATASET_TOO_LARGE, "RANDOMIZED_RESPONSE on a wide matrix "
                        + "holds the noisy m × d matrix: m·d = " + (long) m * d + " exceeds "
                        + RandomizedResponseMechanism.MAX_WIDE_ENTRIES + ".", Map.of("rows", m, "cols", d));
            }
        } else if (mechanism.equals("NOISY_POWER") || mechanism.equals("PRIVATE_OJA")) {
            // Above the Gram limit these stream Xᵀ(X·V) from the rows, one pass per iteration.
            checkFactorSize(d, k);
        } else if (!mechanism.equals("HARDT_ROTH")) {
            QueryPlanner.checkGramDimension(d, mechanism);
        }
        switch (mechanism) {
            case "RANDOMIZED_RESPONSE" -> {
                checkFactorSize(m, k);
                Gaussian g = gaussian(mechanism, request, mode, parameters);
                RandomizedResponseMechanism rr = g.rho != null
                        ? RandomizedResponseMechanism.forRho(m, d, k, bound, g.rho)
                        : RandomizedResponseMechanism.forApproxDp(m, d, k, bound, g.epsilon, g.delta);
                if (CovariancePlanner.boolParam(params, "shrink")) {
                    rr = rr.withShrinkage();
                    parameters.put("shrink", true);
                }
                PrivacyLoss charged = mode == AccountingMode.BASIC ? new ApproxDp(epsilon, delta) : rr.privacyLoss();
                noise.put("distribution", "discrete Gaussian on every entry, on a grid");
                noise.put("sigma", rr.sigma());
                noise.put("l2Sensitivity", 2 * bound);
                return planned(kind, mechanism, parameters, rr.privacyLoss(), charged, noise,
                        new LowRankSpec(rr, null, null, null, null, k, left, 0));
            }
            case "HARDT_ROTH" -> {
                if (rho != null) {
                    throw PrivmatException.invalidParameter("rho", "epsilon and delta", "HARDT_ROTH is "
                            + "(epsilon, delta)-DP (its range finder fails with probability delta/4): give epsilon "
                            + "and delta");
                }
                requireEpsilonDelta(mechanism, epsilon, delta);
                if (mode == AccountingMode.PURE) {
                    throw QueryPlanner.incompatible(mode, mechanism);
                }
                Integer oversampling = CovariancePlanner.intParam(params, "oversampling", 100);
                int p = oversampling == null ? DEFAULT_OVERSAMPLING : oversampling;
                if (oversampling != null) {
                    parameters.put("oversampling", oversampling);
                }
                int l = Math.min(d, k + p);
                checkFactorSize(m, l);
                double coherence;
                if (params.containsKey("coherence")) {
                    coherence = number(params, "coherence", 1, Double.MAX_VALUE);
                    parameters.put("coherence", coherence);
                } else {
                    // τ = 1: nothing is pruned (no incoherence is assumed).
                    coherence = m / (4.0 * l * Math.log(Math.max(m, 3)));
                }
                parameters.put("epsilon", epsilon);
                parameters.put("delta", delta);
                HardtRothMechanism hr = HardtRothMechanism.of(m, d, k, p, bound, coherence, epsilon, delta);
                if (CovariancePlanner.boolParam(params, "shrink")) {
                    hr = hr.withShrinkage();
                    parameters.put("shrink", true);
                }
                PrivacyLoss charged = mode == AccountingMode.BASIC ? hr.approxDp() : hr.approxZcdp();
                noise.put("distribution", "discrete Gaussian on the range finder and the projection, on a grid");
                noise.put("oversampledRank", l);
                noise.put("coherence", coherence);
                noise.put("pruningThreshold", Math.sqrt(4 * coherence * l * Math.log(Math.max(m, 3)) / m));
                return planned(kind, mechanism, parameters, hr.approxZcdp(), charged, noise,
                        new LowRankSpec(null, hr, null, null, null, k, left, 0));
            }
            case "NOISY_POWER", "PRIVATE_OJA" -> {
                boolean power = mechanism.equals("NOISY_POWER");
                Integer it = CovariancePlanner.intParam(params, "iterations", 1000);
                int iterations = it != null ? it : power ? 10 : 30;
                if (it != null) {
                    parameters.put("iterations", it);
                }
                double stepSize = 1 / (bound * bound);
                if (params.containsKey("stepSize")) {
                    stepSize = number(params, "stepSize", Double.MIN_NORMAL, 1e12);
                    parameters.put("stepSize", stepSize);
                }
                Gaussian g = gaussian(mechanism, request, mode, parameters);
                PrivacyLoss loss;
                if (power) {
                    NoisyPowerMechanism np = g.rho != null ? NoisyPowerMechanism.forRho(d, k, iterations, bound, g.rho)
                            : NoisyPowerMechanism.forApproxDp(d, k, iterations, bound, g.epsilon, g.delta);
                    loss = np.privacyLoss();
                    noise.put("distribution", "discrete Gaussian d × k per iteration, on a grid");
                    noise.put("sigma", np.sigma());
                    noise.put("l2Sensitivity", bound * bound * Math.sqrt(k));
                    noise.put("iterations", iterations);
                    PrivacyLoss charged = mode == AccountingMode.BASIC ? new ApproxDp(epsilon, delta) : loss;
                    return planned(kind, mechanism, parameters, loss, charged, noise,
                            new LowRankSpec(null, null, np, null, null, k, false, iterations));
                }
                PrivateOjaMechanism oja = g.rho != null
                        ? PrivateOjaMechanism.forRho(d, iterations, stepSize, bound, g.rho)
                        : PrivateOjaMechanism.forApproxDp(d, iterations, stepSize, bound, g.epsilon, g.delta);
                loss = oja.privacyLoss();
                noise.put("distribution", "discrete Gaussian d-vector per step, on a grid");
                noise.put("l2Sensitivity", bound * bound);
                noise.put("iterations", iterations);
                noise.put("stepSize", stepSize);
                PrivacyLoss charged = mode == AccountingMode.BASIC ? new ApproxDp(epsilon, delta) : loss;
                return planned(kind, mechanism, parameters, loss, charged, noise,
                        new LowRankSpec(null, null, null, oja, null, k, false, iterations));
            }
            default -> {
                if (rho != null || delta != null) {
                    throw PrivmatException.invalidParameter(rho != null ? "rho" : "delta", "epsilon only",
                            "ORBIT_SAMPLING is pure epsilon-DP: give epsilon only");
                }
                if (epsilon == null) {
                    throw PrivmatException.invalidParameter("epsilon", "(0, 100]", "ORBIT_SAMPLING needs epsilon");
                }
                OrbitSamplingMechanism.Spectrum spectrum = OrbitSamplingMechanism.Spectrum.PROJECTION;
                Object sp = params.get("spectrum");
                if (sp != null) {
                    List<String> names = List.of("PROJECTION", "PEELING");
                    String name = sp instanceof String str ? str.strip().toUpperCase(Locale.ROOT) : "";
                    if (!names.contains(name)) {
                        throw PrivmatException.invalidParameter("params.spectrum", "PROJECTION | PEELING",
                                "params.spectrum must be PROJECTION or PEELING");
                    }
                    spectrum = OrbitSamplingMechanism.Spectrum.valueOf(name);
                    parameters.put("spectrum", name);
                }
                parameters.put("epsilon", epsilon);
                OrbitSamplingMechanism orbit = OrbitSamplingMechanism.of(d, k, bound, relation, epsilon, spectrum);
                noise.put("distribution", spectrum == OrbitSamplingMechanism.Spectrum.PROJECTION
                        ? "discrete Laplace eigenvalues (epsilon/4) + exact matrix Bingham on Gr(k, d) (3 epsilon/4)"
                        : "discrete Laplace eigenvalues + sequential Bingham draws (epsilon/(k+1) each)");
                noise.put("spectrum", spectrum.name());
                return planned(kind, mechanism, parameters, orbit.privacyLoss(), orbit.privacyLoss(), noise,
                        new LowRankSpec(null, null, null, null, orbit, k, false, 0));
            }
        }
    }

    private record Gaussian(@Nullable Double rho, double epsilon, double delta) {}

    /** The shared Gaussian budget reading, as doubles rounded down for calibration. */
    private static Gaussian gaussian(String mechanism, QueryRequest request, AccountingMode mode,
            Map<String, Object> parameters) {
        QueryPlanner.GaussianBudget b = QueryPlanner.gaussianBudget(mechanism, request, mode, parameters);
        return b.rho() != null ? new Gaussian(Decimals.toDoubleDown(b.rho()), 0, 0)
                : new Gaussian(null, Decimals.toDoubleDown(b.epsilon()), Decimals.toDoubleDown(b.delta()));
    }

    private static void requireEpsilonDelta(String mechanism, @Nullable BigDecimal epsilon,
            @Nullable BigDecimal delta) {
        if (epsilon == null || delta == null) {
            throw PrivmatException.invalidParameter(epsilon == null ? "epsilon" : "delta", "(0, 100] and (0, 0.01]",
                    mechanism + " needs epsilon and delta");
        }
    }

    private static void checkFactorSize(int m, int width) {
        if ((long) m * width > MAX_FACTOR_ENTRIES) {
            throw PrivmatException.invalidParameter("params.k", "smaller", "the job would hold m·" + width + " = "
                    + (long) m * width + " values per factor (more than " + MAX_FACTOR_ENTRIES + "); lower k");
        }
    }

    private static double number(Map<String, Object> params, String name, double min, double max) {
        Object v = params.get(name);
        if (v instanceof Number n && Double.isFinite(n.doubleValue()) && n.doubleValue() >= min
                && n.doubleValue() <= max) {
            return n.doubleValue();
        }
        throw PrivmatException.invalidParameter("params." + name, "[" + min + ", " + max + "]",
                "params." + name + " must be a finite number in [" + min + ", " + max + "]");
    }

    private static QueryPlanner.Planned planned(QueryKind kind, String mechanism, Map<String, Object> parameters,
            PrivacyLoss mechanismLoss, PrivacyLoss charged, Map<String, Object> noise, LowRankSpec spec) {
        return new QueryPlanner.Planned(new QueryPlan(kind.name(), mechanism, parameters, mechanismLoss, charged,
                noise), spec);
    }
}
