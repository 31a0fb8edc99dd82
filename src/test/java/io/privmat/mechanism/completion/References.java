package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;

/**
 * Non-private references (test and benchmark code only, never releasable): Frank–Wolfe with the
 * exact top eigenpair and λ′ = σ₁, and ALS with exact statistics, both with the same local steps as
 * the private mechanisms.
 */
final class References {

    private References() {}

    static FrankWolfeRelease frankWolfe(RatingsSource source, FrankWolfeParameters params) {
        RatingsMatrix data = RatingsMatrix.load(source, params.domain());
        int n = params.domain().items();
        int t = params.iterations();
        double[] y = new double[data.ratings()];
        double[] directions = new double[t * n];
        double[] lambda = new double[t];
        for (int it = 0; it < t; it++) {
            double[] w = Grams.gradientGram(data, y);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < i; j++) {
                    w[i * n + j] = w[j * n + i];
                }
            }
            SymmetricEigen e = LinearAlgebra.eigen(w, n);
            double[] v = e.topVectors(1);
            System.arraycopy(v, 0, directions, it * n, n);
            lambda[it] = Math.max(Math.sqrt(Math.max(0, e.values()[0])), 1e-300);
            for (int u = 0; u < data.users(); u++) {
                FrankWolfeLocal.step(y, null, data.items(), data.values(), data.start(u), data.end(u), v, lambda[it],
                        params.stepSize(it + 1), params.nuclearRadius(), params.domain().rowBound());
            }
        }
        return new FrankWolfeRelease(params, directions, lambda.clone(), lambda,
                Facts.empty(CompletionFacts.VOCABULARY));
    }

    static AlsRelease als(RatingsSource source, AlsParameters params, long seed) {
        RatingsMatrix data = RatingsMatrix.load(source, params.domain());
        int n = params.domain().items();
        int r = params.rank();
        double[] v = new double[n * r];
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        for (int i = 0; i < v.length; i++) {
            v[i] = params.initScale() * random.nextGaussian();
        }
        for (int t = 1; t <= params.iterations(); t++) {
            DpAlsMechanism.Statistics st = DpAlsMechanism.statistics(data, v, params);
            double[] next = new double[n * r];
            for (int j = 0; j < n; j++) {
                double[] g = new double[r * r];
                double[] b = new double[r];
                System.arraycopy(st.grams(), j * r * r, g, 0, r * r);
                System.arraycopy(st.rhs(), j * r, b, 0, r);
                for (int a = 0; a < r; a++) {
                    g[a * r + a] += params.itemRidge();
                }
                System.arraycopy(SmallSolve.spd(g, b, r), 0, next, j * r, r);
            }
            v = next;
        }
        return new AlsRelease(params, v, Facts.empty(CompletionFacts.VOCABULARY));
    }
}
