package io.privmat.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a BLAS library really is ({@link BlasLibrary}) and what auto mode does with it
 * ({@link NativeBlas#auto}): never the reference BLAS, whatever the file is called. Shared
 * libraries are built with gcc where it is installed (exporting the marker symbols of OpenBLAS, MKL
 * and BLIS, and laid out as Debian lays them out: symlinks, a thin {@code libblas.so.3} that needs
 * {@code libopenblas.so.0} through {@code $ORIGIN}); Debian's real packages are checked where they
 * are installed.
 */
class BlasLibraryTest {

    @TempDir
    Path dir;

    /** Builds {@code dir/name} exporting {@code symbols}, linked against {@code links} (gcc flags). */
    private Path library(String name, List<String> symbols, String... links) throws Exception {
        Path source = Files.createTempFile(dir, "lib", ".c");
        StringBuilder c = new StringBuilder();
        for (String symbol : symbols) {
            c.append("void ").append(symbol).append("(void) {}\n");
        }
        Files.writeString(source, c);
        Path out = dir.resolve(name);
        Files.createDirectories(out.getParent());
        List<String> command = new ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-o", out.toString(),
                "-Wl,-soname," + out.getFileName(), source.toString()));
        command.addAll(List.of(links));
        Process gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(gcc.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(gcc.exitValue()).as(output).isZero();
        return out;
    }

    private static boolean gcc() {
        try {
            Process p = new ProcessBuilder("gcc", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void readsTheDynamicSymbolsAndNeededLibrariesOfARealLibrary() throws Exception {
        // The JDK's own libjava.so, on every machine that runs these tests: exports JNU_* helpers,
        // needs libjvm.so, and defines no BLAS marker.
        Path libjava = Path.of(System.getProperty("java.home"), "lib", "libjava.so");
        assumeThat(libjava).as("a Linux JDK").exists();
        ElfDynamic elf = ElfDynamic.read(libjava, Set.of("JNU_ThrowNullPointerException", "openblas_get_config"));
        assertThat(elf.defined()).containsExactly("JNU_ThrowNullPointerException");
        assertThat(elf.needed()).contains("libjvm.so");
        BlasLibrary identified = BlasLibrary.identify(libjava);
        assertThat(identified.family()).isEqualTo(BlasLibrary.UNKNOWN);
        assertThat(identified.optimised()).isFalse();
    }

    @Test
    void aFileThatIsNotALibraryIsUnknownNotAnError() throws Exception {
        Path text = Files.writeString(dir.resolve("libblas.so.3"), "not an ELF file, long enough to have a header "
                + "of sixty-four bytes or more");
        assertThat(ElfDynamic.read(text, Set.of("dgemm_"))).isEqualTo(ElfDynamic.NONE);
        assertThat(BlasLibrary.identify(text).family()).isEqualTo(BlasLibrary.UNKNOWN);
        assertThat(BlasLibrary.identify(dir.resolve("missing.so")).evidence()).startsWith("cannot be read");
    }

    @Test
    void classifiesLibrariesLaidOutAsDebianDoes() throws Exception {
        assumeThat(gcc()).as("gcc is installed").isTrue();
        // OpenBLAS: a thin libblas.so.3 that needs libopenblas.so.0 from its own directory ($ORIGIN).
        Path openblas = library("openblas-pthread/libopenblasp-r0.3.21.so", List.of("openblas_get_config", "dgemm_"),
                "-Wl,-soname,libopenblas.so.0");
        Files.createSymbolicLink(dir.resolve("openblas-pthread/libopenblas.so.0"), openblas.getFileName());
        Path thinBlas = library("openblas-pthread/libblas.so.3", List.of("dgemm_"),
                "-L" + openblas.getParent(), "-Wl,--no-as-needed", "-l:libopenblas.so.0", "-Wl,-rpath,$ORIGIN",
                "-Wl,--enable-new-dtags");
        // Reached the Debian way: /usr/lib/…/libblas.so.3 → /etc/alternatives/… → the real file.
        Files.createDirectories(dir.resolve("alternatives"));
        Path alternative = Files.createSymbolicLink(dir.resolve("alternatives/libblas.so.3-x86_64"), thinBlas);
        Path named = Files.createSymbolicLink(dir.resolve("libblas.so.3"), alternative);
        BlasLibrary blas = BlasLibrary.identify(named);
        assertThat(blas.family()).isEqualTo(BlasLibrary.OPENBLAS);
        assertThat(blas.optimised()).isTrue();
        assertThat(blas.realPath()).isEqualTo(thinBlas.toRealPath().toString());
        assertThat(blas.version()).isEqualTo("0.3.21");
        assertThat(blas.evidence()).contains("openblas_get_config").contains("libopenblas.so.0, needed by");

        // MKL: libblas.so.3 is a symlink to libmkl_rt itself.
        Path mkl = library("mkl/libmkl_rt.so.2", List.of("mkl_get_version", "dgemm_"));
        assertThat(BlasLibrary.identify(Files.createSymbolicLink(dir.resolve("mkl/libblas.so.3"), mkl)).family())
                .isEqualTo(BlasLibrary.MKL);
        // BLIS: by its symbol, or (Debian's build exports only BLAS names) by its directory.
        assertThat(BlasLibrary.identify(library("custom/libblis.so.4", List.of("bli_info_get_version_str", "dgemm_")))
                .family()).isEqualTo(BlasLibrary.BLIS);
        assertThat(BlasLibrary.identify(library("blis-pthread/libblas.so.3", List.of("dgemm_"))).family())
                .isEqualTo(BlasLibrary.BLIS);

        // The reference BLAS exports the same BLAS names and nothing else.
        Path reference = library("blas/libblas.so.3.11.0", List.of("dgemm_", "dsyrk_"));
        BlasLibrary ref = BlasLibrary.identify(Files.createSymbolicLink(dir.resolve("blas/libblas.so.3"),
                reference.getFileName()));
        assertThat(ref.family()).isEqualTo(BlasLibrary.REFERENCE);
        assertThat(ref.optimised()).isFalse();
        assertThat(ref.name()).isEqualTo("reference BLAS/LAPACK (netlib) 3.11.0");
        // The reference LAPACK needs libblas.so.3, which may well be OpenBLAS: that does not make it OpenBLAS.
        BlasLibrary lapack = BlasLibrary.identify(library("lapack/liblapack.so.3", List.of("dgesdd_"),
                "-L" + thinBlas.getParent(), "-Wl,--no-as-needed", "-l:libblas.so.3", "-Wl,-rpath," + thinBlas.getParent()));
        assertThat(lapack.family()).isEqualTo(BlasLibrary.REFERENCE);
        // Anything else that exports no marker is unknown, and not used by auto mode.
        assertThat(BlasLibrary.identify(library("custom/libblas.so.3", List.of("dgemm_"))).optimised()).isFalse();
    }

    @Test
    void autoModeUsesAnOptimisedSystemPairAndOtherwiseTheBundledOpenBlas() throws Exception {
        assumeThat(gcc()).as("gcc is installed").isTrue();
        BlasLibrary openblas = BlasLibrary.identify(library("openblas/libopenblas.so.0", List.of("openblas_get_config")));
        BlasLibrary reference = BlasLibrary.identify(library("blas/libblas.so.3", List.of("dgemm_")));
        BlasLibrary referenceLapack = BlasLibrary.identify(library("lapack/liblapack.so.3", List.of("dgesdd_")));
        String blasPath = System.getProperty("dev.ludovic.netlib.blas.nativeLibPath");
        String lapackPath = System.getProperty("dev.ludovic.netlib.lapack.nativeLibPath");
        try {
            NativeBlas.Selection system = NativeBlas.auto("auto", new NativeBlas.SystemPair(openblas, openblas));
            assertThat(system.source()).isEqualTo("system");
            assertThat(system.library()).isEqualTo(openblas.path());
            assertThat(system.implementation()).isEqualTo("OpenBLAS");
            assertThat(system.reason()).contains("are OpenBLAS").contains("openblas_get_config");

            NativeBlas.Selection overReference = NativeBlas.auto("auto",
                    new NativeBlas.SystemPair(reference, referenceLapack));
            assertThat(overReference.source()).isEqualTo("bundled");
            assertThat(overReference.implementation()).startsWith("OpenBLAS");
            assertThat(overReference.reason()).contains("reference BLAS/LAPACK (netlib) is not an optimised BLAS")
                    .contains("using the bundled OpenBLAS").contains("privmat.blas.backend=system");

            // An optimised BLAS over the reference LAPACK: the bundled OpenBLAS, which has both.
            NativeBlas.Selection mixed = NativeBlas.auto("auto", new NativeBlas.SystemPair(openblas, referenceLapack));
            assertThat(mixed.source()).isEqualTo("bundled");
            assertThat(mixed.reason()).contains("OpenBLAS (BLAS) with reference BLAS/LAPACK (netlib) (LAPACK)");

            // An OpenBLAS that cannot be loaded (a dependency missing, as libgfortran.so.5 can be): not
            // handed to netlib, which would fall back to pure Java without a word.
            Path missing = library("deps/libmissing.so", List.of("helper"));
            BlasLibrary broken = BlasLibrary.identify(library("broken/libopenblas.so.0", List.of("openblas_get_config"),
                    "-L" + missing.getParent(), "-Wl,--no-as-needed", "-l:libmissing.so"));
            Files.delete(missing);
            assertThat(broken.family()).isEqualTo(BlasLibrary.OPENBLAS);
            NativeBlas.Selection unloadable = NativeBlas.auto("auto", new NativeBlas.SystemPair(broken, broken));
            assertThat(unloadable.source()).isEqualTo("bundled");
            assertThat(unloadable.reason()).contains("OpenBLAS cannot be loaded").contains("libmissing.so");

            NativeBlas.Selection none = NativeBlas.auto("auto", null);
            assertThat(none.source()).isEqualTo("bundled");
            assertThat(none.reason()).contains("no system libblas.so.3");
        } finally {
            // auto() points netlib's properties at what it chose; this JVM's BLAS is already bound.
            restore("dev.ludovic.netlib.blas.nativeLibPath", blasPath);
            restore("dev.ludovic.netlib.lapack.nativeLibPath", lapackPath);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    @Test
    void debiansRealPackagesWhereInstalled() {
        Path reference = Path.of("/usr/lib/x86_64-linux-gnu/blas/libblas.so.3");
        Path openblas = Path.of("/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3");
        assumeThat(Files.exists(reference) || Files.exists(openblas)).as("libblas3 or libopenblas0 installed").isTrue();
        if (Files.exists(reference)) {
            assertThat(BlasLibrary.identify(reference).family()).isEqualTo(BlasLibrary.REFERENCE);
        }
        if (Files.exists(openblas)) {
            assertThat(BlasLibrary.identify(openblas).family()).isEqualTo(BlasLibrary.OPENBLAS);
        }
    }
}
