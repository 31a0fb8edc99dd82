package io.privmat.mechanism.covariance;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.Described;
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
import java.util.EnumSet;
import java.util.List;

/**
 * EIGEN_SAMPLING (Amin, Dick, Kulesza, Muñoz Medina, Vassilvitskii 2019): eigenvalues by the discrete
 * Laplace mechanism, eigenvectors by exact Bingham sampling, pure ε-DP by composition over k + 1
 * steps. docs/mechanisms/covariance.md.
 */
public final class EigenSampling extends Described {

    public EigenSampling() {
        super("EIGEN_SAMPLING", "Laplace eigenvalues and Bingham-sampled eigenvectors (pure epsilon-DP). "
                + Samplers.LIMIT, EnumSet.of(QueryKind.COVARIANCE, QueryKind.PCA), MATRIX, BOTH,
                QueryBudget.Form.PURE_EPSILON, QueryBudget.MAX_EPSILON, Input.GRAM, List.of(Param.integer("k", 1,
                        Math.min(Limits.MAX_K, Samplers.MAX_COLUMNS), null, "the rank (PCA: default 1, the noise "
                                + "grows with k; COVARIANCE: default min(d, 10)); at most min(d, " + Math.min(Limits.MAX_K, Samplers.MAX_COLUMNS)
                                + ") (one exact Bingham draw and one d × d eigendecomposition per component)")));
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return spectralGram(facts, "xxᵀ − yyᵀ has eigenvalues in [−B², B²]: the eigenvalues "
                + "move by ≤ B² (Weyl) and each Bingham score uᵀCu by ≤ B²; L1 of the eigenvalues: "
                + "Sensitivities.eigenvaluesL1");
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
        boolean pca = kind == QueryKind.PCA;
        int rank = Covariances.rank(kind, params, d, Math.min(d, 10), 1);
        EigenSamplingMechanism m = EigenSamplingMechanism.of(d, rank, facts.rowNormBound(), facts.relation(),
                budget.epsilon());
        Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
        noise.put(NoiseFacts.SPECTRAL_SENSITIVITY, sensitivity(kind, params, facts).value());
        noise.put(NoiseFacts.DISTRIBUTION, "discrete Laplace eigenvalues + exact Bingham eigenvectors");
        noise.put(NoiseFacts.EPSILON_PER_STEP, m.epsilonPerStep());
        noise.put(NoiseFacts.RANK, rank);
        noise.put(NoiseFacts.SAMPLER_FAILURE_BOUND, m.failureProbabilityBound());
        noise.put(NoiseFacts.SAMPLER_POLICY, Samplers.POLICY);
        double upper = facts.publicRows() == null ? Double.POSITIVE_INFINITY : facts.publicRows();
        return new Plan(spec(kind, budget, params, facts), PrivacyMap.of(m.privacyLoss()), noise, Input.GRAM,
                (data, random) -> new Release.Covariance(m.release(data.gram(false).gram(), upper, !pca, random),
                        pca, false, null, Facts.empty(ReleaseMeta.VOCABULARY)));
    }

    private static EigenSamplingMechanism mechanism(Plan plan) {
        PublicFacts facts = plan.spec().facts();
        return EigenSamplingMechanism.of(facts.cols(), plan.noise().get(NoiseFacts.RANK),
                facts.rowNormBound(), facts.relation(), plan.spec().budget().epsilon());
    }

    /** Eigenvalues: a Laplace bound; subspace: the Bingham draws' captured-variance gap ({@link Samplings}). */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        PublicFacts facts = plan.spec().facts();
        EigenSamplingMechanism m = mechanism(plan);
        double b2 = facts.rowNormBound() * facts.rowNormBound();
        int k = plan.noise().get(NoiseFacts.RANK);
        return Samplings.quote(facts.cols(), k, Samplings.eigenvalueHalf(m.eigenvalueNoise(), b2, facts.cols(),
                ResultAccuracy.DEFAULT_LEVEL), m.binghamParameter() / b2, "eigenvalues");
    }

    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        PublicFacts facts = plan.spec().facts();
        EigenSamplingMechanism m = mechanism(plan);
        double b2 = facts.rowNormBound() * facts.rowNormBound();
        int k = plan.noise().get(NoiseFacts.RANK);
        double half = Samplings.eigenvalueHalf(m.eigenvalueNoise(), b2, facts.cols(), level);
        return Samplings.result(Samplings.eigenIntervals("eigenvalues", ((Release.Covariance) release).result()
                .eigenvalues(), half, Covariances.upper(facts), false, level), half, facts.cols(), k, m.binghamParameter() / b2,
                level);
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            NoiseFacts.EPSILON_PER_STEP.note("EIGEN_SAMPLING: epsilon of each of its k + 1 steps"),
            NoiseFacts.RANK.note("EIGEN_SAMPLING: rank of the released estimate"));
    }
}
