package io.privmat.mechanism.completion;

import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.GaussianLoss;

/**
 * Private SVD completion (Jain, Thakkar, Thakurta 2018, the SVD-based algorithm of their full
 * version; in spirit McSherry and Mironov 2009): release Ŵ = P_Ω(Y*)ᵀP_Ω(Y*) + N once, broadcast
 * its top-r eigenvectors V, and let each user complete their own row from V and their own ratings
 * ({@link SvdCompletionParameters.LocalFit}). Joint DP, like private Frank–Wolfe.
 *
 * <p><b>Privacy</b>: one Gaussian mechanism on vec(W), W = Σᵢ yᵢᵀyᵢ with ‖yᵢ‖ ≤ L (centred, capped
 * ratings): Frobenius sensitivity L² (USER_ADD_REMOVE) or √2·L² (USER, RATING), via
 * {@link Sensitivities#gramFrobenius}; σ = Δ·σ_AGM(ε, δ) or Δ/√(2ρ), inflated for the grid; Ŵ is
 * released exactly on the grid (symmetrised, post-processing). The eigenvectors and every user's
 * completion are post-processing of Ŵ and (for the user's own row) the user's own data. Nothing
 * depends on m. Reads the source once.
 */
public final class PrivateSvdMechanism {

    private final SvdCompletionParameters params;
    private final GridNoise.GaussianPlan plan;

    private PrivateSvdMechanism(SvdCompletionParameters params, GridNoise.GaussianPlan plan) {
        this.params = params;
        this.plan = plan;
    }

    public static double sensitivity(SvdCompletionParameters params) {
        return Sensitivities.gramFrobenius(params.domain().rowBound(), params.relation().userRelation());
    }

    public static PrivateSvdMechanism forApproxDp(SvdCompletionParameters params, double epsilon, double delta) {
        double sens = sensitivity(params);
        int n = params.domain().items();
        double sigma = GaussianCalibration.analyticSigma(epsilon, delta, sens * GridNoise.CALIBRATION_MARGIN);
        return new PrivateSvdMechanism(params, GridNoise.gaussian(sens, sigma, (long) n * n));
    }

    public static PrivateSvdMechanism forRho(SvdCompletionParameters params, double rho) {
        double sens = sensitivity(params);
        int n = params.domain().items();
        double sigma = GaussianCalibration.sigmaForRho(sens * GridNoise.CALIBRATION_MARGIN, rho);
        return new PrivateSvdMechanism(params, GridNoise.gaussian(sens, sigma, (long) n * n));
    }

    public SvdCompletionParameters parameters() {
        return params;
    }

    public GaussianLoss privacyLoss() {
        return plan.loss();
    }

    public double sigma() {
        return plan.sigma();
    }

    public SvdCompletionRelease release(RatingsSource source, NoiseSource random) {
        try (UserPasses passes = UserPasses.of(source, params.domain())) {
            return release(passes, random);
        }
    }

    /** As {@link #release(RatingsSource, NoiseSource)}, and hands each user's completed row to the owner. */
    public SvdCompletionRelease release(RatingsSource source, NoiseSource random, PredictionSink owner) {
        RatingsMatrix data = RatingsMatrix.load(source, params.domain());
        SvdCompletionRelease release = release(new HeldPasses(data), random);
        for (int u = 0; u < data.users(); u++) {
            owner.row(data.userId(u), release.complete(data.user(u)));
        }
        return release;
    }

    SvdCompletionRelease release(UserPasses passes, NoiseSource random) {
        int n = params.domain().items();
        int r = params.rank();
        double[] noisy = GridNoise.symmetricGaussian(plan, passes.pass(new RatingsGramStatistic(params.domain())), n,
                random);
        SymmetricEigen e = LinearAlgebra.eigen(noisy, n);
        double[] values = new double[r];
        System.arraycopy(e.values(), 0, values, 0, r);
        Facts.Builder facts = Facts.builder(CompletionFacts.VOCABULARY);
        facts.put(CompletionFacts.FROBENIUS_SENSITIVITY, plan.loss().l2Sensitivity());
        facts.put(CompletionFacts.SIGMA, plan.sigma());
        facts.put(CompletionFacts.GRANULARITY, plan.granularity());
        facts.put(CompletionFacts.ROW_BOUND, params.domain().rowBound());
        facts.put(CompletionFacts.CENTRE, params.domain().centre());
        facts.put(CompletionFacts.LOCAL_FIT, params.fit().name());
        // ‖N‖₂ ≤ ‖G‖₂ ≤ σ(2√n + t) with probability ≥ 1 − e^{−t²/2} (t for 95%): eigenvalues within it (Weyl).
        facts.put(CompletionFacts.NOISE_SPECTRAL_BOUND95,
                plan.sigma() * (2 * Math.sqrt(n) + Math.sqrt(2 * Math.log(1 / 0.05))));
        facts.put(CompletionFacts.NUMERICS, "Ŵ exact on the grid; eigenvectors are float post-processing");
        return new SvdCompletionRelease(params, e.topVectors(r), values, facts.build());
    }
}
