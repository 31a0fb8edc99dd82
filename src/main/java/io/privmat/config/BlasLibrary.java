package io.privmat.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What a BLAS or LAPACK shared library (such as the system's {@code libblas.so.3}) really is. The
 * name says nothing: on Debian it is a symlink through {@code /etc/alternatives} to whichever
 * implementation is installed with the highest priority, and {@code python3-numpy} pulls in the
 * reference (netlib) one. So the file is resolved to its real path and classified by the symbols it
 * exports — {@code openblas_get_config} (OpenBLAS), {@code mkl_get_version} (Intel MKL),
 * {@code bli_info_get_version_str} (BLIS) — or that a library it carries along exports: Debian's
 * OpenBLAS {@code libblas.so.3} is a thin front that needs {@code libopenblas.so.0} from its own
 * directory. Debian's BLIS build exports only the BLAS names, so its directory ({@code blis-*}) is
 * the evidence there; Debian's reference packages live in {@code blas/} and {@code lapack/}.
 *
 * @param path the file as named (e.g. {@code /usr/lib/x86_64-linux-gnu/libblas.so.3})
 * @param realPath the file behind every symlink
 * @param family {@code OpenBLAS}, {@code Intel MKL}, {@code BLIS}, {@code reference} or {@code unknown}
 * @param version the version, when the real file name carries one, else null
 * @param evidence why: the symbol found and where, or the path that identified it
 */
record BlasLibrary(String path, String realPath, String family, @Nullable String version, String evidence) {

    static final String OPENBLAS = "OpenBLAS";
    static final String MKL = "Intel MKL";
    static final String BLIS = "BLIS";
    static final String REFERENCE = "reference";
    static final String UNKNOWN = "unknown";

    /** Marker symbol → family, in the order they are looked for. */
    private static final Map<String, String> MARKERS = Map.of(
            "openblas_get_config", OPENBLAS,
            "mkl_get_version", MKL,
            "MKL_Get_Version", MKL,
            "bli_info_get_version_str", BLIS);
    private static final List<String> MARKER_ORDER =
            List.of("openblas_get_config", "mkl_get_version", "MKL_Get_Version", "bli_info_get_version_str");

    /** Needed libraries worth opening: those of an implementation, never a generic libblas/liblapack. */
    private static final Pattern CARRIED = Pattern.compile("lib(openblas|mkl|blis).*");
    private static final Pattern VERSION = Pattern.compile("(\\d+\\.\\d+\\.\\d+)");

    /** OpenBLAS, MKL and BLIS are optimised; the reference BLAS and anything unrecognised are not. */
    boolean optimised() {
        return family.equals(OPENBLAS) || family.equals(MKL) || family.equals(BLIS);
    }

    /** The family with its version, e.g. {@code OpenBLAS 0.3.21}. */
    String name() {
        String base = family.equals(REFERENCE) ? "reference BLAS/LAPACK (netlib)" : family;
        return version == null ? base : base + " " + version;
    }

    /** Classifies the library at {@code path}; a file that cannot be read is {@code unknown}. */
    static BlasLibrary identify(Path path) {
        Path real;
        try {
            real = path.toRealPath();
        } catch (IOException e) {
            return new BlasLibrary(path.toString(), path.toString(), UNKNOWN, null, "cannot be read: " + e);
        }
        String realName = real.toString();
        try {
            ElfDynamic own = ElfDynamic.read(real, MARKERS.keySet());
            BlasLibrary found = byMarker(path, real, real, own, null);
            if (found != null) {
                return found;
            }
            for (String needed : own.needed()) {
                if (!CARRIED.matcher(needed).matches()) {
                    continue;
                }
                Path carried = locate(needed, real, own.runPaths());
                if (carried != null) {
                    found = byMarker(path, real, carried, ElfDynamic.read(carried, MARKERS.keySet()), needed);
                    if (found != null) {
                        return found;
                    }
                }
            }
        } catch (IOException e) {
            return new BlasLibrary(path.toString(), realName, UNKNOWN, null, "cannot be read: " + e);
        }
        Path dir = real.getParent();
        String dirName = dir == null || dir.getFileName() == null ? "" : dir.getFileName().toString();
        String file = String.valueOf(real.getFileName());
        if (dirName.toLowerCase(Locale.ROOT).startsWith("blis")) {
            return new BlasLibrary(path.toString(), realName, BLIS, null, realName + " is in Debian's BLIS directory");
        }
        if ((dirName.equals("blas") && file.startsWith("libblas.so"))
                || (dirName.equals("lapack") && file.startsWith("liblapack.so"))) {
            return new BlasLibrary(path.toString(), realName, REFERENCE, version(file),
                    realName + " is Debian's reference " + (dirName.equals("blas") ? "BLAS (libblas3)" : "LAPACK (liblapack3)"));
        }
        return new BlasLibrary(path.toString(), realName, UNKNOWN, null,
                realName + " exports none of " + String.join(", ", MARKER_ORDER));
    }

    private static @Nullable BlasLibrary byMarker(Path path, Path real, Path where, ElfDynamic dynamic,
            @Nullable String neededName) throws IOException {
        for (String marker : MARKER_ORDER) {
            if (dynamic.defined().contains(marker)) {
                String evidence = "symbol " + marker + " in " + where
                        + (neededName == null ? "" : " (" + neededName + ", needed by " + real + ")");
                return new BlasLibrary(path.toString(), real.toString(), MARKERS.get(marker),
                        version(String.valueOf(where.toRealPath().getFileName())), evidence);
            }
        }
        return null;
    }

    /** Where the dynamic loader would find {@code needed} for {@code library}: its run paths, then its directory. */
    private static @Nullable Path locate(String needed, Path library, List<String> runPaths) {
        Path origin = library.getParent();
        List<Path> dirs = new ArrayList<>();
        for (String runPath : runPaths) {
            if (!runPath.isEmpty()) {
                dirs.add(Path.of(runPath.replace("${ORIGIN}", String.valueOf(origin)).replace("$ORIGIN",
                        String.valueOf(origin))));
            }
        }
        if (origin != null) {
            dirs.add(origin);
        }
        for (Path dir : dirs) {
            Path candidate = dir.resolve(needed);
            if (Files.isReadable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static @Nullable String version(String fileName) {
        Matcher m = VERSION.matcher(fileName);
        return m.find() ? m.group(1) : null;
    }
}
