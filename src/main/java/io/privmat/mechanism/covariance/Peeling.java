package io.privmat.mechanism.covariance;

import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.NoiseSource;

/**
 * The steps shared by the mechanisms that draw k directions one at a time from Bingham distributions
 * on shrinking subspaces (eigenvector sampling, the orbit covariance): P holds, as q rows of length d,
 * an orthonormal basis of the part of ℝ^d still to be explored; each step projects the matrix onto
 * it, draws a unit direction ∝ exp(scale·xᵀ(PCPᵀ)x), lifts it back to ℝ^d and removes it from P
 * (docs/mechanisms/covariance.md).
 */
public final class Peeling {

    private Peeling() {
    }

    /** The identity basis: P = I (d × d). */
    public static double[] fullBasis(int d) {
        double[] p = new double[d * d];
        for (int i = 0; i < d; i++) {
            p[i * d + i] = 1;
        }
        return p;
    }

    /** P C Pᵀ (q × q, symmetric) for P (q × d, row-major) and C (d × d). */
    public static double[] project(double[] p, int q, int d, double[] c) {
        double[] pc = new double[q * d];
        // Row-major PC = (col-major) (Cᵀ Pᵀ)ᵀ … C symmetric: pc(row-major) = P·C.
        LinearAlgebraOps.multiply(p, q, d, c, d, pc);
        double[] out = new double[q * q];
        LinearAlgebraOps.multiplyTransB(pc, q, d, p, q, out);
        PostProcessing.symmetrise(out, q);
        return out;
    }

    /**
     * A unit vector of ℝ^q (in P's row coordinates) with density ∝ exp(scale·xᵀMx) for the projected
     * matrix M: the Bingham draw in M's eigenbasis with exponents scale·(λ_max − λ_j), rotated back.
     */
    public static double[] binghamDirection(double[] projected, int q, double scale, NoiseSource random) {
        if (q == 1) {
            return new double[] {1};
        }
        SymmetricEigen e = LinearAlgebra.eigen(projected, q);
        double max = e.values()[0];
        double[] a = new double[q];
        for (int j = 0; j < q; j++) {
            a[j] = scale * (max - e.values()[j]);
        }
        double[] x = BinghamSampler.sample(a, random);
        double[] u = new double[q];
        for (int r = 0; r < q; r++) {
            double sum = 0;
            for (int j = 0; j < q; j++) {
                sum += e.vectors()[r * q + j] * x[j];
            }
            u[r] = sum;
        }
        return u;
    }

    /** Writes Pᵀu (the direction in ℝ^d) into column {@code column} of the d × k matrix {@code out}. */
    public static void lift(double[] p, int q, int d, double[] u, double[] out, int k, int column) {
        for (int col = 0; col < d; col++) {
            double sum = 0;
            for (int r = 0; r < q; r++) {
                sum += p[r * d + col] * u[r];
            }
            out[col * k + column] = sum;
        }
    }

    /** Rows 2..q of H·P where H is the Householder reflection taking u to ±e₁ (an orthonormal basis of u^⊥). */
    public static double[] deflate(double[] p, int q, int d, double[] u) {
        double[] w = u.clone();
        w[0] -= u[0] >= 0 ? -1 : 1;
        double norm = 0;
        for (double v : w) {
            norm += v * v;
        }
        norm = Math.sqrt(norm);
        double[] next = new double[(q - 1) * d];
        if (norm == 0) {
            System.arraycopy(p, d, next, 0, (q - 1) * d);
            return next;
        }
        double[] wp = new double[d];
        for (int r = 0; r < q; r++) {
            w[r] /= norm;
            for (int col = 0; col < d; col++) {
                wp[col] += w[r] * p[r * d + col];
            }
        }
        for (int r = 1; r < q; r++) {
            for (int col = 0; col < d; col++) {
                next[(r - 1) * d + col] = p[r * d + col] - 2 * w[r] * wp[col];
            }
        }
        return next;
    }
}
