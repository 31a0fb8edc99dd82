package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.UserRatings;

/** Local (per-user) fits against released item factors V (n × r, row-major). */
final class LocalFits {

    private LocalFits() {}

    /** (n/|Ωᵢ|)·Σ_{j∈Ωᵢ} y_j·V_j (0 for a user without ratings). */
    static double[] rescaledProjection(UserRatings user, double[] v, int n, int r) {
        double[] coef = new double[r];
        int c = user.count();
        if (c == 0) {
            return coef;
        }
        int[] items = user.items();
        double[] y = user.centred();
        for (int p = 0; p < c; p++) {
            int row = items[p] * r;
            for (int k = 0; k < r; k++) {
                coef[k] += y[p] * v[row + k];
            }
        }
        double scale = (double) n / c;
        for (int k = 0; k < r; k++) {
            coef[k] *= scale;
        }
        return coef;
    }

    /** argmin_u Σ_{j∈Ωᵢ}(y_j − V_j·u)² + λ‖u‖², by Cholesky of V_ΩᵀV_Ω + λI (0 when that is singular). */
    static double[] ridge(UserRatings user, double[] v, int r, double lambda) {
        return ridge(user.items(), user.centred(), 0, user.count(), v, r, lambda);
    }

    /** As above for the ratings at positions [from, to) of shared arrays. */
    static double[] ridge(int[] items, double[] y, int from, int to, double[] v, int r, double lambda) {
        double[] g = new double[r * r];
        double[] b = new double[r];
        for (int p = from; p < to; p++) {
            int row = items[p] * r;
            for (int a = 0; a < r; a++) {
                double va = v[row + a];
                b[a] += y[p] * va;
                for (int c = a; c < r; c++) {
                    g[a * r + c] += va * v[row + c];
                }
            }
        }
        for (int a = 0; a < r; a++) {
            g[a * r + a] += lambda;
            for (int c = 0; c < a; c++) {
                g[a * r + c] = g[c * r + a];
            }
        }
        return SmallSolve.spd(g, b, r);
    }

    /** The completed row on the rating scale: clamp(u·Vᵀ + centre). */
    static double[] row(double[] coef, double[] v, RatingsDomain domain) {
        int n = domain.items();
        int r = coef.length;
        double[] out = new double[n];
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < r; k++) {
                s += coef[k] * v[j * r + k];
            }
            out[j] = domain.toRating(s);
        }
        return out;
    }
}
