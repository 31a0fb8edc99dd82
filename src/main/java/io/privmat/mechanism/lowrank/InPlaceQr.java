package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.linalg.NumericalFailureException;

/**
 * The thin Q of a tall matrix (rows ≥ cols) computed in its own row-major array: no copy of the
 * matrix, only O(cols) scratch. Hardt–Roth's range finder Y (m × ℓ) is by far the largest array the
 * release holds; {@link Dense#thinQ} (EJML's column Householder QR) keeps Y, its own column-major
 * copy and the m × ℓ Q at once, this keeps one (docs/mechanisms/low-rank.md, memory).
 *
 * <p>The arithmetic is exactly {@link Dense#thinQ}'s, operation for operation and in the same order
 * for every entry (the factorisation {@code I − γuuᵀ} with u scaled by its column's largest entry,
 * then Q accumulated from the identity, last reflector first), so Q is the same bits: Java evaluates
 * each {@code double} operation exactly as written (no fused or reordered arithmetic). Only the
 * storage differs: the reflectors stay below the diagonal of the input, R's entries above it are
 * zeroed as Q's columns take their place (the LAPACK {@code dorg2r} layout).
 * {@code InPlaceQrTest} compares the two on many shapes and values.
 */
final class InPlaceQr {

    private InPlaceQr() {}

    /**
     * Overwrites {@code a} (rows × cols, row-major, rows ≥ cols ≥ 1) with its thin Q (rows × cols).
     *
     * @throws NumericalFailureException if a column is zero below its diagonal (rank deficient), as
     *         {@link Dense#thinQ} does
     */
    static double[] thinQ(double[] a, int rows, int cols) {
        if (rows < cols || cols < 1 || a.length != Math.multiplyExact(rows, cols)) {
            throw new IllegalArgumentException("a must be rows × cols with rows ≥ cols ≥ 1");
        }
        double[] gammas = new double[cols];
        double[] v = new double[cols];
        for (int j = 0; j < cols; j++) {
            if (!householder(a, rows, cols, j, gammas)) {
                throw new NumericalFailureException("QR failed");
            }
            update(a, rows, cols, j, gammas[j], v);
        }
        formQ(a, rows, cols, gammas, v);
        return a;
    }

    /** The reflector of column j below its diagonal: u (u_j = 1 implied) in place, γ, and R's −τ·max. */
    private static boolean householder(double[] a, int rows, int cols, int j, double[] gammas) {
        double max = -1;
        for (int r = j; r < rows; r++) {
            double x = a[r * cols + j];
            x = x < 0 ? -x : x;
            if (x > max) {
                max = x;
            }
        }
        if (max == 0.0) {
            return false;
        }
        double norm = 0;
        for (int r = j; r < rows; r++) {
            double x = a[r * cols + j] / max;
            a[r * cols + j] = x;
            norm += x * x;
        }
        double tau = Math.sqrt(norm);
        if (a[j * cols + j] < 0) {
            tau = -tau;
        }
        double u0 = a[j * cols + j] + tau;
        for (int r = j + 1; r < rows; r++) {
            a[r * cols + j] /= u0;
        }
        gammas[j] = u0 / tau;
        tau *= max;
        a[j * cols + j] = -tau;
        return true;
    }

    /** A = (I − γuuᵀ)A on the columns right of w, row by row (each column's sums in the same order). */
    private static void update(double[] a, int rows, int cols, int w, double gamma, double[] v) {
        for (int c = w + 1; c < cols; c++) {
            v[c] = a[w * cols + c];
        }
        for (int k = w + 1; k < rows; k++) {
            double u = a[k * cols + w];
            for (int c = w + 1; c < cols; c++) {
                v[c] += u * a[k * cols + c];
            }
        }
        for (int c = w + 1; c < cols; c++) {
            v[c] *= gamma;
            a[w * cols + c] -= v[c];
        }
        for (int i = w + 1; i < rows; i++) {
            double u = a[i * cols + w];
            for (int c = w + 1; c < cols; c++) {
                a[i * cols + c] -= u * v[c];
            }
        }
    }

    /**
     * Q = H₀·H₁·…·I, last reflector first. Before step j, Q's columns right of j are zero in rows ≤ j
     * (R's row j is cleared), and Q's column j is e_j, whose sum with u is 1 exactly.
     */
    private static void formQ(double[] a, int rows, int cols, double[] gammas, double[] v) {
        for (int j = cols - 1; j >= 0; j--) {
            double gamma = gammas[j];
            for (int c = j + 1; c < cols; c++) {
                a[j * cols + c] = 0.0;
                v[c] = 1.0 * 0.0;
            }
            double vj = 1.0;
            for (int k = j + 1; k < rows; k++) {
                double u = a[k * cols + j];
                vj += u * 0.0;
                for (int c = j + 1; c < cols; c++) {
                    v[c] += u * a[k * cols + c];
                }
            }
            vj *= gamma;
            for (int c = j + 1; c < cols; c++) {
                v[c] *= gamma;
            }
            a[j * cols + j] = 1.0 - 1.0 * vj;
            for (int c = j + 1; c < cols; c++) {
                a[j * cols + c] -= 1.0 * v[c];
            }
            for (int k = j + 1; k < rows; k++) {
                double u = a[k * cols + j];
                a[k * cols + j] = 0.0 - u * vj;
                for (int c = j + 1; c < cols; c++) {
                    a[k * cols + c] -= u * v[c];
                }
            }
        }
    }
}
