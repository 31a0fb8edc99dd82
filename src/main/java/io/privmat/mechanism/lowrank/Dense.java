package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.linalg.NumericalFailureException;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.GaussianMatrices;
import io.privmat.mechanism.noise.NoiseSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRDecomposition;

/** Small dense helpers shared by the low-rank mechanisms (row-major arrays). */
final class Dense {

    private Dense() {}

    /** Thin Q (rows × cols, orthonormal columns) of a Householder QR; {@code a} is left unchanged. */
    static double[] thinQ(double[] a, int rows, int cols) {
        QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(rows, cols);
        // The column Householder QR copies its input into its own column-major storage, so a copy
        // here would only add one more rows × cols array (docs/mechanisms/low-rank.md, memory).
        DMatrixRMaj m = DMatrixRMaj.wrap(rows, cols, qr.inputModified() ? a.clone() : a);
        if (!qr.decompose(m)) {
            throw new NumericalFailureException("QR failed");
        }
        return qr.getQ(null, true).getData();
    }

    /** A data-independent random orthonormal d × k start. */
    static double[] randomOrthonormal(int d, int k, NoiseSource random) {
        double[] g = new double[d * k];
        GaussianMatrices.fillStandardNormal(g, random);
        return thinQ(g, d, k);
    }

    /** Top-k right singular structure of a small wide matrix B (ℓ × d): s, v (d × k), and U_B (ℓ × k). */
    record SmallSvd(double[] s, double[] v, double[] uB) {}

    static SmallSvd svdWide(double[] b, int l, int d, int k) {
        double[] bbt = new double[l * l];
        LinearAlgebraOps.multiplyTransB(b, l, d, b, l, bbt);
        SymmetricEigen e = LinearAlgebra.eigen(bbt, l);
        double[] s = new double[k];
        double[] uB = e.topVectors(k);
        double[] v = new double[d * k];
        // v_j = Bᵀ u_j / s_j.
        for (int j = 0; j < k; j++) {
            s[j] = Math.sqrt(Math.max(e.values()[j], 0));
            for (int c = 0; c < d; c++) {
                double sum = 0;
                for (int r = 0; r < l; r++) {
                    sum += b[r * d + c] * uB[r * k + j];
                }
                v[c * k + j] = s[j] > 0 ? sum / s[j] : 0;
            }
        }
        return new SmallSvd(s, v, uB);
    }
}
