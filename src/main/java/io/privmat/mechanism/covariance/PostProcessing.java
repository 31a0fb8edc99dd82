package io.privmat.mechanism.covariance;

import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;

/**
 * Free post-processing of a private symmetric estimate: eigendecompose, clamp eigenvalues to
 * [0, upper] (upper = n·B² when n is public, else +∞), rebuild the PSD matrix and take the top-k
 * subspace (docs/mechanisms/covariance.md). It only ever sees the private release.
 */
public final class PostProcessing {

    private PostProcessing() {}

    public static CovarianceRelease psdAndTopK(double[] noisySymmetric, int d, int k, double upperClamp,
            boolean keepMatrix) {
        SymmetricEigen eigen = LinearAlgebra.eigen(noisySymmetric, d);
        double[] clamped = new double[d];
        for (int j = 0; j < d; j++) {
            clamped[j] = Math.min(Math.max(eigen.values()[j], 0), upperClamp);
        }
        double[] matrix = keepMatrix ? eigen.reconstruct(clamped) : null;
        if (matrix != null) {
            symmetrise(matrix, d);
        }
        double[] top = new double[k];
        System.arraycopy(clamped, 0, top, 0, k);
        return new CovarianceRelease(d, matrix, top, eigen.topVectors(k), k);
    }

    static void symmetrise(double[] m, int d) {
        for (int i = 0; i < d; i++) {
            for (int j = i + 1; j < d; j++) {
                double v = 0.5 * (m[i * d + j] + m[j * d + i]);
                m[i * d + j] = v;
                m[j * d + i] = v;
            }
        }
    }
}
