package io.privmat.mechanism;

import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.PureDp;

/**
 * The Laplace mechanism on a p-dimensional real vector, with exact discrete Laplace noise on a
 * power-of-two grid.
 *
 * <p><b>Privacy guarantee</b>: pure ε-DP with the ε asked for: the grid-rounded query has L1
 * sensitivity at most Δ₁ + g·p grid-steps·g, and the integer scale t is rounded up so that
 * (Δ₁ + g·p)/(g·t) ≤ ε (the discrete Laplace on ℤ with P ∝ exp(−|z|/t) is (Δ/t)-DP for integer
 * shifts of at most Δ steps). <b>Numerics</b>: outputs are exact multiples of the granularity.
 * <b>Citations</b>: Dwork, McSherry, Nissim, Smith 2006; Canonne, Kamath, Steinke 2020 (Algorithm 2);
 * Ghosh, Roughgarden, Sundararajan 2009 (geometric mechanism).
 */
public final class LaplaceVectorMechanism {

    private final GridNoise.LaplacePlan plan;
    private final int dimension;
    private final PureDp loss;

    private LaplaceVectorMechanism(GridNoise.LaplacePlan plan, int dimension, PureDp loss) {
        this.plan = plan;
        this.dimension = dimension;
        this.loss = loss;
    }

    public static LaplaceVectorMechanism of(double l1Sensitivity, double epsilon, int dimension) {
        GridNoise.LaplacePlan plan = GridNoise.laplace(l1Sensitivity, epsilon, dimension);
        return new LaplaceVectorMechanism(plan, dimension, PureDp.of(epsilon));
    }

    /** Pure ε-DP at the requested ε (the achieved ε is at most that). */
    public PureDp privacyLoss() {
        return loss;
    }

    public double granularity() {
        return plan.granularity();
    }

    /** The noise scale b (in value units) actually used. */
    public double scale() {
        return plan.scaleSteps() * plan.granularity();
    }

    public double[] release(double[] f, NoiseSource random) {
        if (f.length != dimension) {
            throw new IllegalArgumentException("expected a vector of dimension " + dimension);
        }
        double[] out = new double[dimension];
        GridNoise.addLaplace(plan, f, out, random);
        return out;
    }
}
