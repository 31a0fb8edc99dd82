package io.privmat.mechanism.covariance;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.catalog.Accuracies;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorBasis;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.Limits;
import io.privmat.mechanism.catalog.NeighbouringChange;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Param;
import io.privmat.mechanism.catalog.Params;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PrivacyMap;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.Sensitivity;
import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.List;

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
                QueryBudget.Form.APPROXIMATE, BigDecimal.valueOf(2), Input.GRAM, List.of(
                        Param.integer("k", 1, Limits.MAX_GRAM_DIMENSION, null, "PCA: the number of components "
                                + "(1..d); default: every eigenvalue above the noise's 95% bound (at least 1), chosen "
                                + "after the release from the released values"),
                        new Param("nu", Param.Type.NUMBER, 0.0, 1.0, true, null, List.of(),
                                "SKETCH: failure probability of each stated interval (default 0.05)")));
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return spectralGram(facts, "one row changes XᵀX by xxᵀ (or xxᵀ − yyᵀ), of spectral "
                + "norm ≤ B² under both relations (Sheffet's analysis)");
    }


    @Override
    public RequestParams exampleParams(QueryKind kind) {
        return rankOneFor(kind, QueryKind.PCA);
    }

    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        return orthogonalRows(facts);
    }

    @Override
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
        int d = facts.cols();
        Limits.checkGramDimension(d, name());
        WishartMechanism w = WishartMechanism.of(d, facts.rowNormBound(), budget.epsilon(), budget.delta());
        double b2 = facts.rowNormBound() * facts.rowNormBound();
        Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
        PrivacyMap privacy = PrivacyMap.of(w.privacyLoss());
        if (kind == QueryKind.SKETCH) {
            Limits.refuse(params, "k", "params.k applies to PCA");
            double nu = params.has("nu") ? params.number("nu") : DEFAULT_NU;
            noise.put(NoiseFacts.DEGREES_OF_FREEDOM, w.degrees());
            noise.put(NoiseFacts.NU, nu);
            return new Plan(spec(kind, budget, params, facts), privacy, noise, Input.GRAM, (data, random) -> {
                double[] c = w.release(data.gram(false).gram(), random);
                return new Release.Sketch(false, name(), d, d, c, meta(w, b2, nu));
            });
        }
        Limits.refuse(params, "nu", "params.nu applies to SKETCH");
        boolean pca = kind == QueryKind.PCA;
        int rank = Covariances.rank(kind, params, d, d, Covariances.AUTO);
        boolean auto = rank == Covariances.AUTO;
        // PCA without k: the eigenvalues above the result's own spectral bound are kept.
        double spectral = Accuracies.wishartSpectral(w.degrees(), d, b2, w.granularity(), ResultAccuracy.DEFAULT_LEVEL);
        noise.put(NoiseFacts.SPECTRAL_SENSITIVITY, sensitivity(kind, params, facts).value());
        noise.put(NoiseFacts.DISTRIBUTION, "Wishart_d(B²·I, k)");
        noise.put(NoiseFacts.DEGREES_OF_FREEDOM, w.degrees());
        noise.put(NoiseFacts.GRANULARITY, w.granularity());
        return new Plan(spec(kind, budget, params, facts), privacy, noise, Input.GRAM, (data, random) -> {
            double[] noisy = w.release(data.gram(false).gram(), random);
            double[] storable = pca ? null : noisy.clone();
            // Debias (subtract k·B²·I), then project: docs/mechanisms/covariance.md.
            var released = w.estimate(noisy, auto ? d : rank, Covariances.upper(facts), !pca);
            return new Release.Covariance(auto ? Covariances.top(released, spectral) : released,
                    pca, false, storable, pca ? Facts.empty(ReleaseMeta.VOCABULARY) : meta(w, b2, DEFAULT_NU));
        });
    }

    private static Facts meta(WishartMechanism w, double b2, double nu) {
        Facts.Builder meta = Facts.builder(ReleaseMeta.VOCABULARY);
        meta.put(ReleaseMeta.DEGREES, w.degrees());
        meta.put(ReleaseMeta.B2, b2);
        meta.put(ReleaseMeta.GRANULARITY, w.granularity());
        meta.put(ReleaseMeta.NU, nu);
        return meta.build();
    }

    private static double[] noiseBounds(Plan plan, double level) {
        PublicFacts facts = plan.spec().facts();
        int d = facts.cols();
        long k = plan.noise().get(NoiseFacts.DEGREES_OF_FREEDOM);
        double b2 = facts.rowNormBound() * facts.rowNormBound();
        double g = granularity(plan);
        double spectral = Accuracies.wishartSpectral(k, d, b2, g, level);
        return new double[] {spectral, Math.sqrt(d) * spectral};
    }

    /**
     * COVARIANCE and PCA: the centred noise W − k·B²·I has Frobenius RMS B²·√(k·d(d+1)) (exact) and
     * the spectral bound of {@link Accuracies#wishartSpectral}; SKETCH: each free directional
     * variance xᵀĈx − k·B² is within B²(2√(k·t) + 2t) + d·g/2 at probability 1 − ν, t = ln(2/ν)
     * (Laurent–Massart on xᵀWx ~ B²·χ²_k).
     */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        PublicFacts facts = plan.spec().facts();
        int d = facts.cols();
        long k = plan.noise().get(NoiseFacts.DEGREES_OF_FREEDOM);
        double b2 = facts.rowNormBound() * facts.rowNormBound();
        if (plan.spec().kind() == QueryKind.SKETCH) {
            return List.of(sketchAnswer(plan, k, b2, d));
        }
        double[] b = noiseBounds(plan, ResultAccuracy.DEFAULT_LEVEL);
        int rank = plan.spec().params().optionalInteger("k") == null ? d : plan.spec().params().integer("k");
        return Covariances.gramQuote(plan.spec().kind(), rank, b[0], Accuracies.wishartFrobeniusRms(k, d, b2), null,
                ErrorBasis.EXACT, "W − k·B²·I, W ~ Wishart_d(B²·I, k)");
    }

    private static ErrorStatement sketchAnswer(Plan plan, long k, double b2, int d) {
        double nu = plan.noise().get(NoiseFacts.NU);
        double t = Math.log(2 / nu);
        double half = b2 * (2 * Math.sqrt(k * t) + 2 * t) + granularity(plan) / 2 * d;
        return new ErrorStatement("directionalVariance", "absPerAnswer", half, 1 - nu, ErrorBasis.BOUND,
                "xᵀWx ~ B²·χ²_k for a unit x (Laurent–Massart), plus the grid rounding");
    }

    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        if (release instanceof Release.Sketch) {
            PublicFacts facts = plan.spec().facts();
            long k = plan.noise().get(NoiseFacts.DEGREES_OF_FREEDOM);
            return new ResultAccuracy(level, List.of(), List.of(sketchAnswer(plan, k,
                    facts.rowNormBound() * facts.rowNormBound(), facts.cols())), "the release answers directional "
                    + "variances for free (/v1/releases); each answer carries its interval at 1 − ν");
        }
        double[] b = noiseBounds(plan, level);
        return Covariances.gramResult((Release.Covariance) release, level, b[0], b[1],
                Covariances.upper(plan.spec().facts()), "W − k·B²·I");
    }

    /** The grid of the plan's Wishart release (a public function of B). */
    private static double granularity(Plan plan) {
        PublicFacts facts = plan.spec().facts();
        return WishartMechanism.of(facts.cols(), facts.rowNormBound(), plan.spec().budget().epsilon(),
                plan.spec().budget().delta()).granularity();
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            NoiseFacts.DEGREES_OF_FREEDOM.note("WISHART: degrees of freedom k of the Wishart_d(B²·I, k) noise"),
            ReleaseMeta.DEGREES.note("WISHART: degrees of freedom k of the noise"));
    }
}
