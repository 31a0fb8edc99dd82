package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.Limits;
import io.privmat.mechanism.catalog.LowRanks;
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
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.Sensitivity;
import io.privmat.mechanism.covariance.Covariances;
import io.privmat.mechanism.covariance.Samplers;
import io.privmat.mechanism.covariance.Samplings;
import java.util.EnumSet;
import java.util.List;

/**
 * ORBIT_SAMPLING (after Mangoubi–Vishnoi): Laplace eigenvalues and an exact matrix Bingham draw on the
 * Grassmannian (PROJECTION) or sequential Bingham draws (PEELING); pure ε-DP by composition.
 * docs/mechanisms/low-rank.md.
 */
public final class OrbitSampling extends Described {

    public OrbitSampling() {
        super("ORBIT_SAMPLING", "Exponential-mechanism sampling of the top-k subspace (pure epsilon-DP). "
                + Samplers.LIMIT, EnumSet.of(QueryKind.TOP_SINGULAR_VECTORS), MATRIX, BOTH, QueryBudget.Form.PURE_EPSILON,
                QueryBudget.MAX_EPSILON, Input.GRAM, List.of(LowRanks.kOne(Math.min(Limits.MAX_K, Samplers.MAX_COLUMNS)),
                        Param.oneOf("spectrum", List.of("PROJECTION", "PEELING"), "PROJECTION",
                                "PROJECTION: one exact draw on the Grassmannian, k = 1 only; PEELING: k sequential "
                                + "Bingham draws (any k)")));
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return spectralGram(facts, "xxᵀ − yyᵀ has eigenvalues in [−B², B²], so the score tr(UᵀCU) of an "
                + "orthonormal d × k U moves by at most B² (‖Uᵀx‖² ≤ ‖x‖²) and each eigenvalue by at most B²");
    }


    @Override
    public RequestParams exampleParams(QueryKind kind) {
        return RequestParams.of("k", 1);
    }

    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        return orthogonalRows(facts);
    }

    @Override
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
        int d = facts.cols();
        Limits.checkGramDimension(d, name());
        int k = Limits.requireK(params, Math.min(d, Limits.MAX_K), kind.name());
        OrbitSamplingMechanism.Spectrum spectrum = OrbitSamplingMechanism.Spectrum.valueOf(params.name("spectrum"));
        OrbitSamplingMechanism orbit = OrbitSamplingMechanism.of(d, k, facts.rowNormBound(), facts.relation(),
                budget.epsilon(), spectrum);
        Facts.Builder noise = LowRanks.noise(spectrum == OrbitSamplingMechanism.Spectrum.PROJECTION
                ? "discrete Laplace eigenvalues (epsilon/4) + exact matrix Bingham on Gr(k, d) (3 epsilon/4)"
                : "discrete Laplace eigenvalues + sequential Bingham draws (epsilon/(k+1) each)");
        noise.put(NoiseFacts.SPECTRUM, spectrum.name());
        noise.put(NoiseFacts.SAMPLER_FAILURE_BOUND, orbit.failureProbabilityBound());
        noise.put(NoiseFacts.SAMPLER_POLICY, Samplers.POLICY);
        double upper = Covariances.upper(facts);
        return new Plan(spec(kind, budget, params, facts), PrivacyMap.of(orbit.privacyLoss()), noise, Input.GRAM,
                (data, random) -> LowRanks.factors(orbit.release(data.gram(false).gram(), upper, random), kind));
    }

    private static OrbitSamplingMechanism mechanism(Plan plan) {
        PublicFacts facts = plan.spec().facts();
        return OrbitSamplingMechanism.of(facts.cols(), plan.spec().params().integer("k"), facts.rowNormBound(),
                facts.relation(), plan.spec().budget().epsilon(),
                OrbitSamplingMechanism.Spectrum.valueOf(plan.spec().params().name("spectrum")));
    }

    private static double eigenHalf(OrbitSamplingMechanism m, PublicFacts facts, double level) {
        double unit = m.normalisedEigenvalues() ? facts.rowNormBound() * facts.rowNormBound() : 1;
        return Samplings.eigenvalueHalf(m.eigenvalueNoise(), unit, facts.cols(), level);
    }

    /**
     * The released s are roots of Laplace-noised eigenvalues of XᵀX: their squares are within the
     * eigenvalue bound; the subspace's captured-variance gap as for eigenvector sampling ({@link Samplings}).
     */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        PublicFacts facts = plan.spec().facts();
        OrbitSamplingMechanism m = mechanism(plan);
        return Samplings.quote(facts.cols(), plan.spec().params().integer("k"),
                eigenHalf(m, facts, ResultAccuracy.DEFAULT_LEVEL), m.binghamParameter(), "singularValuesSquared");
    }

    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        PublicFacts facts = plan.spec().facts();
        OrbitSamplingMechanism m = mechanism(plan);
        double[] s = ((Release.Factors) release).factorization().s();
        double half = eigenHalf(m, facts, level);
        return Samplings.result(Samplings.eigenIntervals("singularValues", s, half, Covariances.upper(facts), true,
                level), half, facts.cols(), plan.spec().params().integer("k"),
                m.binghamParameter(), level);
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            NoiseFacts.SPECTRUM.note("ORBIT_SAMPLING: PROJECTION or PEELING"),
            FactorizationFacts.SPECTRUM.note("ORBIT_SAMPLING: PROJECTION or PEELING"),
            FactorizationFacts.EPSILON_EIGENVALUES.note("ORBIT_SAMPLING PROJECTION: epsilon spent on the "
                    + "eigenvalues"),
            FactorizationFacts.EPSILON_SUBSPACE.note("ORBIT_SAMPLING PROJECTION: epsilon spent on the subspace"),
            FactorizationFacts.GUARANTEE.note("ORBIT_SAMPLING: the guarantee, in words"),
            FactorizationFacts.NOTE.note("ORBIT_SAMPLING: how to read the released values"));
    }
}
