package io.privmat.mechanism.completion;

import org.jspecify.annotations.Nullable;

/**
 * The local half of private Frank–Wolfe: one user's update from the broadcast (v̂_t, λ̂′_t) and
 * that user's own ratings only. Shared, operation for operation, by the mechanism (which keeps only
 * the observed entries) and by {@link FrankWolfeRelease#predict} (which also carries the full row),
 * so the two agree bit for bit on the observed entries.
 */
final class FrankWolfeLocal {

    private FrankWolfeLocal() {}

    /**
     * Yᵢ ← Π_{L,Ω}((1 − η)·Yᵢ + η·k·ûᵢ·v̂ᵀ) with ûᵢ = −Aᵢ·v̂/λ̂′ and Aᵢ = P_Ω(Yᵢ − Y*ᵢ).
     *
     * @param y the user's current prediction on the observed items, positions [from, to)
     * @param full the user's whole row (n), or null
     * @param items the observed items at the same positions
     * @param ratings the user's centred ratings at the same positions
     */
    static void step(double[] y, double @Nullable [] full, int[] items, double[] ratings, int from, int to, double[] v,
            double lambdaPrime, double eta, double k, double bound) {
        double dot = 0;
        for (int p = from; p < to; p++) {
            dot += (y[p] - ratings[p]) * v[items[p]];
        }
        double c = -eta * k * dot / lambdaPrime;
        double keep = 1 - eta;
        double norm2 = 0;
        for (int p = from; p < to; p++) {
            double next = keep * y[p] + c * v[items[p]];
            y[p] = next;
            norm2 += next * next;
        }
        if (full != null) {
            for (int j = 0; j < full.length; j++) {
                full[j] = keep * full[j] + c * v[j];
            }
        }
        double norm = Math.sqrt(norm2);
        if (norm > bound) {
            double s = bound / norm;
            for (int p = from; p < to; p++) {
                y[p] *= s;
            }
            if (full != null) {
                for (int j = 0; j < full.length; j++) {
                    full[j] *= s;
                }
            }
        }
    }

    /**
     * The FULLY_CORRECTIVE step: the user's row becomes their ridge least-squares fit u·Vᵀ on the
     * released directions V (n × r, row-major), u = argmin ‖P_Ω(Y*ᵢ − uVᵀ)‖² + λ‖u‖².
     *
     * @param y receives the fit on the observed items, positions [from, to)
     * @param full receives the whole fitted row (n), or null
     */
    static void refit(double[] y, double @Nullable [] full, int[] items, double[] ratings, int from, int to,
            double[] basis, int r, double ridge) {
        double[] u = LocalFits.ridge(items, ratings, from, to, basis, r, ridge);
        for (int p = from; p < to; p++) {
            y[p] = dot(u, basis, items[p] * r);
        }
        if (full != null) {
            for (int j = 0; j < full.length; j++) {
                full[j] = dot(u, basis, j * r);
            }
        }
    }

    private static double dot(double[] u, double[] basis, int row) {
        double s = 0;
        for (int k = 0; k < u.length; k++) {
            s += u[k] * basis[row + k];
        }
        return s;
    }
}
