package io.privmat.query;

import io.privmat.api.PrivmatException;
import io.privmat.dataset.Dataset;
import io.privmat.mechanism.GaussianVectorMechanism;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.covariance.AnalyzeGaussMechanism;
import io.privmat.mechanism.covariance.EigenSamplingMechanism;
import io.privmat.mechanism.covariance.WishartMechanism;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.Decimals;
import io.privmat.privacy.PrivacyLoss;
import io.privmat.privacy.PureDp;
import io.privmat.privacy.Zcdp;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Plans COVARIANCE and PCA queries (mechanisms.md §4, §6.1, §7). Parameters: {@code k} (PCA:
 * required, 1..d; COVARIANCE with EIGEN_SAMPLING: the rank of the estimate, default min(d, 10)) and
 * {@code center} (ANALYZE_GAUSS with REPLACE_ONE only: 10% of the budget privately releases the
 * column sums, and the scatter matrix XᵀX − ŝŝᵀ/n is returned; n must be public).
 */
final class CovariancePlanner {

    /** Share of the budget spent on the private column sums when centring. */
    static final BigDecimal CENTER_SHARE = new BigDecimal("0.1");

    private CovariancePlanner() {}

    static QueryPlanner.Planned plan(QueryKind kind, String mechanism, Dataset dataset, QueryRequest request,
            AccountingMode mode) {
        int d = Math.toIntExact(dataset.cols());
        double bound = dataset.rowNormBound();
        NeighbouringRelation relation = QueryPlanner.relation(dataset);
        QueryPlanner.checkGramDimension(d, mechanism);
        Map<String, Object> params = request.params() == null ? Map.of() : request.params();
        for (String key : params.keySet()) {
            if (!Set.of("k", "center").contains(key)) {
                throw PrivmatException.invalidParameter("params." + key, "k | center",
                        kind + " accepts params k and center only");
            }
        }
        boolean pca = kind == QueryKind.PCA;
        Integer k = intParam(params, "k", d);
        if (pca && k == null) {
            throw PrivmatException.invalidParameter("params.k", "[1, " + d + "]", "PCA needs params.k in [1, " + d + "]");
        }
        if (!pca && k != null && !mechanism.equals("EIGEN_SAMPLING")) {
            throw PrivmatException.invalidParameter("params.k", "absent", "COVARIANCE with " + mechanism
                    + " returns the full d×d matrix; params.k applies to PCA or EIGEN_SAMPLING");
        }
        int rank = k != null ? k : mechanism.equals("EIGEN_SAMPLING") ? Math.min(d, 10) : d;
        boolean center = boolParam(params, "center");
        if (center && !mechanism.equals("ANALYZE_GAUSS")) {
            throw PrivmatException.invalidParameter("params.center", "false", "centring is offered with ANALYZE_GAUSS only");
        }
        if (center && relation != NeighbouringRelation.REPLACE_ONE) {
            throw PrivmatException.invalidParameter("params.center", "false", "centring needs a public row count "
                    + "(REPLACE_ONE); under ADD_REMOVE n is private");
        }
        BigDecimal epsilon = request.epsilon();
        BigDecimal delta = request.delta();
        BigDecimal rho = request.rho();
        QueryPlanner.checkRanges(request);
        Map<String, Object> parameters = new TreeMap<>();
        parameters.put("kind", kind.name());
        parameters.put("mechanism", mechanism);
        if (k != null) {
            parameters.put("k", k);
        }
        if (center) {
            parameters.put("center", true);
        }
        Map<String, Object> noise = new LinkedHashMap<>();
        noise.put("frobeniusSensitivity", Sensitivities.gramFrobenius(bound, relation));
        switch (mechanism) {
            case "ANALYZE_GAUSS" -> {
                AnalyzeGaussMechanism ag;
                GaussianVectorMechanism mean = null;
                PrivacyLoss charged;
                BigDecimal covShare = center ? BigDecimal.ONE.subtract(CENTER_SHARE) : BigDecimal.ONE;
                QueryPlanner.GaussianBudget budget = QueryPlanner.gaussianBudget(mechanism, request, mode, parameters);
                if (budget.rho() != null) {
                    ag = AnalyzeGaussMechanism.forRho(d, bound, relation, down(rho.multiply(covShare)));
                    if (center) {
                        mean = GaussianVectorMechanism.forRho(Sensitivities.columnSumsL2(bound, relation),
                                down(rho.multiply(CENTER_SHARE)), d);
                    }
                } else {
                    ag = AnalyzeGaussMechanism.forApproxDp(d, bound, relation, down(epsilon.multiply(covShare)),
                            down(delta.multiply(covShare)));
                    if (center) {
                        mean = GaussianVectorMechanism.forApproxDp(Sensitivities.columnSumsL2(bound, relation),
                                down(epsilon.multiply(CENTER_SHARE)), down(delta.multiply(CENTER_SHARE)), d);
                    }
                }
                PrivacyLoss mechanismLoss = mean == null ? ag.privacyLoss()
                        : new Zcdp(ag.privacyLoss().rho().add(mean.privacyLoss().rho()));
                charged = mode == AccountingMode.BASIC ? new ApproxDp(epsilon, delta) : mechanismLoss;
                noise.put("distribution", "symmetric discrete Gaussian (G + Gᵀ)/2 on a grid");
                noise.put("sigma", ag.sigma());
                noise.put("granularity", ag.granularity());
                if (mean != null) {
                    noise.put("meanSigma", mean.sigma());
                }
                return new QueryPlanner.Planned(new QueryPlan(kind.name(), mechanism, parameters, mechanismLoss,
                        charged, noise), null, new CovarianceSpec(ag, null, null, rank, mean, pca));
            }
            case "WISHART" -> {
                if (rho != null) {
                    throw PrivmatException.invalidParameter("rho", "epsilon and delta",
                            "WISHART is (epsilon, delta)-DP: give epsilon and delta");
                }
                if (epsilon == null || delta == null) {
                    throw PrivmatException.invalidParameter(epsilon == null ? "epsilon" : "delta",
                            "(0, 2] and (0, 0.01]", "WISHART needs epsilon and delta");
                }
                if (epsilon.compareTo(BigDecimal.valueOf(2)) > 0) {
                    throw PrivmatException.invalidParameter("epsilon", "(0, 2]",
                            "epsilon must be in (0, 2] for WISHART (its analysis covers no more)");
                }
                if (mode == AccountingMode.PURE) {
                    throw QueryPlanner.incompatible(mode, mechanism);
                }
                parameters.put("epsilon", epsilon);
                parameters.put("delta", delta);
                WishartMechanism w = WishartMechanism.of(d, bound, epsilon, delta);
                noise.put("distribution", "Wishart_d(B²·I, k)");
                noise.put("degreesOfFreedom", w.degrees());
                noise.put("granularity", w.granularity());
                return new QueryPlanner.Planned(new QueryPlan(kind.name(), mechanism, parameters, w.privacyLoss(),
                        w.privacyLoss(), noise), null, new CovarianceSpec(null, w, null, rank, null, pca));
            }
            default -> {
                if (rho != null || delta != null) {
                    throw PrivmatException.invalidParameter(rho != null ? "rho" : "delta", "epsilon only",
                            "EIGEN_SAMPLING is pure epsilon-DP: give epsilon only");
                }
                if (epsilon == null) {
                    throw PrivmatException.invalidParameter("epsilon", "(0, 100]", "EIGEN_SAMPLING needs epsilon");
                }
                parameters.put("epsilon", epsilon);
                EigenSamplingMechanism m = EigenSamplingMechanism.of(d, rank, bound, relation, epsilon);
                PureDp loss = m.privacyLoss();
                noise.put("distribution", "discrete Laplace eigenvalues + exact Bingham eigenvectors");
                noise.put("epsilonPerStep", m.epsilonPerStep());
                noise.put("rank", rank);
                return new QueryPlanner.Planned(new QueryPlan(kind.name(), mechanism, parameters, loss, loss, noise),
                        null, new CovarianceSpec(null, null, m, rank, null, pca));
            }
        }
    }

    private static double down(BigDecimal v) {
        return Decimals.toDoubleDown(v.round(new MathContext(34, RoundingMode.FLOOR)));
    }

    static @org.jspecify.annotations.Nullable Integer intParam(Map<String, Object> params, String name, int d) {
        Object v = params.get(name);
        if (v == null) {
            return null;
        }
        if (v instanceof Number n && new BigDecimal(n.toString()).stripTrailingZeros().scale() <= 0) {
            long k = n.longValue();
            if (k >= 1 && k <= d) {
                return (int) k;
            }
        }
        throw PrivmatException.invalidParameter("params." + name, "[1, " + d + "]",
                "params." + name + " must be an integer in [1, " + d + "]");
    }

    static boolean boolParam(Map<String, Object> params, String name) {
        Object v = params.get(name);
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        throw PrivmatException.invalidParameter("params." + name, "true | false", "params." + name + " must be a boolean");
    }
}
