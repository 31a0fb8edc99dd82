package io.privmat.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.ludovic.netlib.blas.BLAS;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import org.junit.jupiter.api.Test;

/** The BLAS/LAPACK binding: on a machine without a system BLAS, the bundled OpenBLAS is native. */
class NativeBlasTest {

    @Test
    void bundledOpenBlasIsNativeWhereNoSystemBlasExists() {
        assumeThat(NativeBlas.systemLibrary("libblas.so.3")).as("a system libblas.so.3 exists").isNull();
        NativeBlas.Selection selection = NativeBlas.install();
        assertThat(selection.source()).isEqualTo("bundled");
        assertThat(selection.library()).endsWith("libopenblas.so.0");
        assertThat(LinearAlgebra.isNative()).as(LinearAlgebra.implementation()).isTrue();
        assertThat(LinearAlgebra.implementation()).isEqualTo("JNIBLAS/JNILAPACK");
        assertThat(NativeBlasReport.facts()).containsEntry("source", "bundled").containsEntry("native", true);
    }

    @Test
    void nativeBlasAndLapackComputeCorrectly() {
        NativeBlas.install();
        double[] a = {1, 2, 3, 4, 5, 6}; // 2x3 column-major
        double[] c = new double[4];
        BLAS.getInstance().dgemm("N", "T", 2, 2, 3, 1.0, a, 2, a, 2, 0.0, c, 2);
        assertThat(c).containsExactly(35, 44, 44, 56);
        SymmetricEigen eigen = LinearAlgebra.eigen(new double[] {2, 1, 1, 2}, 2);
        assertThat(eigen.values()[0]).isCloseTo(3, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(eigen.values()[1]).isCloseTo(1, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(LinearAlgebra.cholesky(new double[] {4, 2, 2, 5}, 2)).containsExactly(2, 0, 1, 2);
    }
}
