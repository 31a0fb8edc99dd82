package io.privmat.config;

import dev.ludovic.netlib.blas.BLAS;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run in a fresh JVM by {@link NativeBlasTest}: installs the backend named by
 * {@code privmat.blas.backend} (auto if unset), computes a small product and eigen-decomposition through it, and
 * prints what was bound and which BLAS shared objects the process actually mapped.
 */
public final class BundledBlasProbe {

    private BundledBlasProbe() {}

    public static void main(String[] args) throws Exception {
        NativeBlas.Selection selection = NativeBlas.install();
        double[] a = {1, 2, 3, 4, 5, 6};
        double[] c = new double[4];
        BLAS.getInstance().dgemm("N", "T", 2, 2, 3, 1.0, a, 2, a, 2, 0.0, c, 2);
        SymmetricEigen eigen = LinearAlgebra.eigen(new double[] {2, 1, 1, 2}, 2);
        StringBuilder mapped = new StringBuilder();
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            int slash = line.indexOf('/');
            if (slash >= 0 && (line.contains("blas") || line.contains("lapack"))) {
                String file = line.substring(slash);
                if (mapped.indexOf(file) < 0) {
                    mapped.append(file).append(';');
                }
            }
        }
        System.out.println("source=" + selection.source());
        System.out.println("library=" + selection.library());
        System.out.println("blas=" + selection.implementation());
        System.out.println("reason=" + selection.reason());
        System.out.println("native=" + LinearAlgebra.isNative());
        System.out.println("implementation=" + LinearAlgebra.implementation());
        System.out.println("product=" + c[0] + "," + c[1] + "," + c[2] + "," + c[3]);
        System.out.println("eigen=" + eigen.values()[0] + "," + eigen.values()[1]);
        System.out.println("mapped=" + mapped);
    }
}
