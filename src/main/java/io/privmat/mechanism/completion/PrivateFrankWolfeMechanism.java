package io.privmat.mechanism.completion;

import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.noise.GaussianMatrices;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.GaussianLoss;

/**
 * Private Frank–Wolfe matrix completion with a global/local split (Jain, Thakkar, Thakurta, ICML
 * 2018, "Differentially private matrix completion revisited", Algorithm 1), under joint DP, with
 * clipped gradient rows and a fully corrective schedule (docs/mechanisms/completion.md).
 *
 * <p><b>Algorithm.</b> Each user i keeps Yᵢ (initially 0) and its gradient row
 * Aᵢ = P_Ω(Yᵢ − Y*ᵢ) of ½‖P_Ω(Y − Y*)‖²_F (centred ratings Y*). For t = 0..T−1 the global step
 * releases Ŵ_t = W_t + N_t, W_t = Σᵢ ÃᵢᵀÃᵢ with Ãᵢ = Aᵢ·min(1, C_t/‖Aᵢ‖) the clipped row, and
 * broadcasts its top eigenvector v̂ and λ̂′ = √max(0, λ_max) + √b with b = σ(2√n + √(2 ln(1/β)))
 * (for the symmetrised Gaussian N, ‖N‖₂ ≤ ‖G‖₂ ≤ b except with probability β, Gordon's inequality
 * plus Gaussian concentration; the paper's λ̂ + √(σ ln(n/β))·n^{1/4} with a tighter, still public,
 * constant). Every user then steps locally with their own, unclipped, gradient
 * ({@link FrankWolfeLocal}): under CONSTANT and STANDARD the paper's step ûᵢ = −Aᵢv̂/λ̂′,
 * Yᵢ ← Π_{L,Ω}((1 − η_t)Yᵢ + η_t·k·ûᵢv̂ᵀ) (Π_{L,Ω} rescales the row so that its observed part has norm
 * ≤ L); under FULLY_CORRECTIVE v̂ is the top eigenvector of Ŵ_t with the earlier directions projected
 * out, and every user refits their row by ridge least squares on all directions so far. A
 * FULLY_CORRECTIVE direction whose eigenvalue does not exceed b_t is noise-dominated: it is released
 * as the zero vector and not used. After step T each user's row is their prediction.
 *
 * <p><b>Privacy</b> (joint DP via the billboard lemma). Every row entering W_t has norm ≤ C_t by the
 * clipping, whatever the data and whatever the numerics of the local steps, so ‖ÃᵢᵀÃᵢ‖_F ≤ C_t²: W_t
 * has Frobenius sensitivity Δ_t = C_t² when a user is added or removed and √2·C_t² when one is
 * replaced (difference of two PSD rank-one matrices; {@link Sensitivities#gramFrobenius} with
 * B = C_t). C_t = min(C, B_t) ({@link FrankWolfeParameters#clip}) with B_t the bound that holds
 * without clipping (L at t = 0, where Y⁰ = 0; 2L afterwards for the paper's steps; L for the ridge
 * residuals of FULLY_CORRECTIVE), so C = +∞ is exactly the paper's calibration. Given the past
 * broadcasts, other users' Ãⱼ do not depend on user i's data, so the T releases compose adaptively
 * in GDP, μ² = Σ_t (Δ_t/σ_t)². We give every release the same μ: σ_t = Δ_t·√T·σ_AGM(ε, δ)
 * (analytic Gaussian, Balle–Wang) or Δ_t·√T/√(2ρ), inflated for the grid — tighter than the paper's
 * L²√(64 T ln(1/δ))/ε. The broadcasts are (ε, δ)-DP; each user's prediction is a function of the
 * broadcasts and their own data, so the outputs to all other users are jointly (ε, δ)-DP. Nothing
 * depends on the number of users m; C, T and k are public parameters. Symmetrising N and everything
 * after Ŵ is post-processing.
 *
 * <p><b>Numerics.</b> Ŵ_t is released exactly on the grid (round(W_t) + g·(G + Gᵀ)/2, entries
 * saturated at ±2⁵⁰ grid steps); the eigenpair is float post-processing of Ŵ_t alone. W_t is always
 * formed: Lanczos on products W·v + N·v computed from the unrounded W releases a float function of
 * W_t itself, whose support moves with W_t off the noise's lattice, and is not DP
 * (docs/mechanisms/completion.md, "Why there is no memory-light variant").
 *
 * <p>One pass over the users per release ({@link UserPasses}): each user's local steps and clipped
 * gradient Gram are computed where the ratings are ({@link GradientGramStatistic}) and summed
 * exactly. Memory O(|Ω| + n²) in the service (O(n²) where an engine holds the ratings).
 */
public final class PrivateFrankWolfeMechanism {

    private final FrankWolfeParameters params;
    private final GridNoise.GaussianPlan firstPlan;
    private final GridNoise.GaussianPlan plan;

