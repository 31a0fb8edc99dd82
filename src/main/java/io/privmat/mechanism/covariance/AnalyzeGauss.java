package io.privmat.mechanism.covariance;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.GaussianVectorMechanism;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.Accuracies;
import io.privmat.mechanism.catalog.DataAccess;
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
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PrivacyMap;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.Sensitivity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * ANALYZE_GAUSS (Dwork–Talwar–Thakurta–Zhang 2014): XᵀX plus symmetric discrete Gaussian noise,
 * Frobenius sensitivity B² (ADD_REMOVE) or √2·B² (REPLACE_ONE), {@link Sensitivities#gramFrobenius};
 * docs/mechanisms/covariance.md. With {@code center} (REPLACE_ONE only: n must be public) it is a
 * composite: 90% of the budget on XᵀX, 10% on the column sums, composed by
 * {@link PrivacyMap#compose}; the scatter matrix XᵀX − ŝŝᵀ/n is post-processing.
 */
public final class AnalyzeGauss extends Described {

    /** Share of the budget spent on the private column sums when centring. */
    public static final BigDecimal CENTER_SHARE = new BigDecimal("0.1");

    public AnalyzeGauss() {
        super("ANALYZE_GAUSS", "XᵀX plus symmetric discrete Gaussian noise; PSD projection and top-k are "
                + "post-processing.", EnumSet.of(QueryKind.COVARIANCE, QueryKind.PCA), MATRIX, BOTH,
                QueryBudget.Form.GAUSSIAN, QueryBudget.MAX_EPSILON, Input.GRAM, List.of(
                        Param.integer("k", 1, Limits.MAX_GRAM_DIMENSION, null, "PCA: the number of components "
                                + "(1..d); default: every eigenvalue above the noise's 95% bound (at least 1), chosen "
                                + "after the release from the released values"),
                        Param.bool("center", false, "REPLACE_ONE only: spend 10% of the budget on private column "
                                + "sums and return the scatter matrix")));
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return new Sensitivity("XᵀX", "Frobenius", Sensitivities.gramFrobenius(facts.rowNormBound(), facts.relation()),
                "‖xxᵀ‖_F = ‖x‖² ≤ B²; replacing x by y: ‖xxᵀ − yyᵀ‖_F ≤ √2·B²");
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
        double bound = facts.rowNormBound();
        Limits.checkGramDimension(d, name());
        boolean pca = kind == QueryKind.PCA;
        int rank = Covariances.rank(kind, params, d, d, Covariances.AUTO);
        boolean auto = rank == Covariances.AUTO;
        boolean center = params.bool("center");
        if (center && facts.publicRows() == null) {
            throw PlanningException.invalid("params.center", "false", "centring needs a public row count "
                    + "(REPLACE_ONE); under ADD_REMOVE n is private");
        }
        QueryBudget covBudget = center ? budget.share(BigDecimal.ONE.subtract(CENTER_SHARE)) : budget;
        AnalyzeGaussMechanism ag = covBudget.isRho()
                ? AnalyzeGaussMechanism.forRho(d, bound, facts.relation(), covBudget.rhoDown())
                : AnalyzeGaussMechanism.forApproxDp(d, bound, facts.relation(), covBudget.epsilonDown(),
                        covBudget.deltaDown());
        List<PrivacyMap> parts = new ArrayList<>();
        parts.add(PrivacyMap.calibrated(ag.privacyLoss(), covBudget));
        GaussianVectorMechanism mean = null;
        if (center) {
            QueryBudget meanBudget = budget.share(CENTER_SHARE);
            mean = meanMechanism(budget, facts);
            parts.add(PrivacyMap.calibrated(mean.privacyLoss(), meanBudget));
        }
        // Centred: the two shares (rounded down) were cut from the request, so the request's (ε, δ)
        // bounds their basic composition; calibratedTo checks that and states it.
        PrivacyMap privacy = center ? PrivacyMap.compose(parts).calibratedTo(budget) : parts.get(0);
        Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
        noise.put(NoiseFacts.FROBENIUS_SENSITIVITY, sensitivity(kind, params, facts).value());
        noise.put(NoiseFacts.DISTRIBUTION, "symmetric discrete Gaussian (G + Gᵀ)/2 on a grid");
        noise.put(NoiseFacts.SIGMA, ag.sigma());
        noise.put(NoiseFacts.GRANULARITY, ag.granularity());
        if (mean != null) {
            noise.put(NoiseFacts.MEAN_SIGMA, mean.sigma());
        }
        GaussianVectorMechanism meanMechanism = mean;
        // PCA without k: the eigenvalues above this bound (the result's own, at its level) are kept.
        double spectral = noiseBounds(facts, budget, center, ag.sigma(), ag.granularity(),
                ResultAccuracy.DEFAULT_LEVEL)[0];
        return new Plan(spec(kind, budget, params, facts), privacy, noise, Input.GRAM, (data, random) -> {
            DataAccess.Gram g = data.gram(center);
            double[] noisy = ag.release(g.gram(), random);
            Facts.Builder meta = Facts.builder(ReleaseMeta.VOCABULARY);
            double[] storable = null;
            if (!pca && !center) {
                storable = noisy.clone();
                meta.put(ReleaseMeta.SIGMA, ag.sigma());
                meta.put(ReleaseMeta.GRANULARITY, ag.granularity());
                meta.put(ReleaseMeta.NU, 0.05);
            }
            if (meanMechanism != null) {
                double n = facts.publicRows();
                double[] s = meanMechanism.release(g.sums(), random);
                for (int i = 0; i < d; i++) {
                    for (int j = 0; j < d; j++) {
                        noisy[i * d + j] -= s[i] * s[j] / n;
                    }
                }
            }
            var released = PostProcessing.psdAndTopK(noisy, d, auto ? d : rank, Covariances.upper(facts), !pca);
            return new Release.Covariance(auto ? Covariances.top(released, spectral) : released, pca, center, storable,
                    meta.build());
        });
    }

    /** The centred variant's column-sum mechanism, on {@link #CENTER_SHARE} of the budget. */
    private static GaussianVectorMechanism meanMechanism(QueryBudget budget, PublicFacts facts) {
        QueryBudget meanBudget = budget.share(CENTER_SHARE);
        double l2 = Sensitivities.columnSumsL2(facts.rowNormBound(), facts.relation());
        int d = facts.cols();
        return meanBudget.isRho() ? GaussianVectorMechanism.forRho(l2, meanBudget.rhoDown(), d)
                : GaussianVectorMechanism.forApproxDp(l2, meanBudget.epsilonDown(), meanBudget.deltaDown(), d);
    }

    /**
     * Bounds at {@code level} on the spectral and Frobenius norms of the released matrix's total
     * error before projection: E = (G + Gᵀ)/2 plus the grid rounding ({@link Accuracies}); centred,
     * also (ssᵀ − ŝŝᵀ)/n for ŝ = s + e, of norm ≤ (2‖s‖‖e‖ + ‖e‖²)/n ≤ 2B‖e‖ + ‖e‖²/n (‖s‖ ≤ n·B),
     * with ‖e‖ ≤ σ_s·√χ²_d-quantile + √d·g_s/2, the level's α split evenly between E and e.
     */
    private static double[] noiseBounds(Plan plan, double level) {
        return noiseBounds(plan.spec().facts(), plan.spec().budget(), plan.spec().params().bool("center"),
                plan.noise().get(NoiseFacts.SIGMA), plan.noise().get(NoiseFacts.GRANULARITY), level);
    }

    /** {@link #noiseBounds(Plan, double)} from the plan's parts (before the plan exists). */
    private static double[] noiseBounds(PublicFacts facts, QueryBudget budget, boolean center, double sigma, double g,
            double level) {
        int d = facts.cols();
        double each = center ? 1 - (1 - level) / 2 : level;
        double spectral = Accuracies.symmetricGaussianSpectral(sigma, d, g, each);
        double frobenius = Accuracies.symmetricGaussianFrobenius(sigma, d, g, each);
        if (center) {
            GaussianVectorMechanism mean = meanMechanism(budget, facts);
            double e = mean.sigma() * Math.sqrt(Accuracies.chiSquaredQuantile(d, each))
                    + Math.sqrt(d) * mean.granularity() / 2;
            double extra = 2 * facts.rowNormBound() * e + e * e / facts.publicRows();
            spectral += extra;
            frobenius += extra;
        }
        return new double[] {spectral, frobenius};
    }

    /**
     * COVARIANCE: the Frobenius RMS σ·√(d(d+1)/2) of (G + Gᵀ)/2 (exact; centred, a bound at the level
     * including the column sums' noise) and the spectral bound; PCA: eigenvalue error and captured
     * variance gap ({@link Covariances#gramQuote}).
     */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        double[] b = noiseBounds(plan, ResultAccuracy.DEFAULT_LEVEL);
        int d = plan.spec().facts().cols();
        int k = plan.spec().params().optionalInteger("k") == null ? d : plan.spec().params().integer("k");
        boolean center = plan.spec().params().bool("center");
        double frobenius = center ? b[1]
                : Accuracies.symmetricGaussianFrobeniusRms(plan.noise().get(NoiseFacts.SIGMA), d);
        return Covariances.gramQuote(plan.spec().kind(), k, b[0], frobenius, center ? ResultAccuracy.DEFAULT_LEVEL : null,
                center ? ErrorBasis.BOUND : ErrorBasis.EXACT, "E = (G + Gᵀ)/2, G i.i.d. N(0, σ²)");
    }

    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        double[] b = noiseBounds(plan, level);
        return Covariances.gramResult((Release.Covariance) release, level, b[0], b[1],
                Covariances.upper(plan.spec().facts()), "E = (G + Gᵀ)/2");
    }

    /** Its PCA release is the common covariance path the start-up warm-up compiles. */
    @Override
    public boolean warmUpRepresentative() {
        return true;
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            NoiseFacts.MEAN_SIGMA.note("centred ANALYZE_GAUSS: standard deviation of the column sums' noise"),
            ReleaseMeta.SIGMA.note("ANALYZE_GAUSS: standard deviation of the noise"));
    }
}
