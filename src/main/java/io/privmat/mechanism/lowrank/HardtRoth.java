package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.catalog.Accuracies;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorBasis;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.Limits;
import io.privmat.mechanism.catalog.LowRanks;
import io.privmat.mechanism.catalog.NeighbouringChange;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.NoiseWarning;
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
import io.privmat.mechanism.catalog.SignalToNoise;
import java.util.EnumSet;
import java.util.List;

/**
 * HARDT_ROTH (Hardt–Roth 2012): a Gaussian range finder X·Ω + N, public coherence pruning, and a
 * Gaussian projection step; (ε, δ)-DP with δ/4 for Ω's norm bound, charged as δ/4-approximate ρ-zCDP
 * under ZCDP and as its (ε, δ) under BASIC. REPLACE_ONE only. docs/mechanisms/low-rank.md.
 */
public final class HardtRoth extends Described {

    public static final int DEFAULT_OVERSAMPLING = 10;

    public HardtRoth() {
        super("HARDT_ROTH", "Private range finder plus projection; gains over randomized response when d ≫ m.",
                EnumSet.of(QueryKind.LOW_RANK, QueryKind.TOP_SINGULAR_VECTORS), MATRIX, REPLACE_ONE,
                QueryBudget.Form.APPROXIMATE, QueryBudget.MAX_EPSILON, Input.ROW_STREAM, List.of(LowRanks.kOne(Limits.MAX_K),
                        Param.integer("oversampling", 1, 100, DEFAULT_OVERSAMPLING, "extra columns p of the range finder"),
                        Param.number("coherence", 1, Double.MAX_VALUE, null, "the public incoherence μ₀ ≥ 1 the owner "
                                + "asserts; sets the pruning threshold (absent: no pruning)"),
                        LowRanks.shrink()));
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return new Sensitivity("X", "L2", 2 * facts.rowNormBound(), "one replaced row moves X by ≤ 2B in Frobenius "
                + "norm; the range finder's sensitivity is 2B‖Ω‖ with ‖Ω‖ bounded except with probability δ/4");
    }