    private PrivateFrankWolfeMechanism(FrankWolfeParameters params, GridNoise.GaussianPlan firstPlan,
            GridNoise.GaussianPlan plan) {
        this.params = params;
        this.firstPlan = firstPlan;
        this.plan = plan;
    }

    /** Δ = Frobenius sensitivity of W_t, t ≥ 1: C₁² (USER_ADD_REMOVE) or √2·C₁² (USER, RATING). */
    public static double sensitivity(FrankWolfeParameters params) {
        return Sensitivities.gramFrobenius(params.clip(1), params.relation().userRelation());
    }

    /** Δ₀ = Frobenius sensitivity of W₀ (Y⁰ = 0, rows of norm ≤ C₀ = min(C, L)): C₀² or √2·C₀². */
    public static double firstSensitivity(FrankWolfeParameters params) {
        return Sensitivities.gramFrobenius(params.clip(0), params.relation().userRelation());
    }

    /** Calibrated so that the T releases together are (ε, δ)-DP (analytic Gaussian on the GDP μ). */
    public static PrivateFrankWolfeMechanism forApproxDp(FrankWolfeParameters params, double epsilon, double delta) {
        double unit = GaussianCalibration.analyticSigma(epsilon, delta, GridNoise.CALIBRATION_MARGIN)
                * Math.sqrt(params.iterations());
        return withUnitSigma(params, unit);
    }

    /** Calibrated so that the T releases together are ρ-zCDP. */
    public static PrivateFrankWolfeMechanism forRho(FrankWolfeParameters params, double rho) {
        double unit = GaussianCalibration.sigmaForRho(GridNoise.CALIBRATION_MARGIN * Math.sqrt(params.iterations()),
                rho);
        return withUnitSigma(params, unit);
    }

    private static PrivateFrankWolfeMechanism withUnitSigma(FrankWolfeParameters params, double unitSigma) {
        double delta = sensitivity(params);
        double first = firstSensitivity(params);
        long p = (long) params.domain().items() * params.domain().items();
        return new PrivateFrankWolfeMechanism(params, GridNoise.gaussian(first, first * unitSigma, p),
                GridNoise.gaussian(delta, delta * unitSigma, p));
    }

    public FrankWolfeParameters parameters() {
        return params;
    }

    /**
     * The whole run as one equivalent Gaussian: μ = √(μ₀² + (T − 1)·μ₁²) with μ_t = Δ′_t/σ_t
     * (grid-inflated Δ′), reported as sensitivity μ and σ = 1 (exactly μ-GDP; ρ = μ²/2).
     */
    public GaussianLoss privacyLoss() {
        double m0 = firstPlan.loss().mu();
        double m1 = plan.loss().mu();
        double squared = Math.nextUp(Math.nextUp(m0 * m0) + Math.nextUp((params.iterations() - 1) * Math.nextUp(m1 * m1)));
        return new GaussianLoss(Math.nextUp(Math.nextUp(Math.sqrt(squared))), 1.0);
    }

    /** The first release as one Gaussian (grid-inflated Δ₀, σ₀). */
    public GaussianLoss firstStepLoss() {
        return firstPlan.loss();
    }

    /** Each release t ≥ 1 as one Gaussian (grid-inflated Δ, σ). */
    public GaussianLoss stepLoss() {
        return plan.loss();
    }

    /** σ of each entry of G for the releases t ≥ 1 (the symmetrised N has σ/√2 off the diagonal). */
    public double sigma() {
        return plan.sigma();
    }

    /** σ of the first release W₀ (a quarter of σ for the paper's bounds; equal once C ≤ L). */
    public double firstSigma() {
        return firstPlan.sigma();
    }

    /**
     * The public bound b_t on ‖N_t‖₂ used in λ̂′_t: σ_t(2√n + √(2 ln(1/β))), holding with probability
     * ≥ 1 − β per iteration; t = 0 for the first release.
     */
    public double noiseSpectralBound(int t) {
        double sigma = t == 0 ? firstPlan.sigma() : plan.sigma();
        return sigma * (2 * Math.sqrt(params.domain().items()) + Math.sqrt(2 * Math.log(1 / params.beta())));
    }

    /** Reads {@code source} once, runs T iterations, returns the global release (the only output). */
    public FrankWolfeRelease release(RatingsSource source, NoiseSource random) {
        try (UserPasses passes = UserPasses.of(source, params.domain())) {
            return run(passes, random, false);
        }
    }

    /**
     * As {@link #release(RatingsSource, NoiseSource)}, and also hands every user's completed row to
     * {@code owner} (for the data owner's bulk export, never for analysts): one more pass over the
     * held ratings, replaying each user's local steps from the release.
     */
    public FrankWolfeRelease release(RatingsSource source, NoiseSource random, PredictionSink owner) {
        RatingsMatrix data = RatingsMatrix.load(source, params.domain());
        FrankWolfeRelease release = run(new HeldPasses(data), random, false);
        for (int u = 0; u < data.users(); u++) {
            owner.row(data.userId(u), release.replay(data.user(u), null));
        }
        return release;
    }

