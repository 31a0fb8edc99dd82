package io.privmat.mechanism.linalg;

/** Row-major matrix products through BLAS dgemm. */
public final class LinearAlgebraOps {

    private LinearAlgebraOps() {}

    /** out (m×n) = A (m×k) · B (k×n), all row-major. */
    public static void multiply(double[] a, int m, int k, double[] b, int n, double[] out) {
        multiply(a, m, k, b, n, out, 0);
    }

    /** out[outOffset…] (m×n) = A (m×k) · B (k×n), all row-major: rows of a larger out written in place. */
    public static void multiply(double[] a, int m, int k, double[] b, int n, double[] out, int outOffset) {
        // Row-major X is column-major Xᵀ: outᵀ = Bᵀ·Aᵀ.
        NativeGate.enter();
        try {
            LinearAlgebra.BLAS_INSTANCE.dgemm("N", "N", n, m, k, 1.0, b, 0, n, a, 0, k, 0.0, out, outOffset, n);
        } finally {
            NativeGate.exit();
        }
    }

    /** out (m×n) = A (m×k) · Bᵀ where B is n×k, all row-major. */
    public static void multiplyTransB(double[] a, int m, int k, double[] b, int n, double[] out) {
        // outᵀ = B·Aᵀ: in column-major, B (row-major n×k) is Bᵀ (k×n), so use "T".
        NativeGate.enter();
        try {
            LinearAlgebra.BLAS_INSTANCE.dgemm("T", "N", n, m, k, 1.0, b, k, a, k, 0.0, out, n);
        } finally {
            NativeGate.exit();
        }
    }

    /** out (k×n) += Aᵀ · B where A is m×k and B is m×n, all row-major (accumulates into out). */
    public static void addMultiplyTransA(double[] a, int m, int k, double[] b, int n, double[] out) {
        addMultiplyTransA(a, 0, m, k, b, n, out);
    }

    /**
     * out (k×n) += Aᵀ · B where A is the m×k row-major block of {@code a} starting at {@code aOffset}
     * (rows of a larger matrix, read in place) and B is m×n.
     */
    public static void addMultiplyTransA(double[] a, int aOffset, int m, int k, double[] b, int n, double[] out) {
        // outᵀ (column-major n×k) += Bᵀ·A: B row-major is column-major Bᵀ ("N"); A row-major is
        // column-major Aᵀ, so "T" gives A.
        NativeGate.enter();
        try {
            LinearAlgebra.BLAS_INSTANCE.dgemm("N", "T", n, k, m, 1.0, b, 0, n, a, aOffset, k, 1.0, out, 0, n);
        } finally {
            NativeGate.exit();
        }
    }
}