    @Override
    public RequestParams exampleParams(QueryKind kind) {
        return RequestParams.of("k", 1);
    }

    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        return rowAgainstNegation(facts, axis(facts, 0));
    }

    /**
     * The two Gaussian steps (calibrated together to (ε, 3δ/4) by Gaussian-DP composition) composed
     * with the failure event of Ω's norm bound (δ/4): δ/4-approximate 2ρ-zCDP, and (ε, δ).
     */
    public static PrivacyMap privacy(HardtRothMechanism hr) {
        PrivacyMap steps = PrivacyMap.compose(2, PrivacyMap.of(hr.stepLoss())).calibratedTo(hr.stepsCalibration());
        return PrivacyMap.compose(List.of(steps, PrivacyMap.failure(hr.projectionFailureProbability())));
    }

    @Override
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
        int d = facts.cols();
        int m = facts.requirePublicRows(name());
        int k = Limits.requireK(params, Math.min(d, Limits.MAX_K), kind.name());
        int p = params.integer("oversampling");
        int l = Math.min(d, k + p);
        Limits.checkFactorSize(m, l);
        // Absent: τ = 1, nothing is pruned (no incoherence is assumed).
        Double given = params.optionalNumber("coherence");
        double coherence = given != null ? given : m / (4.0 * l * Math.log(Math.max(m, 3)));
        HardtRothMechanism base = HardtRothMechanism.of(m, d, k, p, facts.rowNormBound(), coherence, budget.epsilon(),
                budget.delta());
        HardtRothMechanism hr = params.bool("shrink") ? base.withShrinkage() : base;
        Facts.Builder noise = LowRanks.noise("discrete Gaussian on the range finder and the projection, on a grid");
        noise.put(NoiseFacts.OVERSAMPLED_RANK, l);
        noise.put(NoiseFacts.COHERENCE, coherence);
        noise.put(NoiseFacts.PRUNING_THRESHOLD, HardtRothMechanism.pruningThreshold(coherence, l, Math.max(m, 3), m));
        return new Plan(spec(kind, budget, params, facts), privacy(hr), noise,
                Input.ROW_STREAM, (data, random) -> LowRanks.factors(hr.release(data.rows(2), random), kind));
    }

    private static HardtRothMechanism mechanism(Plan plan) {
        PublicFacts facts = plan.spec().facts();
        Params p = plan.spec().params();
        return HardtRothMechanism.of(Math.toIntExact(facts.publicRows()), facts.cols(), p.integer("k"),
                p.integer("oversampling"), facts.rowNormBound(), plan.noise().get(NoiseFacts.COHERENCE),
                plan.spec().budget().epsilon(), plan.spec().budget().delta());
    }

    /**
     * Quote: the range finder's share of Hardt–Roth's excess, c·√(m − k)·σ_Y (the projection's noise
     * scale depends on the private basis and is stated with the result).
     */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        return expectedError(mechanism(plan), Math.toIntExact(plan.spec().facts().publicRows()),
                plan.spec().params().integer("k"));
    }

    /** The quote's statement for a Hardt–Roth run whose range finder has {@code m} rows. */
    public static List<ErrorStatement> expectedError(HardtRothMechanism hr, int m, int k) {
        int l = hr.oversampledRank();
        if (l - k < 2) {
            return List.of(new ErrorStatement("rangeFinder", "noiseNorm", LowRankAccuracy.gordon(hr.rangeFinderSigma(),
                    m, l, ResultAccuracy.DEFAULT_LEVEL), ResultAccuracy.DEFAULT_LEVEL, ErrorBasis.BOUND,
                    "spectral norm of the range finder's noise; Hardt–Roth's error theorem needs ℓ − k ≥ 2"));
        }
        double c = Math.sqrt(1 + (double) k / (l - k - 1));
        return List.of(new ErrorStatement("lowRank", "excessFrobeniusNorm", c * Math.sqrt(m - k) * hr.rangeFinderSigma(),
                null, ErrorBasis.BOUND, "range-finder part of Hardt–Roth's excess: E‖A − Âₖ‖_F ≤ (c + 1)‖A − Aₖ‖_F + "
                + "value + 2√(2k)(σₖ₊₁(A) + ‖N‖₂), c = " + c + ", when nothing is pruned"));
    }

    /**
     * Result: Hardt–Roth's data-free excess with the released projection-noise bound, when its
     * theorem applies (nothing pruned, ℓ − k ≥ 2); otherwise the two noise norms only.
     */
    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        Factorization f = ((Release.Factors) release).factorization();
        return accuracy(f.facts(), f.m(), f.d(), f.k(), level);
    }

    /** The released singular values against the projection noise's spectral bound (Weyl), see {@link #warnings(Release, ResultAccuracy)}. */
    @Override
    public List<NoiseWarning> warnings(Plan plan, Release release, ResultAccuracy accuracy) {
        return warnings(release, accuracy);
    }

    /**
     * Hardt–Roth's released s are the singular values of the noisy ℓ × d projection B̃ = QᵀA + N:
     * each within ‖N‖₂ of B's (Weyl), so one not above the stated projection bound cannot be told
     * from 0 (docs/accuracy/warnings.md).
     */
    public static List<NoiseWarning> warnings(Release release, ResultAccuracy accuracy) {
        ErrorStatement projection = accuracy.bound("projection", "noiseNorm");
        return SignalToNoise.spectrum("singularValues", ((Release.Factors) release).factorization().s(),
                projection.value(), projection.level());
    }

    /**
     * The result's statements from a Hardt–Roth run's facts, for its range finder's {@code m} rows and
     * the projection's {@code d} columns.
     */
    public static ResultAccuracy accuracy(Facts facts, int m, int d, int k, double level) {
        double alpha = Accuracies.alpha(level);
        int l = facts.get(FactorizationFacts.OVERSAMPLED_RANK);
        double sigmaY = facts.get(FactorizationFacts.RANGE_FINDER_SIGMA);
        double t95 = Math.sqrt(2 * Math.log(4 / 0.05));
        double t = Math.sqrt(2 * Math.log(4 / alpha));
        // σ₂·max-scale, released through its 95% bound; restated at the level.
        double projectionScale = facts.get(FactorizationFacts.PROJECTION_NOISE_BOUND95)
                / (Math.sqrt(l) + Math.sqrt(d) + t95);
        double projection = projectionScale * (Math.sqrt(l) + Math.sqrt(d) + t);
        List<ErrorStatement> bounds = new java.util.ArrayList<>();
        bounds.add(new ErrorStatement("rangeFinder", "noiseNorm", sigmaY * (Math.sqrt(m) + Math.sqrt(l) + t), level,
                ErrorBasis.BOUND, "spectral norm of the range finder's m × ℓ Gaussian noise"));
        bounds.add(new ErrorStatement("projection", "noiseNorm", projection, level, ErrorBasis.BOUND,
                "spectral norm of the projection's ℓ × d Gaussian noise"));
        boolean applies = facts.has(FactorizationFacts.ERROR_BOUND);
        if (applies) {
            bounds.add(LowRankAccuracy.hardtRoth(sigmaY, projection, m, k, l));
        }
        return new ResultAccuracy(level, List.of(), bounds, applies ? "Hardt–Roth's bound applies (nothing pruned)"
                : "entries were pruned or ℓ − k < 2: only the noise norms are stated");
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            NoiseFacts.OVERSAMPLED_RANK.note("HARDT_ROTH: ℓ = min(d, k + oversampling), the range finder's "
                    + "width"),
            NoiseFacts.COHERENCE.note("HARDT_ROTH: the incoherence μ₀ that sets the pruning threshold"),
            NoiseFacts.PRUNING_THRESHOLD.note("HARDT_ROTH: entries of the range finder's basis above it are "
                    + "zeroed"),
            FactorizationFacts.OVERSAMPLED_RANK.note("HARDT_ROTH: ℓ = min(d, k + oversampling)"),
            FactorizationFacts.RANGE_FINDER_SENSITIVITY.note("HARDT_ROTH: L2 sensitivity of the range finder "
                    + "X·Ω"),
            FactorizationFacts.RANGE_FINDER_SIGMA.note("HARDT_ROTH: noise standard deviation of the range "
                    + "finder"),
            FactorizationFacts.PRUNING_THRESHOLD.note("HARDT_ROTH: the public pruning threshold τ"),
            FactorizationFacts.PRUNED_FRACTION.note("HARDT_ROTH: fraction of the (private) basis entries "
                    + "zeroed by pruning"),
            FactorizationFacts.PROJECTION_NOISE.note("HARDT_ROTH: how the projection step's noise was scaled"),
            FactorizationFacts.RANGE_FINDER_NOISE_BOUND95.note("HARDT_ROTH: spectral norm of the range "
                    + "finder's noise, probability ≥ 0.95"),
            FactorizationFacts.PROJECTION_NOISE_BOUND95.note("HARDT_ROTH: spectral norm of the projection's "
                    + "noise, probability ≥ 0.95"));
    }
}
