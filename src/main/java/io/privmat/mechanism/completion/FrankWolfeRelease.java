package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.UserRatings;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The global release of private Frank–Wolfe: what analysts get. For t = 1..T the broadcast
 * (v̂_t, λ̂′_t) — the top eigenvector of the noisy Ŵ_{t−1} and the public upper bound on the top
 * singular value of the gradient it was computed for — and λ̂_t = √max(0, top eigenvalue of
 * Ŵ_{t−1}), the released spectrum. All are post-processing of the T Gaussian releases Ŵ_t.
 *
 * <p>Persist it whole (T·(n + 2) doubles plus the parameters): {@link #predict} replays a user's
 * local iterations from it and the user's own ratings, so a user's completed row can be served to
 * the data owner on demand without storing an m × n matrix.
 *
 * @param directions T × n row-major, unit vectors v̂_1..v̂_T
 * @param lambdaHat T values λ̂_t
 * @param lambdaPrime T values λ̂′_t = λ̂_t + √(noise spectral bound)
 * @param facts public facts of the run (noise scale, sensitivity, bounds)
 */
public record FrankWolfeRelease(FrankWolfeParameters parameters, double[] directions, double[] lambdaHat,
        double[] lambdaPrime, Facts facts) implements CompletionModel {

    public FrankWolfeRelease {
        int t = parameters.iterations();
        int n = parameters.domain().items();
        if (directions.length != t * n || lambdaHat.length != t || lambdaPrime.length != t) {
            throw new IllegalArgumentException("release arrays do not match T and n");
        }
        for (double l : lambdaPrime) {
            if (!(l > 0) || !Double.isFinite(l)) {
                throw new IllegalArgumentException("lambdaPrime must be positive and finite");
            }
        }
    }

    @Override
    public RatingsDomain domain() {
        return parameters.domain();
    }

    /** v̂_t, t = 1..T (a copy). */
    public double[] direction(int t) {
        int n = parameters.domain().items();
        return Arrays.copyOfRange(directions, (t - 1) * n, t * n);
    }

    @Override
    public double[] predict(int[] items, double[] ratings) {
        if (items.length != ratings.length) {
            throw new IllegalArgumentException("items and ratings differ in length");
        }
        return replay(domain().canonical(-1, -1, items, ratings, items.length), null);
    }

    /**
     * The user's T local steps; returns the completed row on the rating scale (clamped to [lo, hi])
     * and, when {@code observedOut} is given, the final centred predictions on the observed items.
     */
    double[] replay(UserRatings user, double @Nullable [] observedOut) {
        RatingsDomain domain = parameters.domain();
        int n = domain.items();
        int c = user.count();
        double[] y = new double[c];
        double[] full = new double[n];
        if (parameters.schedule() == FrankWolfeParameters.StepSchedule.FULLY_CORRECTIVE) {
            // The last release's refit is on every direction in use (the non-zero ones), and only it matters.
            double[] basis = new double[0];
            int r = 0;
            for (int t = 1; t <= parameters.iterations(); t++) {
                double[] v = direction(t);
                if (TopEigen.norm(v) > 0) {
                    basis = Directions.append(basis, r++, v, n);
                }
            }
            if (r > 0) {
                FrankWolfeLocal.refit(y, full, user.items(), user.centred(), 0, c, basis, r, parameters.ridge());
            }
        } else {
            replaySteps(user, y, full);
        }
        if (observedOut != null) {
            System.arraycopy(y, 0, observedOut, 0, c);
        }
        double[] row = new double[n];
        for (int j = 0; j < n; j++) {
            row[j] = domain.toRating(full[j]);
        }
        return row;
    }

    private void replaySteps(UserRatings user, double[] y, double[] full) {
        int n = parameters.domain().items();
        int c = user.count();
        double bound = parameters.domain().rowBound();
        double[] v = new double[n];
        for (int t = 1; t <= parameters.iterations(); t++) {
            System.arraycopy(directions, (t - 1) * n, v, 0, n);
            FrankWolfeLocal.step(y, full, user.items(), user.centred(), 0, c, v, lambdaPrime[t - 1],
                    parameters.stepSize(t), parameters.nuclearRadius(), bound);
        }
    }
}
