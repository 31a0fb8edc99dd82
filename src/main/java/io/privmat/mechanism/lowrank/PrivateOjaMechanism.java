package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.GramOperator;
import io.privmat.mechanism.noise.GaussianMatrices;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.GaussianLoss;

/**
 * Private Oja: the private top singular vector (Jain, Thakkar, Thakurta, "Differentially private matrix
 * completion revisited", ICML 2018, Algorithm 2; docs/mechanisms/low-rank.md, "Private Oja"). Each of Γ steps releases (XᵀX)v + σ‖v‖h and updates
 * v ← (v + η·release)/‖·‖. The noisy vector is sampled directly (N·v ~ N(0, σ²‖v‖²I)), never an
 * n × n noise matrix.
 *
 * <p><b>Privacy</b>: ‖ΔC·v‖ ≤ ‖ΔC‖₂ ≤ B² for a unit v under both relations, so each step is a
 * Gaussian mechanism with Δ = B²; Γ steps share the budget by Gaussian-DP composition (each
 * μ* / √Γ), ρ = μ*²/2 in total (inflated for the grid). The step size η is public (default 1/B²:
 * with η·λ₁ ≫ 1 Oja behaves like the power method).
 */
public final class PrivateOjaMechanism {

    private final int d;
    private final int iterations;
    private final double stepSize;
    private final GridNoise.GaussianPlan plan;

    private PrivateOjaMechanism(int d, int iterations, double stepSize, GridNoise.GaussianPlan plan) {
        this.d = d;
        this.iterations = iterations;
        this.stepSize = stepSize;
        this.plan = plan;
    }

    private static double sensitivity(double rowBound) {
        return Sensitivities.gramFrobenius(rowBound, NeighbouringRelation.ADD_REMOVE);
    }

    public static PrivateOjaMechanism forRho(int d, int iterations, double stepSize, double rowBound, double rho) {
        double delta = sensitivity(rowBound);
        double unitSigma = GaussianCalibration.sigmaForRho(GridNoise.CALIBRATION_MARGIN * Math.sqrt(iterations), rho);
        return new PrivateOjaMechanism(d, iterations, stepSize, GridNoise.gaussian(delta, delta * unitSigma, d));
    }

    public static PrivateOjaMechanism forApproxDp(int d, int iterations, double stepSize, double rowBound,
            double epsilon, double delta) {
        double sens = sensitivity(rowBound);
        double unitSigma = GaussianCalibration.analyticSigma(epsilon, delta, GridNoise.CALIBRATION_MARGIN)
                * Math.sqrt(iterations);
        return new PrivateOjaMechanism(d, iterations, stepSize, GridNoise.gaussian(sens, sens * unitSigma, d));
    }

    /**
     * The loss of one step, a Gaussian mechanism with the grid-inflated sensitivity Δ′ and σ; the run
     * is {@link #iterations()} of them (composed in the catalogue: ρ = L·Δ′²/(2σ²)).
     */
    public GaussianLoss stepLoss() {
        return plan.loss();
    }

    /** σ of each step's noise vector. */
    public double sigma() {
        return plan.sigma();
    }

    public int iterations() {
        return iterations;
    }

    public Factorization release(double[] gram, NoiseSource random) {
        return release(GramOperator.ofGram(gram, d), random);
    }

    /** As {@link #release(double[], NoiseSource)}, with C·v from any operator (e.g. streamed rows). */
    public Factorization release(GramOperator gram, NoiseSource random) {
        double[] v = new double[d];
        GaussianMatrices.fillStandardNormal(v, random);
        normalise(v);
        double[] cv = new double[d];
        double[] noisy = new double[d];
        for (int it = 0; it < iterations; it++) {
            gram.apply(v, 1, cv);
            GridNoise.addGaussianParallel(plan, cv, 0, d, noisy, random.split());
            for (int i = 0; i < d; i++) {
                v[i] += stepSize * noisy[i];
            }
            normalise(v);
        }
        Facts.Builder facts = Facts.builder(FactorizationFacts.VOCABULARY);
        facts.put(FactorizationFacts.ITERATIONS, iterations);
        facts.put(FactorizationFacts.STEP_SIZE, stepSize);
        facts.put(FactorizationFacts.SIGMA_PER_ITERATION, plan.sigma());
        double t = Math.sqrt(2 * Math.log(2.0 * iterations / 0.05));
        facts.put(FactorizationFacts.NOISE_NORM_BOUND95, plan.sigma() * (Math.sqrt(d) + t));
        // s₁ estimated as √‖Cv + noise‖ of the last release (post-processing).
        double last = 0;
        for (double x : noisy) {
            last += x * x;
        }
        facts.put(FactorizationFacts.SINGULAR_VALUE, "√‖released Cv‖ of the last step (post-processing)");
        return new Factorization(null, new double[] {Math.sqrt(Math.sqrt(last))}, v, 0, d, 1, facts.build());
    }

    private static void normalise(double[] v) {
        double norm = 0;
        for (double x : v) {
            norm += x * x;
        }
        norm = Math.sqrt(norm);
        if (norm > 0) {
            for (int i = 0; i < v.length; i++) {
                v[i] /= norm;
            }
        }
    }
}
