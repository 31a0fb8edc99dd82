package io.privmat.mechanism.covariance;

import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.noise.ContinuousSamplers;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.Decimals;
import io.privmat.privacy.PrivacyFloors;

/**
 * The additive Wishart mechanism (Sheffet, ALT 2019, technique (ii)): release XᵀX + W with
 * W ~ Wishart_d(B²·I, k), k = d + ⌊14·ln(4/δ)/ε²⌋ — "adding k random rows" to the data, so the
 * output is always PSD. Not the invalid pure-ε "Wishart mechanism" of Jiang et al. (AAAI 2016).
 *
 * <p><b>Privacy guarantee</b>: (ε, δ)-DP for ε ∈ (0, 2], δ ∈ (0, 1/e), under both ADD_REMOVE and
 * REPLACE_ONE; the privacy loss depends on k − d only and this k holds with a large margin
 * (docs/mechanisms/covariance.md, "Wishart": an evaluation of the exact privacy loss). Loss: {@link ApproxDp}.
 * <b>Sampling</b>: Bartlett decomposition, W = B²·L·Lᵀ with L lower triangular,
 * L_ii = √χ²_{k−i} and L_ij ~ N(0, 1) below the diagonal: O(d³) instead of O(k·d²).
 * <b>Numerics</b>: continuous noise from floating-point samplers fed by the CSPRNG; the output is
 * snapped to a power-of-two grid of 2⁻²⁰·B². That removes low-order bits but is not a proof against
 * floating-point attacks (idealised numerics, documented).
 */
public final class WishartMechanism {

    private final int d;
    private final double rowBound;
    private final long degrees;
    private final ApproxDp loss;

    private WishartMechanism(int d, double rowBound, long degrees, ApproxDp loss) {
        this.d = d;
        this.rowBound = rowBound;
        this.degrees = degrees;
        this.loss = loss;
    }

    /**
     * @param epsilon ε ∈ (0, 2]
     * @param delta δ ∈ (0, 1/e)
     */
    public static WishartMechanism of(int d, double rowBound, java.math.BigDecimal epsilon, java.math.BigDecimal delta) {
        double eps = Decimals.toDoubleDown(epsilon);
        double del = Decimals.toDoubleDown(delta);
        PrivacyFloors.epsilon("epsilon", eps);
        if (!(eps > 0 && eps <= 2)) {
            throw new IllegalArgumentException("epsilon must be in (0, 2] for the Wishart mechanism");
        }
        if (!(del > 0 && del < Math.exp(-1))) {
            throw new IllegalArgumentException("delta must be in (0, 1/e) for the Wishart mechanism");
        }
        long extra = (long) Math.floor(14 * Math.log(4 / del) / (eps * eps));
        return new WishartMechanism(d, rowBound, d + extra, new ApproxDp(epsilon, delta));
    }

    /** k, the Wishart degrees of freedom. */
    public long degrees() {
        return degrees;
    }

    public ApproxDp privacyLoss() {
        return loss;
    }

    public double granularity() {
        return Math.scalb(1.0, Math.getExponent(rowBound * rowBound) - 20);
    }

    /**
     * The typical spectral size of the centred noise W − k·B²·I: B²·(2√(k·d) + d), the upper edge
     * of the Marchenko–Pastur law for Wishart_d(B²·I, k) minus its mean. Public.
     */
    public double noiseLevel() {
        return rowBound * rowBound * (2 * Math.sqrt((double) degrees * d) + d);
    }

    /**
     * Free post-processing of a {@link #release}: subtract the noise mean k·B²·I (the result is an
     * unbiased estimate of XᵀX), then project (eigenvalues clamped to [0, upperClamp], upperClamp =
     * n·B² when n is public, else +∞) and take the top k. Projecting before debiasing, as the
     * covariance handler did, flattened every answer to n·B²·I whenever k·B² ≥ n·B².
     * {@link CovarianceRelease#noiseDominated()} is set when the debiased estimate's largest
     * eigenvalue is at most twice {@link #noiseLevel()}.
     */
    public CovarianceRelease estimate(double[] released, int k, double upperClamp, boolean keepMatrix) {
        if (released.length != d * d) {
            throw new IllegalArgumentException("expected a " + d + "×" + d + " release");
        }
        double[] debiased = released.clone();
        double bias = degrees * rowBound * rowBound;
        for (int i = 0; i < d; i++) {
            debiased[i * d + i] -= bias;
        }
        double top = LinearAlgebra.eigen(debiased, d).values()[0];
        CovarianceRelease projected = PostProcessing.psdAndTopK(debiased, d, k, upperClamp, keepMatrix);
        return new CovarianceRelease(d, projected.covariance(), projected.eigenvalues(), projected.components(), k,
                top <= 2 * noiseLevel());
    }

    /** XᵀX + W, snapped to the grid; always PSD up to the snapping. */
    public double[] release(double[] gram, NoiseSource random) {
        if (gram.length != d * d) {
            throw new IllegalArgumentException("expected a " + d + "×" + d + " Gram matrix");
        }
        double[] l = new double[d * d];
        for (int i = 0; i < d; i++) {
            l[i * d + i] = Math.sqrt(ContinuousSamplers.chiSquared(degrees - i, random));
            for (int j = 0; j < i; j++) {
                l[i * d + j] = ContinuousSamplers.standardNormal(random);
            }
        }
        // L·Lᵀ = Σ over the columns of Lᵀ … = the Gram of the rows of Lᵀ: accumulate Lᵀ's rows.
        double[] lt = new double[d * d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                lt[j * d + i] = l[i * d + j];
            }
        }
        GramAccumulator w = new GramAccumulator(d);
        w.addRows(lt, 0, d);
        double[] wishart = w.result();
        double b2 = rowBound * rowBound;
        double g = granularity();
        double[] out = new double[d * d];
        for (int i = 0; i < d * d; i++) {
            out[i] = Math.rint((gram[i] + b2 * wishart[i]) / g) * g;
        }
        PostProcessing.symmetrise(out, d);
        return out;
    }
}
