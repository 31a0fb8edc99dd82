package io.privmat.mechanism.linalg;

/**
 * Eigenvalues in descending order and the matching eigenvectors as columns of a row-major d×d matrix.
 */
public record SymmetricEigen(int d, double[] values, double[] vectors) {

    /** The first k eigenvectors as a row-major d×k matrix. */
    public double[] topVectors(int k) {
        double[] out = new double[d * k];
        for (int i = 0; i < d; i++) {
            System.arraycopy(vectors, i * d, out, i * k, k);
        }
        return out;
    }

    /** Σ_j f(λ_j)·v_j v_jᵀ as a row-major d×d matrix (e.g. PSD projection with clamped values). */
    public double[] reconstruct(double[] newValues) {
        double[] scaled = new double[d * d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                scaled[i * d + j] = vectors[i * d + j] * newValues[j];
            }
        }
        double[] out = new double[d * d];
        // out = scaled · vectorsᵀ (row-major): in column-major terms out = vectorsᵀᵀ… use dgemm on transposes.
        NativeGate.enter();
        try {
            LinearAlgebra.BLAS_INSTANCE.dgemm("T", "N", d, d, d, 1.0, vectors, d, scaled, d, 0.0, out, d);
        } finally {
            NativeGate.exit();
        }
        return out;
    }
}
