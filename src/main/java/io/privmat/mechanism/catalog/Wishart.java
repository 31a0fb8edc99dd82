package io.privmat.mechanism.catalog;

import io.privmat.mechanism.covariance.WishartMechanism;
import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * WISHART (Sheffet 2019): XᵀX plus a Wishart_d(B²·I, k) matrix, (ε, δ)-DP for ε ≤ 2; answers
 * COVARIANCE and PCA (post-processed) and SKETCH (the noisy matrix kept as a release for free
 * directional variances). docs/mechanisms/covariance.md, docs/mechanisms/sketches.md.
 */
public final class Wishart extends Described {

    static final double DEFAULT_NU = 0.05;

    public Wishart() {
        super("WISHART", "XᵀX plus Wishart noise, (epsilon, delta)-DP for epsilon ≤ 2.",
                EnumSet.of(QueryKind.COVARIANCE, QueryKind.PCA, QueryKind.SKETCH), MATRIX, BOTH,
                Budget.Form.APPROXIMATE, BigDecimal.valueOf(2), Input.GRAM, List.of(
                        Param.integer("k", 1, Limits.MAX_GRAM_DIMENSION, null, "PCA: the number of components (1..d)"),
                        new Param("nu", Param.Type.NUMBER, 0.0, 1.0, true, null, List.of(),
                                "SKETCH: failure probability of each stated interval (default 0.05)")));
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return spectralGram(facts, "one row changes XᵀX by xxᵀ (or xxᵀ − yyᵀ), of spectral "
                + "norm ≤ B² under both relations (Sheffet's analysis)");
    }


    @Override
    public Map<String, Object> exampleParams(QueryKind kind) {
        return rankOneFor(kind, QueryKind.PCA);
    }

    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        return orthogonalRows(facts);
    }

    @Override
    public Plan plan(QueryKind kind, Budget budget, Params params, PublicFacts facts) {
        int d = facts.cols();
        Limits.checkGramDimension(d, name());
        WishartMechanism w = WishartMechanism.of(d, facts.rowNormBound(), budget.epsilon(), budget.delta());
        double b2 = facts.rowNormBound() * facts.rowNormBound();
        Map<String, Object> noise = new LinkedHashMap<>();
        PrivacyMap privacy = PrivacyMap.of(w.privacyLoss());
        if (kind == QueryKind.SKETCH) {
            Limits.refuse(params, "k", "params.k applies to PCA");
            double nu = params.has("nu") ? params.number("nu") : DEFAULT_NU;
            noise.put("degreesOfFreedom", w.degrees());
            noise.put("nu", nu);
            return new Plan(spec(kind, budget, params, facts), privacy, noise, Input.GRAM, (data, random) -> {
                double[] c = w.release(data.gram(false).gram(), random);
                return new Release.Sketch(false, name(), d, d, c, meta(w, b2, nu));
            });
        }
        Limits.refuse(params, "nu", "params.nu applies to SKETCH");
        boolean pca = kind == QueryKind.PCA;
        int rank = Covariances.rank(kind, params, d, d);
        noise.put("spectralSensitivity", sensitivity(kind, params, facts).value());
        noise.put("distribution", "Wishart_d(B²·I, k)");
        noise.put("degreesOfFreedom", w.degrees());
        noise.put("granularity", w.granularity());
        return new Plan(spec(kind, budget, params, facts), privacy, noise, Input.GRAM, (data, random) -> {
            double[] noisy = w.release(data.gram(false).gram(), random);
            double[] storable = pca ? null : noisy.clone();
            // Debias (subtract k·B²·I), then project: docs/mechanisms/covariance.md.
            return new Release.Covariance(w.estimate(noisy, rank, Covariances.upper(facts), !pca),
                    pca, false, storable, pca ? Map.of() : meta(w, b2, DEFAULT_NU));
        });
    }

    private static Map<String, Object> meta(WishartMechanism w, double b2, double nu) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("degrees", w.degrees());
        meta.put("b2", b2);
        meta.put("granularity", w.granularity());
        meta.put("nu", nu);
        return meta;
    }
}
