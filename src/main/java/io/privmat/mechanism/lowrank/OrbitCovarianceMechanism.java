package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.LaplaceVectorMechanism;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.covariance.BinghamAcceptance;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.covariance.EigenSamplingMechanism;
import io.privmat.mechanism.covariance.Peeling;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.Decimals;
import io.privmat.privacy.PrivacyFloors;
import io.privmat.privacy.PureDp;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * The rank-k covariance approximation U·Λ̂·Uᵀ of M = XᵀX with a private spectrum (Mangoubi and
 * Vishnoi, "Private matrix approximation and geometry of unitary orbits", 2022, Algorithm 2), pure ε-DP;
 * rows of norm ≤ B. docs/mechanisms/analytics.md.
 *
 * <p><b>Spectrum</b> (ε₁ = ε/4): λ̂ = λ(M) + discrete Laplace noise with the eigenvalue vector's L1
 * sensitivity ({@link Sensitivities#eigenvaluesL1}: B² under ADD_REMOVE, 2B² under REPLACE_ONE), clamped
 * to [0, upperClamp] and sorted descending; Λ̂ = diag(λ̂₁, …, λ̂_k). Clamping and sorting move no entry by
 * more than the largest noise entry, so every λⱼ(M) is within b·ln(d/ν) of λ̂ⱼ with probability ≥ 1 − ν
 * (b the Laplace scale; {@link #eigenvalueHalfWidth}).
 *
 * <p><b>Orientation</b> (ε₂ = 3ε/4), by the exponential mechanism with MV's utility ⟨M, UΛ̂Uᵀ⟩ =
 * Σⱼ λ̂ⱼ·uⱼᵀMuⱼ, whose sensitivity is λ̂₁B² (a rank-one change of M of spectral norm ≤ B²):
 * <ul>
 *   <li><b>k = 1</b>: MV Algorithm 1 exactly, density ∝ exp(ε₂·uᵀMu/(2B²)) on the sphere (λ̂₁
 *       cancels), drawn by the exact Bingham sampler with its data-independent proposal cap.</li>
 *   <li><b>k ≥ 2</b>: the joint density on the orbit has no exact sampler whose failure probability is
 *       bounded independently of the data (the matrix Bingham sampler's acceptance is not; ADR 0006), so
 *       the columns are drawn in turn ("MV-inspired" peeling, as Kapralov–Talwar and Amin et al.):
 *       uⱼ ∝ exp(ε₂ⱼ·uᵀMⱼu/(2B²)) on the unit sphere of the complement of u₁…u_{j−1}, Mⱼ = M projected
 *       there, with the budget split by the private spectrum, ε₂ⱼ = ε₂·λ̂ⱼ/Σ_{i≤k}λ̂ᵢ (equal when all are
 *       0). Each score uᵀMⱼu moves by at most B² (its range is [−B², B²] after a replacement), so step j
 *       is ε₂ⱼ-DP; the split depends only on λ̂ (already released) and sums to ε₂, so the composition is
 *       ε₂-DP. MV's utility theorem does not apply to this distribution.</li>
 * </ul>
 * <b>Sampler failure</b>: as for every user of the exact Bingham sampler (covariance.Samplers),
 * d ≤ {@link BinghamAcceptance#maxDimension()} is required and
 * each draw fails with probability at most 2⁻⁵⁰ on every input ({@link #failureProbabilityBound}).
 * <b>Numerics</b>: the eigenvalue noise is exact (grid); the directions are idealised (floating-point
 * Bingham proposals), as for every user of that sampler.
 */
public final class OrbitCovarianceMechanism {

    private final int d;
    private final int k;
    private final double rowBound;
    private final BigDecimal epsilon;
    private final double epsilonSubspace;
    private final LaplaceVectorMechanism eigenvalues;

    private OrbitCovarianceMechanism(int d, int k, double rowBound, NeighbouringRelation relation, BigDecimal epsilon) {
        this.d = d;
        this.k = k;
        this.rowBound = rowBound;
        this.epsilon = epsilon;
        double eps = Decimals.toDoubleDown(epsilon);
        double eps1 = Math.nextDown(eps / 4);
        this.epsilonSubspace = Math.nextDown(eps - eps1) * (1 - 1e-12);
        this.eigenvalues = LaplaceVectorMechanism.of(Sensitivities.eigenvaluesL1(rowBound, relation), eps1, d);
    }

    public static OrbitCovarianceMechanism of(int d, int k, double rowBound, NeighbouringRelation relation,
            BigDecimal epsilon) {
        if (k < 1 || k > d) {
            throw new IllegalArgumentException("k must be in [1, d]");
        }
        EigenSamplingMechanism.requireBoundedSampler(d);
        double eps = Decimals.toDoubleDown(epsilon);
        PrivacyFloors.epsilon("epsilon", eps);
        PrivacyFloors.epsilon("epsilon / 4", Math.nextDown(eps / 4));
        return new OrbitCovarianceMechanism(d, k, rowBound, relation, epsilon);
    }

    public PureDp privacyLoss() {
        return new PureDp(epsilon);
    }

    /** k·2⁻⁵⁰: the data-independent bound on the probability that a release fails. */
    public double failureProbabilityBound() {
        return k * BinghamAcceptance.FAILURE_BOUND;
    }

    /** The discrete Laplace scale b of the eigenvalue noise. */
    public double eigenvalueScale() {
        return eigenvalues.scale();
    }

    /** b·ln(d/ν): every released eigenvalue is within this of the data's, with probability ≥ 1 − ν. */
    public double eigenvalueHalfWidth(double nu) {
        return eigenvalues.scale() * Math.log(d / nu);
    }

    /**
     * @param gram M = XᵀX (d × d, row-major)
     * @param upperClamp the eigenvalues' upper clamp (n·B² when n is public, else +∞)
     * @return Λ̂ (k values, descending), U (d × k) and U·Λ̂·Uᵀ
     */
    public CovarianceRelease release(double[] gram, double upperClamp, NoiseSource random) {
        if (gram.length != d * d) {
            throw new IllegalArgumentException("expected a " + d + "×" + d + " Gram matrix");
        }
        SymmetricEigen full = LinearAlgebra.eigen(gram, d);
        double[] noisy = eigenvalues.release(full.values(), random);
        for (int j = 0; j < d; j++) {
            noisy[j] = Math.min(Math.max(noisy[j], 0), upperClamp);
        }
        Arrays.sort(noisy);
        double[] lambda = new double[k];
        double total = 0;
        for (int j = 0; j < k; j++) {
            lambda[j] = noisy[d - 1 - j];
            total += lambda[j];
        }
        double b2 = Math.nextUp(rowBound * rowBound * (1 + 0x1p-39));
        double[] u = new double[d * k];
        // P: rows an orthonormal basis of the part of ℝ^d still to be explored (q × d).
        double[] p = Peeling.fullBasis(d);
        int q = d;
        for (int step = 0; step < k; step++) {
            double share = total > 0 ? epsilonSubspace * (lambda[step] / total) : epsilonSubspace / k;
            share = Math.nextDown(share);
            double[] direction = Peeling.binghamDirection(Peeling.project(p, q, d, gram), q, share / (2 * b2), random);
            Peeling.lift(p, q, d, direction, u, k, step);
            p = Peeling.deflate(p, q, d, direction);
            q--;
        }
        double[] matrix = new double[d * d];
        for (int j = 0; j < k; j++) {
            for (int r = 0; r < d; r++) {
                double ur = u[r * k + j] * lambda[j];
                for (int s = 0; s < d; s++) {
                    matrix[r * d + s] += ur * u[s * k + j];
                }
            }
        }
        return new CovarianceRelease(d, matrix, lambda, u, k);
    }
}
