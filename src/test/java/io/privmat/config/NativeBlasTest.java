package io.privmat.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.ludovic.netlib.blas.BLAS;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The BLAS/LAPACK binding: on a machine without a system BLAS, the bundled OpenBLAS is native. */
class NativeBlasTest {

    /** Runs {@link BundledBlasProbe} in a fresh JVM; what it printed, as key=value. */
    private static java.util.Map<String, String> probe(java.util.Map<String, String> environment, String... options)
            throws Exception {
        String launcher = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(launcher));
        command.addAll(java.util.List.of(options));
        command.addAll(java.util.List.of("-cp", System.getProperty("java.class.path"), BundledBlasProbe.class.getName()));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectErrorStream(true);
        builder.environment().remove("PRIVMAT_BLAS_BACKEND");
        builder.environment().putAll(environment);
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
        facts.put("output", output);
        return facts;
    }

    /**
     * The bundled path, proven everywhere (also where a system BLAS is installed): a fresh JVM forced
     * to {@code bundled} binds netlib to the OpenBLAS extracted from the jar, computes through it
     * natively, and maps no system libblas/liblapack.
     */
    @Test
    void bundledOpenBlasIsNativeInAFreshJvmEvenWhereASystemBlasExists() throws Exception {
        java.util.Map<String, String> facts = probe(java.util.Map.of(), "-Dprivmat.blas.backend=bundled");
        String output = facts.get("output");
        assertThat(facts).as(output).containsEntry("source", "bundled").containsEntry("native", "true")
                .containsEntry("implementation", "JNIBLAS/JNILAPACK").containsEntry("product", "35.0,44.0,44.0,56.0")
                .containsEntry("blas", "OpenBLAS 0.3.30").containsEntry("reason", "privmat.blas.backend=bundled");
        assertThat(facts.get("library")).endsWith("libopenblas.so.0");
        String[] eigen = facts.get("eigen").split(",");
        assertThat(Double.parseDouble(eigen[0])).isCloseTo(3, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Double.parseDouble(eigen[1])).isCloseTo(1, org.assertj.core.data.Offset.offset(1e-12));
        // The mapped BLAS is the extracted one; no system libblas.so.3 / liblapack.so.3 was loaded.
        assertThat(facts.get("mapped")).as(output).contains(facts.get("library"))
                .doesNotContain("libblas.so.3").doesNotContain("liblapack.so.3");
    }

    /**
     * Auto mode in a fresh JVM whose loader path offers a {@code libblas.so.3} and
     * {@code liblapack.so.3} that are no optimised BLAS (shared libraries exporting none of the
     * OpenBLAS, MKL or BLIS markers, as the reference BLAS does): it binds the bundled OpenBLAS,
     * says why, and never maps them. Before, any readable {@code libblas.so.3} was taken.
     */
    @Test
    void autoModeDoesNotBindASystemBlasThatIsNotOptimised(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path libjava = java.nio.file.Path.of(System.getProperty("java.home"), "lib", "libjava.so");
        assumeThat(libjava).as("a Linux JDK").exists();
        java.nio.file.Files.copy(libjava, dir.resolve("libblas.so.3"));
        java.nio.file.Files.copy(libjava, dir.resolve("liblapack.so.3"));
        String path = System.getenv("LD_LIBRARY_PATH");
        java.util.Map<String, String> facts = probe(java.util.Map.of("LD_LIBRARY_PATH",
                dir + (path == null || path.isEmpty() ? "" : ":" + path)));
        String output = facts.get("output");
        assertThat(facts).as(output).containsEntry("source", "bundled").containsEntry("native", "true")
                .containsEntry("product", "35.0,44.0,44.0,56.0");
        assertThat(facts.get("reason")).as(output).contains("auto: the system's unknown is not an optimised BLAS")
                .contains(dir.toString()).contains("using the bundled OpenBLAS");
        assertThat(facts.get("mapped")).as(output).doesNotContain(dir.toString());
    }

    /** Where the machine has a system BLAS that is not optimised (e.g. Debian's libblas3): the bundled one. */
    @Test
    void thisJvmBindsTheBundledOpenBlasOverANonOptimisedSystemBlas() {
        NativeBlas.SystemPair pair = NativeBlas.SystemPair.find();
        assumeThat(pair != null && !pair.optimised()).as("a system BLAS that is not optimised").isTrue();
        NativeBlas.Selection selection = NativeBlas.install();
        assumeThat(selection.mode()).isEqualTo("auto");
        assertThat(selection.source()).isEqualTo("bundled");
        assertThat(selection.reason()).contains("is not an optimised BLAS");
        assertThat(NativeBlasReport.facts().source()).isEqualTo("bundled");
        assertThat(NativeBlasReport.facts().nativeBlas()).isTrue();
    }

    @Test
    void bundledOpenBlasIsNativeWhereNoSystemBlasExists() {
        assumeThat(NativeBlas.systemLibrary("libblas.so.3")).as("a system libblas.so.3 exists").isNull();
        NativeBlas.Selection selection = NativeBlas.install();
        assertThat(selection.source()).isEqualTo("bundled");
        assertThat(selection.library()).endsWith("libopenblas.so.0");
        assertThat(LinearAlgebra.isNative()).as(LinearAlgebra.implementation()).isTrue();
        assertThat(LinearAlgebra.implementation()).isEqualTo("JNIBLAS/JNILAPACK");
        NativeBlasReport.Facts facts = NativeBlasReport.facts();
        assertThat(facts.source()).isEqualTo("bundled");
        assertThat(facts.nativeBlas()).isTrue();
        assertThat(facts.reason()).isEqualTo("auto: there is no system libblas.so.3 and liblapack.so.3; using the "
                + "bundled OpenBLAS");
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

    /** The /actuator/info section: its members in the documented order, native under its JSON name. */
    @Test
    void theFactsRenderInTheirDocumentedOrder() {
        NativeBlasReport.Facts f = new NativeBlasReport.Facts("bundled", "OpenBLAS 0.3.30", "auto: r", true,
                "JNIBLAS/JNILAPACK", "auto", "~/lib/libopenblas.so.0", null);
        assertThat(JsonMapper.builder().build().writeValueAsString(f)).isEqualTo(
                "{\"source\":\"bundled\",\"implementation\":\"OpenBLAS 0.3.30\",\"reason\":\"auto: r\","
                        + "\"native\":true,\"binding\":\"JNIBLAS/JNILAPACK\",\"mode\":\"auto\","
                        + "\"library\":\"~/lib/libopenblas.so.0\"}");
    }
}
