package io.privmat.mechanism.linalg;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.lapack.LAPACK;
import org.netlib.util.intW;

/** Access to BLAS and LAPACK; reports which implementation is in use. */
public final class LinearAlgebra {

    static final BLAS BLAS_INSTANCE = BLAS.getInstance();
    static final LAPACK LAPACK_INSTANCE = LAPACK.getInstance();

    private LinearAlgebra() {}

    /** E.g. "JNIBLAS/JNILAPACK" (native OpenBLAS) or "Java11BLAS/…" (pure Java fallback). */
    public static String implementation() {
        return BLAS_INSTANCE.getClass().getSimpleName() + "/" + LAPACK_INSTANCE.getClass().getSimpleName();
    }

    /** True when the native OpenBLAS is in use. */
    public static boolean isNative() {
        return BLAS_INSTANCE.getClass().getSimpleName().startsWith("JNI");
    }

    /**
     * Symmetric eigendecomposition (LAPACK dsyevd) of a d×d symmetric matrix, not modified.
     *
     * @return eigenvalues in descending order, with eigenvectors as the columns of a row-major d×d
     *     matrix in the same order
     * @throws NumericalFailureException if LAPACK reports failure
     */
    public static SymmetricEigen eigen(double[] symmetric, int d) {
        double[] a = symmetric.clone();
        double[] w = new double[d];
        intW info = new intW(0);
        double[] workQuery = new double[1];
        int[] iworkQuery = new int[1];
        NativeGate.enter();
        try {
            LAPACK_INSTANCE.dsyevd("V", "U", d, a, d, w, workQuery, -1, iworkQuery, -1, info);
        } finally {
            NativeGate.exit();
        }
        double[] work = new double[(int) workQuery[0]];
        int[] iwork = new int[iworkQuery[0]];
        NativeGate.enter();
        try {
            LAPACK_INSTANCE.dsyevd("V", "U", d, a, d, w, work, work.length, iwork, iwork.length, info);
        } finally {
            NativeGate.exit();
        }
        if (info.val != 0) {
            throw new NumericalFailureException("symmetric eigendecomposition did not converge");
        }
        // LAPACK: ascending values; vector j is column j in column-major = row j of `a` as stored.
        double[] values = new double[d];
        double[] vectors = new double[d * d];
        for (int j = 0; j < d; j++) {
            int src = d - 1 - j;
            values[j] = w[src];
            for (int i = 0; i < d; i++) {
                vectors[i * d + j] = a[src * d + i];
            }
        }
        return new SymmetricEigen(d, values, vectors);
    }

    /**
     * Cholesky factor L (lower triangular, row-major, zeros above the diagonal) of a symmetric
     * positive definite d×d matrix, not modified (LAPACK dpotrf).
     *
     * @throws NumericalFailureException if the matrix is not positive definite
     */
    public static double[] cholesky(double[] spd, int d) {
        // Row-major symmetric = column-major symmetric; ask LAPACK for the upper factor U (col-major),
        // which read row-major is Uᵀ = L.
        double[] a = spd.clone();
        intW info = new intW(0);
        NativeGate.enter();
        try {
            LAPACK_INSTANCE.dpotrf("U", d, a, d, info);
        } finally {
            NativeGate.exit();
        }
        if (info.val != 0) {
            throw new NumericalFailureException("matrix is not positive definite");
        }
        for (int i = 0; i < d; i++) {
            for (int j = i + 1; j < d; j++) {
                a[i * d + j] = 0;
            }
        }
        return a;
    }

    /**
     * The inverse of a symmetric positive definite d×d matrix, not modified (LAPACK dpotrf then
     * dpotri); the full symmetric inverse, row-major.
     *
     * @throws NumericalFailureException if the matrix is not positive definite
     */
    public static double[] inverseSpd(double[] spd, int d) {
        double[] a = spd.clone();
        intW info = new intW(0);
        NativeGate.enter();
        try {
            LAPACK_INSTANCE.dpotrf("U", d, a, d, info);
        } finally {
            NativeGate.exit();
        }
        if (info.val != 0) {
            throw new NumericalFailureException("matrix is not positive definite");
        }
        NativeGate.enter();
        try {
            LAPACK_INSTANCE.dpotri("U", d, a, d, info);
        } finally {
            NativeGate.exit();
        }
        if (info.val != 0) {
            throw new NumericalFailureException("matrix inverse failed");
        }
        // Column-major upper triangle = row-major lower triangle; mirror it.
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                a[j * d + i] = a[i * d + j];
            }
        }
        return a;
    }

    /**
     * C's upper triangle as stored row-major := Aᵀ·A for a row-major block A (rows × d); the strictly
     * lower part of C is left as it was (not zeroed first: beta = 0).
     */
    static void syrkUpperRowMajor(double[] block, int rows, int d, double[] c) {
        // Row-major rows×d is column-major d×rows (= Aᵀ); dsyrk "N" computes (Aᵀ)(Aᵀ)ᵀ = AᵀA, and
        // column-major "L" (i ≥ j at i + j·d) is row j, columns i ≥ j, as stored row-major.
        NativeGate.enter();
        try {
            BLAS_INSTANCE.dsyrk("L", "N", d, rows, 1.0, block, 0, d, 0.0, c, 0, d);
        } finally {
            NativeGate.exit();
        }
    }

    /** C += Aᵀ·A for a row-major block A (rows × d); only the upper triangle of C (as stored) is kept current. */
    static void syrkRowMajor(double[] block, int offset, int rows, int d, double[] c) {
        // Row-major rows×d is column-major d×rows (= Aᵀ); dsyrk "N" computes (Aᵀ)(Aᵀ)ᵀ = AᵀA.
        NativeGate.enter();
        try {
            BLAS_INSTANCE.dsyrk("U", "N", d, rows, 1.0, block, offset, d, 1.0, c, 0, d);
        } finally {
            NativeGate.exit();
        }
    }
}
