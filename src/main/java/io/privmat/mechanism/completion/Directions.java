package io.privmat.mechanism.completion;

/**
 * The direction step of FULLY_CORRECTIVE Frank–Wolfe: the top eigenpair of a released Gram with the
 * directions already in use projected out, and the growing orthonormal basis of those directions.
 * Post-processing of the released Grams only.
 */
final class Directions {

    private Directions() {}

    /**
     * The top Ritz pair of PŴP, P = I − VVᵀ (V: n × r row-major, orthonormal columns), by q Lanczos
     * steps from P·start; the vector is orthogonal to V. When P·start vanishes (V spans ℝⁿ, so there is
     * no direction left) the pair is (0, zero vector).
     */
    static TopEigen.Pair deflatedTop(double[] released, int n, double[] basis, int r, int steps, double[] start) {
        double[] x = start.clone();
        double before = TopEigen.norm(x);
        project(x, basis, r, n);
        if (!(TopEigen.norm(x) > 1e-9 * before)) {
            return new TopEigen.Pair(0, new double[n]);
        }
        double[] tmp = new double[n];
        TopEigen.Pair pair = TopEigen.lanczos((in, out) -> {
            System.arraycopy(in, 0, tmp, 0, n);
            project(tmp, basis, r, n);
            Grams.multiplyDense(released, n, tmp, out);
            project(out, basis, r, n);
        }, n, steps, x);
        double[] v = pair.vector();
        project(v, basis, r, n);
        double norm = TopEigen.norm(v);
        if (!(norm > 0.5)) {
            return new TopEigen.Pair(0, new double[n]);
        }
        TopEigen.scale(v, 1 / norm);
        return new TopEigen.Pair(pair.value(), v);
    }

    /** x ← (I − VVᵀ)x, twice (classical Gram–Schmidt, "twice is enough"). */
    static void project(double[] x, double[] basis, int r, int n) {
        for (int pass = 0; pass < 2; pass++) {
            for (int k = 0; k < r; k++) {
                double c = 0;
                for (int j = 0; j < n; j++) {
                    c += basis[j * r + k] * x[j];
                }
                for (int j = 0; j < n; j++) {
                    x[j] -= c * basis[j * r + k];
                }
            }
        }
    }

    /** V with the unit vector {@code v} appended as column r + 1 (a new n × (r + 1) array). */
    static double[] append(double[] basis, int r, double[] v, int n) {
        double[] out = new double[n * (r + 1)];
        for (int j = 0; j < n; j++) {
            System.arraycopy(basis, j * r, out, j * (r + 1), r);
            out[j * (r + 1) + r] = v[j];
        }
        return out;
    }
}