    /** A finished run: the release and every user's final centred predictions on the observed entries. */
    record Run(FrankWolfeRelease release, double[] observed) {}

    Run run(RatingsMatrix data, NoiseSource random) {
        HeldPasses passes = new HeldPasses(data);
        FrankWolfeRelease release = run(passes, random, true);
        return new Run(release, passes.state());
    }

    /**
     * T passes over the users ({@link GradientGramStatistic}): pass t steps every user with release
     * t − 1's broadcast, then sums their clipped gradient Grams exactly; {@code finalStep} adds one
     * pass that only takes the last step (the users' final predictions, for tests).
     */
    private FrankWolfeRelease run(UserPasses passes, NoiseSource random, boolean finalStep) {
        RatingsDomain domain = params.domain();
        int n = domain.items();
        int t = params.iterations();
        boolean corrective = params.schedule() == FrankWolfeParameters.StepSchedule.FULLY_CORRECTIVE;
        double[] directions = new double[t * n];
        double[] lambdaHat = new double[t];
        double[] lambdaPrime = new double[t];
        double bound = domain.rowBound();
        // FULLY_CORRECTIVE: the directions in use so far, n × r row-major, orthonormal columns.
        double[] basis = new double[0];
        int rank = 0;
        GradientGramStatistic.Step previous = null;
        for (int it = 0; it < t; it++) {
            // Global: release Ŵ_it = W_it + N_it (W of the clipped gradient rows), broadcast its top eigenpair.
            double[] start = new double[n];
            GaussianMatrices.fillStandardNormal(start, random);
            double[] gram = passes.pass(new GradientGramStatistic(n, params.clip(it), previous));
            double[] released = GridNoise.symmetricGaussian(it == 0 ? firstPlan : plan, gram, n, random);
            double[] v;
            double top;
            if (corrective) {
                TopEigen.Pair pair = Directions.deflatedTop(released, n, basis, rank, params.lanczosSteps(), start);
                v = pair.vector();
                top = pair.value();
            } else {
                TopEigen.Pair pair = TopEigen.lanczos((x, out) -> Grams.multiplyDense(released, n, x, out), n,
                        params.lanczosSteps(), start);
                v = pair.vector();
                top = pair.value();
            }
            lambdaHat[it] = top > 0 && Double.isFinite(top) ? Math.sqrt(top) : 0; // post-processing; never NaN
            double spectralBound = noiseSpectralBound(it);
            lambdaPrime[it] = lambdaHat[it] + Math.sqrt(spectralBound);
            if (corrective) {
                // A noise-dominated direction (eigenvalue within the noise's bound b_t) is released as zero, unused.
                if (!(top > spectralBound) || !(TopEigen.norm(v) > 0)) {
                    previous = null;
                    continue;
                }
                System.arraycopy(v, 0, directions, it * n, n);
                basis = Directions.append(basis, rank, v, n);
                rank++;
                // Local: every user refits on all directions so far (in the next pass).
                previous = GradientGramStatistic.Step.refit(basis, rank, params.ridge());
                continue;
            }
            System.arraycopy(v, 0, directions, it * n, n);
            // Local: every user steps with the broadcast only (in the next pass).
            previous = GradientGramStatistic.Step.paper(v, lambdaPrime[it], params.stepSize(it + 1),
                    params.nuclearRadius(), bound);
        }
        if (finalStep && previous != null) {
            passes.pass(new GradientGramStatistic(n, Double.NaN, previous));
        }
        Facts.Builder facts = Facts.builder(CompletionFacts.VOCABULARY);
        facts.put(CompletionFacts.VARIANT, "DENSE");
        facts.put(CompletionFacts.FROBENIUS_SENSITIVITY, plan.loss().l2Sensitivity());
        facts.put(CompletionFacts.FIRST_FROBENIUS_SENSITIVITY, firstPlan.loss().l2Sensitivity());
        facts.put(CompletionFacts.SIGMA, plan.sigma());
        facts.put(CompletionFacts.FIRST_SIGMA, firstPlan.sigma());
        facts.put(CompletionFacts.GRANULARITY, plan.granularity());
        facts.put(CompletionFacts.ROW_BOUND, domain.rowBound());
        facts.put(CompletionFacts.CENTRE, domain.centre());
        facts.put(CompletionFacts.NOISE_SPECTRAL_BOUND, noiseSpectralBound(1));
        facts.put(CompletionFacts.FIRST_NOISE_SPECTRAL_BOUND, noiseSpectralBound(0));
        facts.put(CompletionFacts.NOISE_SPECTRAL_BOUND_PROBABILITY, 1 - params.beta());
        facts.put(CompletionFacts.LANCZOS_STEPS, params.lanczosSteps());
        facts.put(CompletionFacts.NUMERICS, "Ŵ exact on the grid; eigenvectors are float post-processing");
        return new FrankWolfeRelease(params, directions, lambdaHat, lambdaPrime, facts.build());
    }
}
