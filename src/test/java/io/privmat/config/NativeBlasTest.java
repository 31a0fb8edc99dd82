package io.privmat.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.ludovic.netlib.blas.BLAS;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import org.junit.jupiter.api.Test;

/** The BLAS/LAPACK binding: on a machine without a system BLAS, the bundled OpenBLAS is native. */
class NativeBlasTest {

    /**
     * The bundled path, proven everywhere (CI installs a system OpenBLAS, so the test below is
     * skipped there): a fresh JVM forced to {@code bundled} binds netlib to the OpenBLAS extracted
     * from the jar, computes through it natively, and maps no system libblas/liblapack.
     */
    @Test
    void bundledOpenBlasIsNativeInAFreshJvmEvenWhereASystemBlasExists() throws Exception {
        String launcher = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(launcher, "-Dprivmat.blas.backend=bundled",
                "-cp", System.getProperty("java.class.path"), BundledBlasProbe.class.getName());
        builder.redirectErrorStream(true);
        builder.environment().remove("PRIVMAT_BLAS_BACKEND");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        java.util.Map<String, String> facts = new java.util.HashMap<>();
        for (String line : output.split("\\R")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                facts.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        assertThat(facts).as(output).containsEntry("source", "bundled").containsEntry("native", "true")
                .containsEntry("implementation", "JNIBLAS/JNILAPACK").containsEntry("product", "35.0,44.0,44.0,56.0");
        assertThat(facts.get("library")).endsWith("libopenblas.so.0");
        String[] eigen = facts.get("eigen").split(",");
        assertThat(Double.parseDouble(eigen[0])).isCloseTo(3, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Double.parseDouble(eigen[1])).isCloseTo(1, org.assertj.core.data.Offset.offset(1e-12));
        // The mapped BLAS is the extracted one; no system libblas.so.3 / liblapack.so.3 was loaded.
        assertThat(facts.get("mapped")).as(output).contains(facts.get("library"))
                .doesNotContain("libblas.so.3").doesNotContain("liblapack.so.3");
    }

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
