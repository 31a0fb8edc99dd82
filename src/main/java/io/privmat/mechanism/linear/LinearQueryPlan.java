package io.privmat.mechanism.linear;

import io.privmat.mechanism.LaplaceVectorMechanism;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.PrivacyLoss;
import org.jspecify.annotations.Nullable;

/**
 * One calibrated linear-query mechanism: workload, strategy, neighbouring relation and budget in,
 * privacy loss, noise and expected error out — all from public values before any data is read;
 * {@link #release} is the only method that touches the histogram.
 *
 * <p><b>Privacy</b> (docs/mechanisms/linear-queries.md). Every mechanism releases y = A·x + z for a
 * public, data-independent strategy A (A = W when the noise goes on W·x, L for the Low-Rank Mechanism)
 * and post-processes y. One record changes x by ±e_j (ADD_REMOVE) or e_k − e_j (REPLACE_ONE), so
 * A·x moves by at most {@link Sensitivities#linearL1} in L1 (the largest column L1 norm, doubled
 * for REPLACE_ONE) and {@link Sensitivities#linearL2} in L2. Laplace: the discrete Laplace on a
 * power-of-two grid calibrated to that L1 sensitivity is pure ε-DP ({@link LaplaceVectorMechanism}).
 * Gaussian: the discrete Gaussian calibrated to the L2 sensitivity is ρ-zCDP with
 * ρ = Δ′²/(2σ²) and exactly μ-GDP ({@link GridNoise#gaussian}); for (ε, δ) σ is the analytic
 * Gaussian σ (Balle and Wang 2018). x̂, W·x̂ and further queries are post-processing.
 */
public final class LinearQueryPlan {

    private final Workload workload;
    private final LinearMechanism mechanism;
    private final LinearBudget budget;
    private final NeighbouringRelation relation;
    private final @Nullable Strategy strategy;
    private final @Nullable LaplaceVectorMechanism laplace;
    private final GridNoise.@Nullable GaussianPlan gaussian;
    private final double sensitivity;
    private final double noiseVariance;
    private final long noiseDimension;
    private volatile double @Nullable [] variances;
    private volatile @Nullable ExpectedError expected;

    private LinearQueryPlan(Workload workload, LinearMechanism mechanism, LinearBudget budget,
            NeighbouringRelation relation, @Nullable Strategy strategy) {
        this.workload = workload;
        this.mechanism = mechanism;
        this.budget = budget;
        this.relation = relation;
        this.strategy = strategy;
        long dimension = strategy == null ? workload.queries() : strategy.rows();
        if (dimension > LinearLimits.MAX_STRATEGY_ROWS) {
            throw LinearQueryException.tooLarge("strategy", "the noise dimension", dimension,
                    LinearLimits.MAX_STRATEGY_ROWS);
        }
        this.noiseDimension = dimension;
        if (budget instanceof LinearBudget.Pure pure) {
            double l1 = Sensitivities.linearL1(strategy == null ? workload.maxColumnL1() : strategy.maxColumnL1(),
                    relation);
            this.sensitivity = l1;
            this.laplace = LaplaceVectorMechanism.of(l1, pure.epsilon(), (int) dimension);
            this.gaussian = null;
            double g = laplace.granularity();
            double steps = laplace.scale() / g;
            // Discrete Laplace P(z) ∝ e^{−|z|/t}: variance 2q/(1 − q)² = 1/(2 sinh²(1/(2t))), q = e^{−1/t}.
            double sinh = Math.sinh(0.5 / steps);
            this.noiseVariance = g * g / (2 * sinh * sinh);
        } else {
            if (strategy == null) {
                throw new IllegalStateException("Gaussian mechanisms have a strategy");
            }
            double l2 = Sensitivities.linearL2(strategy.maxColumnL2(), strategy.gramNonNegative(), relation);
            double inflated = l2 * GridNoise.CALIBRATION_MARGIN;
            double sigma = budget instanceof LinearBudget.Rho rho
                    ? GaussianCalibration.sigmaForRho(inflated, rho.rho())
                    : GaussianCalibration.analyticSigma(((LinearBudget.EpsilonDelta) budget).epsilon(),
                            ((LinearBudget.EpsilonDelta) budget).delta(), inflated);
            this.sensitivity = l2;
            this.laplace = null;
            this.gaussian = GridNoise.gaussian(l2, sigma, dimension);
            // The discrete Gaussian's variance is below σ² (Canonne, Kamath, Steinke 2020); σ² is used.
            this.noiseVariance = gaussian.sigma() * gaussian.sigma();
        }
    }

