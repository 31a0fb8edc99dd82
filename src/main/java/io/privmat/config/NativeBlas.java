package io.privmat.config;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the BLAS/LAPACK library that dev.ludovic.netlib binds to, before its first use.
 *
 * <p>netlib's JNI layer dlopens {@code libblas.so.3} / {@code liblapack.so.3} unless the system
 * properties {@code dev.ludovic.netlib.blas.nativeLibPath} and
 * {@code dev.ludovic.netlib.lapack.nativeLibPath} name another file, and it reads them once, when
 * {@code BLAS.getInstance()} first runs. In {@code auto} mode (the default):
 *
 * <ol>
 *   <li>properties already set by the operator are respected;
 *   <li>a system {@code libblas.so.3} and {@code liblapack.so.3} (e.g. Debian's OpenBLAS) are used
 *       when both exist;
 *   <li>otherwise the OpenBLAS bundled in the {@code org.bytedeco:openblas} jar is extracted
 *       (into the JavaCPP cache, {@code ~/.javacpp/cache} or {@code -Dorg.bytedeco.javacpp.cachedir})
 *       and both properties point at it;
 *   <li>if that fails, netlib falls back to its pure-Java BLAS by itself.
 * </ol>
 *
 * <p>{@code privmat.blas.backend} (system property or environment variable
 * {@code PRIVMAT_BLAS_BACKEND}) forces {@code system}, {@code bundled} or {@code java}. See
 * docs/benchmarks.md for what each backend costs. Pure of logging: callers report {@link #status()}.
 */
public final class NativeBlas {

    /** How the library was chosen; {@code library} is the file handed to netlib, if any. */
    public record Selection(String mode, String source, @Nullable String library, @Nullable String problem) {}

    private static final String BLAS_PATH = "dev.ludovic.netlib.blas.nativeLibPath";
    private static final String LAPACK_PATH = "dev.ludovic.netlib.lapack.nativeLibPath";
    private static final String BLAS_LIB = "dev.ludovic.netlib.blas.nativeLib";
    private static final String LAPACK_LIB = "dev.ludovic.netlib.lapack.nativeLib";
    private static final String JAVA_ONLY = "dev.ludovic.netlib.blas.nativeLibPath.disabled";

    private static @Nullable Selection selection;

    private NativeBlas() {}

    /** Selects the library once per JVM (later calls return the first answer). */
    public static synchronized Selection install() {
        return install(null);
    }

    /**
     * As {@link #install()}, with the mode from configuration ({@code privmat.blas.backend}); null
     * falls back to the system property or environment variable.
     */
    public static synchronized Selection install(@Nullable String configuredMode) {
        if (selection == null) {
            String mode = configuredMode == null || configuredMode.isBlank() ? requestedMode()
                    : configuredMode.trim().toLowerCase(Locale.ROOT);
            selection = select(mode);
        }
        return selection;
    }

    /** The selection made by {@link #install()}, or null if it has not run. */
    public static synchronized @Nullable Selection status() {
        return selection;
    }

    private static String requestedMode() {
        String mode = System.getProperty("privmat.blas.backend");
        if (mode == null || mode.isBlank()) {
            mode = System.getenv("PRIVMAT_BLAS_BACKEND");
        }
        return mode == null || mode.isBlank() ? "auto" : mode.trim().toLowerCase(Locale.ROOT);
    }

    private static Selection select(String mode) {
        if (System.getProperty(BLAS_PATH) != null || System.getProperty(BLAS_LIB) != null) {
            return new Selection(mode, "configured", System.getProperty(BLAS_PATH, System.getProperty(BLAS_LIB)), null);
        }
        switch (mode) {
            case "java" -> {
                // A path that cannot be opened makes netlib fall back to its Java implementation.
                System.setProperty(BLAS_PATH, JAVA_ONLY);
                System.setProperty(LAPACK_PATH, JAVA_ONLY);
                return new Selection(mode, "java", null, null);
            }
            case "system" -> {
                return new Selection(mode, "system", systemLibrary("libblas.so.3"), null);
            }
            case "bundled" -> {
                return bundled(mode);
            }
            case "auto" -> {
                String blas = systemLibrary("libblas.so.3");
                if (blas != null && systemLibrary("liblapack.so.3") != null) {
                    return new Selection(mode, "system", blas, null);
                }
                return bundled(mode);
            }
            default -> throw new IllegalArgumentException(
                    "privmat.blas.backend must be auto, system, bundled or java but was " + mode);
        }
    }

    private static Selection bundled(String mode) {
        try {
            String library = extractBundled();
            System.setProperty(BLAS_PATH, library);
            System.setProperty(LAPACK_PATH, library);
            return new Selection(mode, "bundled", library, null);
        } catch (Exception | LinkageError e) {
            // netlib keeps its defaults: a system library if one appears on the loader path, else Java.
            return new Selection(mode, "none", null, e.toString());
        }
    }

    /**
     * Extracts the bundled OpenBLAS (with LAPACK) and its Fortran runtime, and loads the runtime so
     * that netlib's dlopen of {@code libopenblas.so.0} resolves it ({@code libopenblas.so.0} finds
     * {@code libgfortran.so.5} through its {@code $ORIGIN} run path, but libgfortran's own
     * dependencies have none).
     */
    private static String extractBundled() throws Exception {
        String platform = org.bytedeco.javacpp.Loader.getPlatform();
        if (!platform.equals("linux-x86_64")) {
            throw new UnsupportedOperationException("no bundled OpenBLAS for " + platform);
        }
        Class<?> owner = org.bytedeco.openblas.global.openblas.class;
        File quadmath = cache(owner, platform, "libquadmath.so.0");
        File gfortran = cache(owner, platform, "libgfortran.so.5");
        File openblas = cache(owner, platform, "libopenblas.so.0");
        System.load(quadmath.getAbsolutePath());
        try {
            System.load(gfortran.getAbsolutePath());
        } catch (UnsatisfiedLinkError missingGccRuntime) {
            System.load(cache(owner, platform, "libgcc_s.so.1").getAbsolutePath());
            System.load(gfortran.getAbsolutePath());
        }
        return openblas.getAbsolutePath();
    }

    private static File cache(Class<?> owner, String platform, String name) throws Exception {
        File file = org.bytedeco.javacpp.Loader.cacheResource(owner, platform + "/" + name);
        if (file == null) {
            throw new IllegalStateException(name + " is not in the bundled OpenBLAS jar");
        }
        return file;
    }

    /** The first readable file of that name on the dynamic loader's usual path, or null. */
    static @Nullable String systemLibrary(String name) {
        List<String> dirs = new ArrayList<>();
        String ld = System.getenv("LD_LIBRARY_PATH");
        if (ld != null) {
            for (String dir : ld.split(":")) {
                if (!dir.isEmpty()) {
                    dirs.add(dir);
                }
            }
        }
        dirs.addAll(List.of("/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64",
                "/lib64", "/usr/lib", "/lib"));
        for (String dir : dirs) {
            Path candidate = Path.of(dir, name);
            if (Files.isReadable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }
}
