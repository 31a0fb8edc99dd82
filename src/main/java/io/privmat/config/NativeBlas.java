package io.privmat.config;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the BLAS/LAPACK library that dev.ludovic.netlib binds to, before its first use, and says
 * which and why.
 *
 * <p>netlib's JNI layer dlopens {@code libblas.so.3} / {@code liblapack.so.3} unless the system
 * properties {@code dev.ludovic.netlib.blas.nativeLibPath} and
 * {@code dev.ludovic.netlib.lapack.nativeLibPath} name another file, and it reads them once, when
 * {@code BLAS.getInstance()} first runs. In {@code auto} mode (the default):
 *
 * <ol>
 *   <li>properties already set by the operator are respected;
 *   <li>a system {@code libblas.so.3} and {@code liblapack.so.3} are used when both really are an
 *       optimised implementation — OpenBLAS, Intel MKL or BLIS, told apart by what they export
 *       ({@link BlasLibrary}), never by their name: on Debian that name is an alternatives symlink
 *       that {@code python3-numpy} may point at the slow reference (netlib) BLAS;
 *   <li>otherwise the OpenBLAS bundled in the {@code org.bytedeco:openblas} jar is extracted
 *       (into the JavaCPP cache, {@code ~/.javacpp/cache} or {@code -Dorg.bytedeco.javacpp.cachedir})
 *       and both properties point at it;
 *   <li>if that fails, the system libraries are used after all if there are any (said so), else
 *       netlib falls back to its pure-Java BLAS by itself.
 * </ol>
 *
 * <p>{@code privmat.blas.backend} (system property or environment variable
 * {@code PRIVMAT_BLAS_BACKEND}) forces {@code system}, {@code bundled} or {@code java}. See
 * docs/benchmarks.md for what each backend costs. Pure of logging: callers report {@link #status()}.
 */
public final class NativeBlas {

    /**
     * How the library was chosen.
     *
     * @param mode the requested mode: auto, system, bundled or java
     * @param source where the library comes from: system, bundled, configured (the operator set
     *     netlib's properties), java (pure Java) or none (nothing native could be prepared)
     * @param library the BLAS file handed to netlib, if any
     * @param implementation what that file is, e.g. {@code OpenBLAS 0.3.30}, or {@code pure Java}
     * @param reason why this source, in a sentence
     * @param problem what went wrong preparing the bundled library, if anything
     */
    public record Selection(String mode, String source, @Nullable String library, String implementation,
            String reason, @Nullable String problem) {}

    private static final String BLAS_PATH = "dev.ludovic.netlib.blas.nativeLibPath";
    private static final String LAPACK_PATH = "dev.ludovic.netlib.lapack.nativeLibPath";
    private static final String BLAS_LIB = "dev.ludovic.netlib.blas.nativeLib";
    private static final String LAPACK_LIB = "dev.ludovic.netlib.lapack.nativeLib";
    private static final String JAVA_ONLY = "dev.ludovic.netlib.blas.nativeLibPath.disabled";
    static final String PURE_JAVA = "pure Java (dev.ludovic.netlib)";

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
            String library = System.getProperty(BLAS_PATH, System.getProperty(BLAS_LIB));
            return new Selection(mode, "configured", library, identifyNamed(library),
                    "the operator set " + (System.getProperty(BLAS_PATH) != null ? BLAS_PATH : BLAS_LIB), null);
        }
        switch (mode) {
            case "java" -> {
                // A path that cannot be opened makes netlib fall back to its Java implementation.
                System.setProperty(BLAS_PATH, JAVA_ONLY);
                System.setProperty(LAPACK_PATH, JAVA_ONLY);
                return new Selection(mode, "java", null, PURE_JAVA, "privmat.blas.backend=java", null);
            }
            case "system" -> {
                SystemPair pair = SystemPair.find();
                if (pair == null) {
                    return new Selection(mode, "system", null, PURE_JAVA, "privmat.blas.backend=system, but there is "
                            + "no system libblas.so.3 and liblapack.so.3: netlib falls back to pure Java", null);
                }
                return pair.use(mode, "privmat.blas.backend=system" + (pair.optimised() ? ""
                        : "; it is not an optimised BLAS (" + pair.evidence() + ")"));
            }
            case "bundled" -> {
                return bundled(mode, "privmat.blas.backend=bundled");
            }
            case "auto" -> {
                return auto(mode, SystemPair.find());
            }
            default -> throw new IllegalArgumentException(
                    "privmat.blas.backend must be auto, system, bundled or java but was " + mode);
        }
    }

    /** Auto mode, given what the system offers (null: no system libblas.so.3 and liblapack.so.3). */
    static Selection auto(String mode, @Nullable SystemPair pair) {
        String loadProblem = pair != null && pair.optimised() ? pair.loadProblem() : null;
        if (pair != null && pair.optimised() && loadProblem == null) {
            return pair.use(mode, "auto: the system libblas.so.3 and liblapack.so.3 are " + pair.implementation()
                    + " (" + pair.evidence() + ")");
        }
        String why = pair == null ? "auto: there is no system libblas.so.3 and liblapack.so.3"
                : loadProblem != null ? "auto: the system's " + pair.implementation() + " cannot be loaded ("
                        + loadProblem + ")"
                : "auto: the system's " + pair.implementation() + " is not an optimised BLAS (" + pair.evidence()
                        + "); set privmat.blas.backend=system to use it anyway";
        Selection bundled = bundled(mode, why + "; using the bundled OpenBLAS");
        if (bundled.library() == null && pair != null) {
            return pair.use(mode, why + "; the bundled OpenBLAS could not be prepared (" + bundled.problem()
                    + "), so the system library is used after all");
        }
        return bundled;
    }

    /** The system's libblas.so.3 and liblapack.so.3, and what they really are. */
    record SystemPair(BlasLibrary blas, BlasLibrary lapack) {

        static @Nullable SystemPair find() {
            String blas = systemLibrary("libblas.so.3");
            String lapack = systemLibrary("liblapack.so.3");
            return blas == null || lapack == null ? null
                    : new SystemPair(BlasLibrary.identify(Path.of(blas)), BlasLibrary.identify(Path.of(lapack)));
        }

        boolean optimised() {
            return blas.optimised() && lapack.optimised();
        }

        String implementation() {
            return blas.family().equals(lapack.family()) ? blas.name()
                    : blas.name() + " (BLAS) with " + lapack.name() + " (LAPACK)";
        }

        String evidence() {
            return blas.family().equals(lapack.family()) && blas.optimised() ? blas.evidence()
                    : blas.evidence() + "; " + lapack.evidence();
        }

        /**
         * Null if both libraries load into this process, else why not (e.g. a dependency such as
         * libgfortran.so.5 is missing): netlib would then fall back to pure Java without a word.
         */
        @Nullable String loadProblem() {
            try {
                System.load(Path.of(blas.path()).toAbsolutePath().toString());
                System.load(Path.of(lapack.path()).toAbsolutePath().toString());
                return null;
            } catch (UnsatisfiedLinkError | SecurityException e) {
                return e.getMessage();
            }
        }

        /** Points netlib at exactly these two files (the ones classified). */
        Selection use(String mode, String reason) {
            System.setProperty(BLAS_PATH, blas.path());
            System.setProperty(LAPACK_PATH, lapack.path());
            return new Selection(mode, "system", blas.path(), implementation(), reason, null);
        }
    }

    private static Selection bundled(String mode, String reason) {
        try {
            String library = extractBundled();
            System.setProperty(BLAS_PATH, library);
            System.setProperty(LAPACK_PATH, library);
            return new Selection(mode, "bundled", library, bundledName(library), reason, null);
        } catch (Exception | LinkageError e) {
            // netlib keeps its defaults: a system library if one appears on the loader path, else Java.
            return new Selection(mode, "none", null, PURE_JAVA, reason + "; the bundled OpenBLAS could not be "
                    + "prepared", e.toString());
        }
    }

    /** {@code OpenBLAS <version>}, the version from the bundling jar when the file name has none. */
    private static String bundledName(String library) {
        BlasLibrary identified = BlasLibrary.identify(Path.of(library));
        if (identified.version() != null || !identified.family().equals(BlasLibrary.OPENBLAS)) {
            return identified.name();
        }
        String version;
        try {
            version = org.bytedeco.javacpp.Loader.getVersion("org.bytedeco", "openblas",
                    org.bytedeco.openblas.global.openblas.class);
        } catch (java.io.IOException | RuntimeException e) {
            version = null;
        }
        return version == null ? identified.name() : identified.family() + " " + version.split("-")[0];
    }

    private static String identifyNamed(String library) {
        Path path = Path.of(library);
        if (!path.isAbsolute()) {
            String found = systemLibrary(library);
            if (found == null) {
                return BlasLibrary.UNKNOWN;
            }
            path = Path.of(found);
        }
        return BlasLibrary.identify(path).name();
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
