package io.privmat.mechanism.completion;

import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.GaussianMatrices;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.GaussianLoss;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Private alternating least squares (Chien, Jain, Krichene, Rendle, Song, Thakurta, Zhang, ICML
 * 2021, "Private alternating least squares: practical private matrix completion with tighter
 * rates"), under joint DP: item factors are solved from noisy sufficient statistics, user factors
 * are solved locally by each user.
 *
 * <p><b>Algorithm.</b> V₀ (n × r) is random and data-independent. For t = 1..T: each user fits
 * uᵢ = argmin ‖P_Ω(yᵢ − uV_{t−1}ᵀ)‖² + λ_u‖u‖² from the public V_{t−1} and their own centred
 * ratings yᵢ, and clips it to ‖uᵢ‖ ≤ C. The global step releases, for every item j, the Gram
 * G_j = Σ_{i rated j} uᵢuᵢᵀ (r × r, symmetrised noise) and the right-hand side b_j = Σ_{i rated j} y_ij·uᵢ,
 * each plus Gaussian noise, and solves V_t[j] = (PSD(G̃_j) + λ_v I)⁻¹ b̃_j (post-processing). V_T is
 * the release; each user's prediction is uᵢV_Tᵀ from their own fit on V_T. No unobserved-item
 * ("gravity") term, no sampling of items.
 *
 * <p><b>Privacy.</b> User i's data enter the statistics only through their own (yᵢ, uᵢ), and uᵢ
 * depends only on the public V_{t−1} and user i's data. Stacked over all items, the Grams have
 * Frobenius sensitivity √s·C² (add/remove) or √(2s)·C² (replace), the right-hand sides L2
 * sensitivity L·C or 2L·C ({@link Sensitivities#alsItemGramsFrobenius},
 * {@link Sensitivities#alsItemRhsL2}). The 2T Gaussian releases compose adaptively in GDP; we give
 * each the same μ, σ_G = Δ_G·√(2T)·σ_AGM(ε, δ) and σ_b = Δ_b·√(2T)·σ_AGM(ε, δ) (or from ρ), inflated
 * for the grid. The releases G̃, b̃ are exact on the grid; the solves, PSD projections and user fits
 * are float post-processing. Nothing depends on m. One pass over the users per step
 * ({@link UserPasses}); the item statistics are exact sums of quantised per-user terms
 * ({@link AlsItemStatistic}); memory O(|Ω| + n·r²) in the service, O(n·r²) where an engine holds
 * the ratings.
 */
public final class DpAlsMechanism {

    private final AlsParameters params;
    private final GridNoise.GaussianPlan gramPlan;
    private final GridNoise.GaussianPlan rhsPlan;

    private DpAlsMechanism(AlsParameters params, GridNoise.GaussianPlan gramPlan, GridNoise.GaussianPlan rhsPlan) {
        this.params = params;
        this.gramPlan = gramPlan;
        this.rhsPlan = rhsPlan;
    }

    public static double gramSensitivity(AlsParameters p) {
        return Sensitivities.alsItemGramsFrobenius(p.domain().perUserCap(), p.clip(), p.relation().userRelation());
    }

    public static double rhsSensitivity(AlsParameters p) {
        return Sensitivities.alsItemRhsL2(p.domain().rowBound(), p.clip(), p.relation().userRelation());
    }

    /** (ε, δ)-DP for the 2T releases together. */
    public static DpAlsMechanism forApproxDp(AlsParameters params, double epsilon, double delta) {
        return withUnitSigma(params, GaussianCalibration.analyticSigma(epsilon, delta, GridNoise.CALIBRATION_MARGIN)
                * Math.sqrt(2.0 * params.iterations()));
    }

    /** ρ-zCDP for the 2T releases together. */
    public static DpAlsMechanism forRho(AlsParameters params, double rho) {
        return withUnitSigma(params, GaussianCalibration.sigmaForRho(
                GridNoise.CALIBRATION_MARGIN * Math.sqrt(2.0 * params.iterations()), rho));
    }

    private static DpAlsMechanism withUnitSigma(AlsParameters p, double unit) {
        int n = p.domain().items();
        int r = p.rank();
        double dg = gramSensitivity(p);
        double db = rhsSensitivity(p);
        return new DpAlsMechanism(p, GridNoise.gaussian(dg, dg * unit, (long) n * r * r),
                GridNoise.gaussian(db, db * unit, (long) n * r));
    }

    public AlsParameters parameters() {
        return params;
    }

    /**
     * The whole run as one equivalent Gaussian: μ = √(T·(μ_G² + μ_b²)) with μ = Δ′/σ per release
     * (grid-inflated Δ′), reported as sensitivity μ and σ = 1 (exactly μ-GDP).
     */
    public GaussianLoss privacyLoss() {
        double mg = gramPlan.loss().mu();
        double mb = rhsPlan.loss().mu();
        double mu = Math.nextUp(Math.sqrt(Math.nextUp(params.iterations() * Math.nextUp(mg * mg + mb * mb))));
        return new GaussianLoss(Math.nextUp(mu), 1.0);
    }

    /** Each step's item-Gram release as one Gaussian (grid-inflated Δ_G, σ_G). */
    public GaussianLoss gramStepLoss() {
        return gramPlan.loss();
    }

    /** Each step's right-hand-side release as one Gaussian (grid-inflated Δ_b, σ_b). */
    public GaussianLoss rhsStepLoss() {
        return rhsPlan.loss();
    }

    public double gramSigma() {
        return gramPlan.sigma();
    }

    public double rhsSigma() {
        return rhsPlan.sigma();
    }

    public AlsRelease release(RatingsSource source, NoiseSource random) {
        try (UserPasses passes = UserPasses.of(source, params.domain())) {
            return release(passes, random);
        }
    }

    /** As {@link #release(RatingsSource, NoiseSource)}, and hands each user's completed row to the owner. */
    public AlsRelease release(RatingsSource source, NoiseSource random, PredictionSink owner) {
        RatingsMatrix data = RatingsMatrix.load(source, params.domain());
        AlsRelease release = release(new HeldPasses(data), random);
        for (int u = 0; u < data.users(); u++) {
            owner.row(data.userId(u), release.complete(data.user(u)));
        }
        return release;
    }

    AlsRelease release(UserPasses passes, NoiseSource random) {
        int n = params.domain().items();
        int r = params.rank();
        double[] v = new double[n * r];
        GaussianMatrices.fillStandardNormal(v, random);
        for (int i = 0; i < v.length; i++) {
            v[i] *= params.initScale();
        }
        for (int t = 1; t <= params.iterations(); t++) {
            Statistics st = statistics(passes, v, params);
            double[] grams = st.grams();
            double[] rhs = st.rhs();
            double[] noisyGrams = new double[grams.length];
            GridNoise.addGaussianParallel(gramPlan, grams, 0, grams.length, noisyGrams, random.split());
            double[] noisyRhs = new double[rhs.length];
            GridNoise.addGaussianParallel(rhsPlan, rhs, 0, rhs.length, noisyRhs, random.split());
            double[] next = new double[n * r];
            IntStream.range(0, n).parallel().forEach(j -> solveItem(noisyGrams, noisyRhs, j, r, next));
            v = next;
        }
        Facts.Builder facts = Facts.builder(CompletionFacts.VOCABULARY);
        facts.put(CompletionFacts.GRAM_SENSITIVITY, gramPlan.loss().l2Sensitivity());
        facts.put(CompletionFacts.RHS_SENSITIVITY, rhsPlan.loss().l2Sensitivity());
        facts.put(CompletionFacts.GRAM_SIGMA, gramPlan.sigma());
        facts.put(CompletionFacts.RHS_SIGMA, rhsPlan.sigma());
        facts.put(CompletionFacts.ROW_BOUND, params.domain().rowBound());
        facts.put(CompletionFacts.CENTRE, params.domain().centre());
        facts.put(CompletionFacts.NUMERICS,
                "item statistics exact on the grid; solves and user fits are float post-processing");
        return new AlsRelease(params, v, facts.build());
    }

    /** The per-item statistics before noise: Grams G_j (n blocks of r × r, full) and right-hand sides b_j. */
    record Statistics(double[] grams, double[] rhs) {}

    /**
     * Every user's clipped local fit on the public V, and the item statistics they add up to, in one
     * pass ({@link AlsItemStatistic}): user i's contribution depends on V and user i's own ratings
     * only (the sensitivity argument), and the sums are exact integers, so they do not depend on the
     * order of the users, threads or partitions. No array's size depends on the private m.
     */
    static Statistics statistics(RatingsMatrix data, double[] v, AlsParameters params) {
        return statistics(new HeldPasses(data), v, params);
    }

    static Statistics statistics(UserPasses passes, double[] v, AlsParameters params) {
        int n = params.domain().items();
        int r = params.rank();
        double[] all = passes.pass(new AlsItemStatistic(params, v));
        return new Statistics(Arrays.copyOf(all, n * r * r), Arrays.copyOfRange(all, n * r * r, all.length));
    }

    /**
     * Writes user i's fit clipped to ‖uᵢ‖ ≤ C into {@code out}. A fit with a non-finite entry (a public V
     * with infinite or huge entries after a near-singular solve can make the local solve overflow)
     * becomes uᵢ = 0, and the norm is computed with scaling so a huge but finite fit is clipped, not
     * zeroed: still a function of V and user i's ratings only, bounded by C, so the sensitivities hold —
     * and no NaN from one user can reach other users' sums (where the grid rounding would turn the whole
     * entry into 0 steps: docs/adr/0011-a-failure-is-an-output.md).
     */
    static void clipFit(double[] ui, double clip, double[] out, int offset) {
        double max = 0;
        for (double x : ui) {
            max = Math.max(max, Math.abs(x));
        }
        if (!Double.isFinite(max)) {
            Arrays.fill(out, offset, offset + ui.length, 0.0);
            return;
        }
        double scaled = 0;
        for (double x : ui) {
            double t = max == 0 ? 0 : x / max;
            scaled += t * t;
        }
        double norm = max * Math.sqrt(scaled);
        double s = norm > clip ? clip / norm : 1;
        for (int a = 0; a < ui.length; a++) {
            out[offset + a] = Math.min(clip, Math.max(-clip, ui[a] * s));
        }
    }

    /**
     * V[j] = (PSD((G̃_j + G̃_jᵀ)/2) + λ_v I)⁻¹ b̃_j; a non-finite entry (a tiny ridge against a noisy
     * Gram) is set to 0 — post-processing of the released statistics, from public rules.
     */
    private void solveItem(double[] grams, double[] rhs, int j, int r, double[] out) {
        double[] g = new double[r * r];
        int gb = j * r * r;
        for (int a = 0; a < r; a++) {
            for (int b = 0; b < r; b++) {
                g[a * r + b] = (grams[gb + a * r + b] + grams[gb + b * r + a]) / 2;
            }
        }
        SymmetricEigen e = LinearAlgebra.eigen(g, r);
        double[] proj = new double[r];
        for (int k = 0; k < r; k++) {
            double s = 0;
            for (int a = 0; a < r; a++) {
                s += e.vectors()[a * r + k] * rhs[j * r + a];
            }
            proj[k] = s / (Math.max(0, e.values()[k]) + params.itemRidge());
        }
        for (int a = 0; a < r; a++) {
            double s = 0;
            for (int k = 0; k < r; k++) {
                s += e.vectors()[a * r + k] * proj[k];
            }
            out[j * r + a] = Double.isFinite(s) ? s : 0;
        }
    }
}
