package io.privmat.mechanism.covariance;

import io.privmat.mechanism.noise.ContinuousSamplers;
import io.privmat.mechanism.noise.NoiseSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRDecomposition;

/**
 * Exact sampler for the matrix Bingham distribution on k-dimensional subspaces,
 * f(X) ∝ exp(−tr(XᵀAX)) for q × k X with XᵀX = I (docs/mechanisms/low-rank.md, "Samplers"): rejection from the matrix
 * angular central Gaussian MACG(Ω), Ω = I + 2A/b (b as in {@link BinghamSampler}), with
 * log M_k = k·(−(q − b)/2 + (q/2)·ln(q/b)) and acceptance exp(−tr(XᵀAX))·det(XᵀΩX)^{q/2}/M_k.
 * Each factor of the ratio is bounded by the vector-case M, so the product is ≤ M^k: exact. But for
 * k ≥ 2 its acceptance has no data-independent lower bound: for A = diag(0, L, …, L), Ω = diag(1, 1/w₂,
 * …, 1/w₂) with w₂ = b/(b + 2L), and XᵀΩX = I/w₂ − (1/w₂ − 1)·x₁x₁ᵀ (x₁ the first row of X) has the
 * eigenvalue 1/w₂ for every orthonormal X; so every proposal's ratio is at most
 * exp(−(q/2)·φ(b/(q·w₂))), φ(u) = u − 1 − ln u, which tends to 0 as L grows
 * (docs/mechanisms/low-rank.md, "Samplers"). Mechanisms therefore use it for k = 1 only (where it
 * delegates to {@link BinghamSampler}). Fails closed after {@link #MAX_PROPOSALS}; proposal counts
 * are never exposed.
 */
public final class GrassmannSampler {

    static final int MAX_PROPOSALS = 200_000;

    private GrassmannSampler() {}

    /** An orthonormal q × k basis (row-major) in A's eigenbasis; a = A's eigenvalues. */
    public static double[] sample(double[] a, int k, NoiseSource random) {
        int q = a.length;
        if (k == 1) {
            return BinghamSampler.sample(a, random);
        }
        BinghamSampler.Envelope env = BinghamSampler.Envelope.of(a);
        double[] shifted = env.shifted();
        double[] omega = env.omega();
        double[] scale = env.scale();
        double b = env.b();
        double logM = k * (-(q - b) / 2 + (q / 2.0) * Math.log(q / b));
        QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(q, k);
        double[] z = new double[q * k];
        for (int proposal = 0; proposal < MAX_PROPOSALS; proposal++) {
            for (int j = 0; j < q; j++) {
                for (int c = 0; c < k; c++) {
                    z[j * k + c] = ContinuousSamplers.standardNormal(random) * scale[j];
                }
            }
            DMatrixRMaj m = DMatrixRMaj.wrap(q, k, z.clone());
            if (!qr.decompose(m)) {
                continue;
            }
            double[] x = qr.getQ(null, true).getData();
            double u = random.nextDouble();
            if (u > 0 && Math.log(u) < logRatio(x, k, shifted, omega, logM)) {
                return x;
            }
        }
        throw new BinghamSampler.SamplerFailureException();
    }

    /**
     * The log acceptance ratio −tr(XᵀAX) + (q/2)·ln det(XᵀΩX) − log M_k of an orthonormal q × k
     * proposal X (row-major, in A's eigenbasis); at most 0.
     */
    static double logRatio(double[] x, int k, double[] shifted, double[] omega, double logMk) {
        int q = shifted.length;
        double trace = 0;
        double[] s = new double[k * k];
        for (int j = 0; j < q; j++) {
            for (int c = 0; c < k; c++) {
                double xc = x[j * k + c];
                trace += shifted[j] * xc * xc;
                for (int e = 0; e < k; e++) {
                    s[c * k + e] += omega[j] * xc * x[j * k + e];
                }
            }
        }
        return -trace + (q / 2.0) * logDetSpd(s, k) - logMk;
    }

    /** log det of a small symmetric positive definite matrix by Cholesky. */
    static double logDetSpd(double[] s, int k) {
        double[] l = s.clone();
        double logDet = 0;
        for (int j = 0; j < k; j++) {
            double diag = l[j * k + j];
            for (int p = 0; p < j; p++) {
                diag -= l[j * k + p] * l[j * k + p];
            }
            if (!(diag > 0)) {
                return Double.NEGATIVE_INFINITY;
            }
            double root = Math.sqrt(diag);
            l[j * k + j] = root;
            logDet += 2 * Math.log(root);
            for (int i = j + 1; i < k; i++) {
                double v = l[i * k + j];
                for (int p = 0; p < j; p++) {
                    v -= l[i * k + p] * l[j * k + p];
                }
                l[i * k + j] = v / root;
            }
        }
        return logDet;
    }
}
