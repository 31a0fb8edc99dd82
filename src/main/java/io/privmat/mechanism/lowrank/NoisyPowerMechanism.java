package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.GramOperator;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.GaussianLoss;

/**
 * The private (noisy) power method (Hardt–Roth 2013, Hardt–Price 2014; docs/mechanisms/low-rank.md,
 * "Noisy power method") on the
 * Gram matrix C = XᵀX, for row-level privacy.
 *
 * <p>X₀ is a data-independent random orthonormal d × k start; each of L iterations releases
 * Y = C·X + G and continues with X = Q(Y). <b>Privacy</b>: a row change moves C by ΔC with
 * ‖ΔC‖₂ ≤ B² under both ADD_REMOVE and REPLACE_ONE, so ‖ΔC·X‖_F ≤ ‖ΔC‖₂·‖X‖_F = B²√k for orthonormal
 * X: each step is a Gaussian mechanism with Δ = B²√k. The budget is split evenly over the L
 * iterations by Gaussian-DP composition (each step μ* / √L), so the run is exactly μ*-GDP:
 * ρ = μ*²/2 (inflated for the grid) — calibrated from ρ or from (ε, δ) by the analytic Gaussian.
 * Singular values are estimated as √‖Y_L e_j‖ (post-processing of the last release).
 */
public final class NoisyPowerMechanism {

    private final int d;
    private final int k;
    private final int iterations;
    private final GridNoise.GaussianPlan plan;

    private NoisyPowerMechanism(int d, int k, int iterations, GridNoise.GaussianPlan plan) {
        this.d = d;
        this.k = k;
        this.iterations = iterations;
        this.plan = plan;
    }

    private static double sensitivity(double rowBound, int k) {
        return Math.nextUp(Sensitivities.gramFrobenius(rowBound, NeighbouringRelation.ADD_REMOVE) * Math.sqrt(k));
    }

    /** Total loss at most ρ-zCDP. */
    public static NoisyPowerMechanism forRho(int d, int k, int iterations, double rowBound, double rho) {
        double delta = sensitivity(rowBound, k);
        double unitSigma = GaussianCalibration.sigmaForRho(GridNoise.CALIBRATION_MARGIN * Math.sqrt(iterations), rho);
        return new NoisyPowerMechanism(d, k, iterations, GridNoise.gaussian(delta, delta * unitSigma, (long) d * k));
    }

    /** Total (ε, δ)-DP by the analytic Gaussian on the composed μ. */
    public static NoisyPowerMechanism forApproxDp(int d, int k, int iterations, double rowBound, double epsilon,
            double delta) {
        double sens = sensitivity(rowBound, k);
        double unitSigma = GaussianCalibration.analyticSigma(epsilon, delta, GridNoise.CALIBRATION_MARGIN)
                * Math.sqrt(iterations);
        return new NoisyPowerMechanism(d, k, iterations, GridNoise.gaussian(sens, sens * unitSigma, (long) d * k));
    }

    /**
     * The loss of one step, a Gaussian mechanism with the grid-inflated sensitivity Δ′ and σ; the run
     * is {@link #iterations()} of them (composed in the catalogue: ρ = L·Δ′²/(2σ²)).
     */
    public GaussianLoss stepLoss() {
        return plan.loss();
    }

    public int iterations() {
        return iterations;
    }

    public double sigma() {
        return plan.sigma();
    }

    public Factorization release(double[] gram, NoiseSource random) {
        return release(GramOperator.ofGram(gram, d), random);
    }

    /** As {@link #release(double[], NoiseSource)}, with C·X from any operator (e.g. streamed rows). */
    public Factorization release(GramOperator gram, NoiseSource random) {
        double[] x = Dense.randomOrthonormal(d, k, random);
        double[] y = new double[d * k];
        double[] noisy = new double[d * k];
        for (int it = 0; it < iterations; it++) {
            gram.apply(x, k, y);
            GridNoise.addGaussianParallel(plan, y, 0, y.length, noisy, random.split());
            x = Dense.thinQ(noisy, d, k);
        }
        double[] s = new double[k];
        for (int j = 0; j < k; j++) {
            double norm = 0;
            for (int i = 0; i < d; i++) {
                norm += noisy[i * k + j] * noisy[i * k + j];
            }
            s[j] = Math.sqrt(Math.sqrt(norm));
        }
        Facts.Builder facts = Facts.builder(FactorizationFacts.VOCABULARY);
        facts.put(FactorizationFacts.ITERATIONS, iterations);
        facts.put(FactorizationFacts.SIGMA_PER_ITERATION, plan.sigma());
        facts.put(FactorizationFacts.L2_SENSITIVITY_PER_ITERATION, plan.loss().l2Sensitivity());
        facts.put(FactorizationFacts.SINGULAR_VALUES, "√‖Y_L e_j‖ from the last noisy iterate (post-processing)");
        // Hardt–Price (Thm 1.1): the iterate converges to within ε of the top-k space once
        // 5‖G‖₂ ≤ ε(σ_k − σ_{k+1}); ‖G‖₂ ≤ σ(√d + √k + t) per iteration, union bound over L at 95%.
        double t = Math.sqrt(2 * Math.log(2.0 * iterations / 0.05));
        facts.put(FactorizationFacts.NOISE_SPECTRAL_NORM_BOUND95, plan.sigma() * (Math.sqrt(d) + Math.sqrt(k) + t));
        facts.put(FactorizationFacts.ERROR_BOUND,
                "Hardt–Price: ‖(I − VVᵀ)U_k‖₂ ≤ 5·noiseSpectralNormBound95/(λ_k − λ_{k+1}) of C = XᵀX "
                + "after L = O(λ_k/(λ_k − λ_{k+1})·log d) iterations, with probability ≥ 0.95");
        return sortDescending(new Factorization(null, s, x, 0, d, k, facts.build()));
    }

    static Factorization sortDescending(Factorization f) {
        int k = f.k();
        Integer[] order = new Integer[k];
        for (int j = 0; j < k; j++) {
            order[j] = j;
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(f.s()[b], f.s()[a]));
        double[] s = new double[k];
        double[] v = new double[f.d() * k];
        for (int j = 0; j < k; j++) {
            s[j] = f.s()[order[j]];
            for (int i = 0; i < f.d(); i++) {
                v[i * k + j] = f.v()[i * k + order[j]];
            }
        }
        return new Factorization(f.u(), s, v, f.m(), f.d(), k, f.facts());
    }

}
