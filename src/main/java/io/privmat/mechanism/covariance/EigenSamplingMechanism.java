package io.privmat.mechanism.covariance;

import io.privmat.mechanism.LaplaceVectorMechanism;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.PrivacyArgumentException;
import io.privmat.privacy.PureDp;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * Pure ε-DP covariance and PCA by iterative eigenvector sampling (Amin, Dick, Kulesza, Muñoz
 * Medina, Vassilvitskii, NeurIPS 2019, Algorithm 1).
 *
 * <p><b>Algorithm</b>: with C = XᵀX/B² (rows of norm ≤ 1): eigenvalues λ(C) + discrete Laplace
 * noise of L1 sensitivity 1 (ADD_REMOVE) or 2 (REPLACE_ONE) with budget ε₀; then for i = 1..k the
 * i-th vector is drawn from the Bingham distribution ∝ exp((ε_i/4)·uᵀC_i u) on the sphere of the
 * subspace orthogonal to the earlier vectors (C_i = P C Pᵀ), with the exact {@link BinghamSampler}.
 * <b>Budget split</b>: equal, ε₀ = ε_i = ε/(k + 1) (as diffprivlib).
 * <b>Privacy guarantee</b>: pure ε-DP by basic composition. The exponent ε_i/4 is the paper's and is
 * conservative: uᵀCu has sensitivity 1, so it is (ε_i/2)-DP under REPLACE_ONE and (ε_i/4)-DP under
 * ADD_REMOVE (docs/mechanisms/covariance.md, "Eigenvector sampling"); we charge ε_i anyway. The projection P depends only on earlier
 * private outputs and cannot increase row norms, so adaptivity is fine.
 * <b>Numerics</b>: the sampler uses floating-point normals from the CSPRNG (idealised numerics).
 */
public final class EigenSamplingMechanism {

    private final int d;
    private final int k;
    private final double rowBound;
    private final BigDecimal epsilon;
    private final double share;
    private final LaplaceVectorMechanism eigenvalueNoise;

    private EigenSamplingMechanism(int d, int k, double rowBound, BigDecimal epsilon, NeighbouringRelation relation) {
        this.d = d;
        this.k = k;
        this.rowBound = rowBound;
        this.epsilon = epsilon;
        // ε/(k+1) rounded down, so that (k+1) shares never exceed ε.
        this.share = Math.nextDown(epsilon.doubleValue() / (k + 1));
        // Normalised data (B = 1): λ(C) has L1 sensitivity 1 or 2.
        this.eigenvalueNoise = LaplaceVectorMechanism.of(Sensitivities.eigenvaluesL1(1, relation), share, d);
    }

    public static EigenSamplingMechanism of(int d, int k, double rowBound, NeighbouringRelation relation,
            BigDecimal epsilon) {
        if (k < 1 || k > d) {
            throw new IllegalArgumentException("k must be in [1, d]");
        }
        requireBoundedSampler(d);
        return new EigenSamplingMechanism(d, k, rowBound, epsilon, relation);
    }

    /**
     * Refuses, from the public d alone, the dimensions for which the Bingham sampler's failure
     * probability cannot be bounded by 2^-50 with a bounded amount of work (BinghamAcceptance).
     */
    public static void requireBoundedSampler(int d) {
        int max = BinghamAcceptance.maxDimension();
        if (d > max) {
            throw new PrivacyArgumentException("cols", "[1, " + max + "]", "the exact Bingham sampler's failure "
                    + "probability is bounded independently of the data only for at most " + max + " columns; this "
                    + "dataset has " + d + " (use ANALYZE_GAUSS or WISHART)");
        }
    }

    /** The data-independent bound on the probability that a release fails (sampler cap reached). */
    public double failureProbabilityBound() {
        return k * BinghamAcceptance.FAILURE_BOUND;
    }

    /**
     * The eigenvalue noise, in the units of XᵀX/B² (multiply its scale and granularity by B² for
     * those of XᵀX): discrete Laplace of scale b on each of the d eigenvalues.
     */
    public LaplaceVectorMechanism eigenvalueNoise() {
        return eigenvalueNoise;
    }

    /**
     * β of each step's Bingham draw ∝ exp(β·uᵀC_i u), in the units of XᵀX/B²: ε/(4(k + 1)). Public;
     * the accuracy statements use it (the captured-variance gap of one draw is ≈ χ²_{q−1}/(2β)).
     */
    public double binghamParameter() {
        return share / 4;
    }

    public PureDp privacyLoss() {
        return new PureDp(epsilon);
    }

    public double epsilonPerStep() {
        return share;
    }

    /**
     * @param upperClamp clamp for the normalised eigenvalues (n when n is public, else +∞)
     * @param keepMatrix also return the rank-k estimate B²·Σ λ̂_i u_i u_iᵀ
     */
    public CovarianceRelease release(double[] gram, double upperClamp, boolean keepMatrix, NoiseSource random) {
        double b2 = rowBound * rowBound;
        double[] c = new double[d * d];
        for (int i = 0; i < c.length; i++) {
            c[i] = gram[i] / b2;
        }
        SymmetricEigen full = LinearAlgebra.eigen(c, d);
        double[] noisy = eigenvalueNoise.release(full.values(), random);
        for (int j = 0; j < d; j++) {
            noisy[j] = Math.min(Math.max(noisy[j], 0), upperClamp);
        }
        Arrays.sort(noisy);
        double[] lambdas = new double[k];
        for (int i = 0; i < k; i++) {
            lambdas[i] = noisy[d - 1 - i] * b2;
        }
        // P: rows form an orthonormal basis of the subspace still to be explored (q × d).
        double[] p = Peeling.fullBasis(d);
        int q = d;
        double[] components = new double[d * k];
        double scale = share / 4;
        for (int step = 0; step < k; step++) {
            double[] u = Peeling.binghamDirection(Peeling.project(p, q, d, c), q, scale, random);
            Peeling.lift(p, q, d, u, components, k, step);
            p = Peeling.deflate(p, q, d, u);
            q--;
        }
        double[] matrix = null;
        if (keepMatrix) {
            matrix = new double[d * d];
            for (int i = 0; i < k; i++) {
                for (int r = 0; r < d; r++) {
                    double ur = components[r * k + i] * lambdas[i];
                    for (int s = 0; s < d; s++) {
                        matrix[r * d + s] += ur * components[s * k + i];
                    }
                }
            }
        }
        return new CovarianceRelease(d, matrix, lambdas, components, k);
    }
}