    /**
     * Calibrates a mechanism with the strategy it measures with ({@link LinearMechanism#planStrategy}):
     * built here from the workload, or — for a mechanism answering from a stored public strategy — the
     * one computed (and cached) for this workload by {@link Strategies#lowRank} / {@link Strategies#optimized}.
     *
     * @throws LinearQueryException UNSUPPORTED for a budget form the mechanism does not take, a
     *     missing strategy, or a strategy built for another workload
     */
    public static LinearQueryPlan of(Workload workload, LinearMechanism mechanism, LinearBudget budget,
            NeighbouringRelation relation, @Nullable Strategy strategy) {
        Strategy s = mechanism.planStrategy(workload, !budget.gaussian(), strategy);
        return new LinearQueryPlan(workload, mechanism, budget, relation, s);
    }

    public Workload workload() {
        return workload;
    }

    public LinearMechanism mechanism() {
        return mechanism;
    }

    public LinearBudget budget() {
        return budget;
    }

    public NeighbouringRelation relation() {
        return relation;
    }

    /** The strategy (null when the noise goes on W·x directly). */
    public @Nullable Strategy strategy() {
        return strategy;
    }

    /**
     * The loss as the mechanism runs: pure ε for the Laplace mechanisms; for the Gaussian ones a
     * {@link io.privmat.privacy.GaussianLoss} (grid-inflated sensitivity, σ used: exact ρ and μ).
     */
    public PrivacyLoss privacyLoss() {
        if (laplace != null) {
            return laplace.privacyLoss();
        }
        return gaussian.loss();
    }

    /** The (ε, δ) a Gaussian mechanism was calibrated to, or null. */
    public @Nullable ApproxDp calibratedApproxDp() {
        return budget instanceof LinearBudget.EpsilonDelta ed ? ApproxDp.of(ed.epsilon(), ed.delta()) : null;
    }

    /** The noise's standard deviation per measurement. */
    public double noiseStandardDeviation() {
        return Math.sqrt(noiseVariance);
    }

    /** The grid the released measurements lie on. */
    public double granularity() {
        return laplace != null ? laplace.granularity() : gaussian.granularity();
    }

    /** The Laplace scale b (in value units), or NaN for Gaussian noise. */
    public double laplaceScale() {
        return laplace != null ? laplace.scale() : Double.NaN;
    }

    /** The Gaussian σ, or NaN for Laplace noise. */
    public double gaussianSigma() {
        return gaussian != null ? gaussian.sigma() : Double.NaN;
    }

    /** Per-query variances of the answers (exact, from the strategy; computed once). */
    public double[] variances() {
        double[] v = variances;
        if (v == null) {
            if (strategy == null) {
                v = new double[workload.queries()];
                java.util.Arrays.fill(v, noiseVariance);
            } else {
                v = workload.variances(strategy.covariance(noiseVariance, workload.domain()));
            }
            variances = v;
        }
        return v;
    }

    /** Per-query standard deviations of the answers. */
    public double[] standardDeviations() {
        double[] v = variances();
        double[] s = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            s[i] = Math.sqrt(Math.max(v[i], 0));
        }
        return s;
    }

    /** The expected error, before anything is spent. */
    public ExpectedError expectedError() {
        ExpectedError e = expected;
        if (e == null) {
            double total = 0;
            for (double v : variances()) {
                total += v;
            }
            double residual = strategy instanceof LowRankStrategy l ? l.residualFrobenius() : 0;
            e = new ExpectedError(Math.sqrt(total / workload.queries()), total, noiseVariance, sensitivity,
                    laplace != null ? "L1" : "L2", noiseDimension, residual);
            expected = e;
        }
        return e;
    }

    /** The only method that reads the histogram x (length n): noise, estimate, answers. */
    public LinearQueryRelease release(double[] x, NoiseSource random) {
        if (x.length != workload.cells()) {
            throw LinearQueryException.shape("x", "expected a histogram of " + workload.cells() + " cells but got "
                    + x.length);
        }
        double[] statistic = strategy == null ? workload.answer(x) : strategy.measure(x);
        double[] noisy = new double[statistic.length];
        if (laplace != null) {
            noisy = laplace.release(statistic, random);
        } else {
            GridNoise.addGaussianParallel(gaussian, statistic, 0, statistic.length, noisy, random);
        }
        ExpectedError error = expectedError();
        double[] std = standardDeviations();
        if (strategy == null) {
            return new LinearQueryRelease(mechanism, noisy, null, std, error);
        }
        double[] xHat = strategy.estimate(noisy);
        double[] answers = workload.answer(xHat);
        Estimate estimate = new Estimate(workload.domain(), strategy, noiseVariance, xHat);
        return new LinearQueryRelease(mechanism, answers, estimate, std, error);
    }
}
