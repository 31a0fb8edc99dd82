package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.UserRatings;

/**
 * The global release of private SVD completion: r item directions (the top eigenvectors of the
 * noisy P_Ω(Y*)ᵀP_Ω(Y*)) and their noisy eigenvalues. Users complete their rows locally
 * ({@link #predict}).
 *
 * @param directions n × r row-major, orthonormal columns
 * @param eigenvalues r values, descending (the released spectrum; may be negative from noise)
 */
public record SvdCompletionRelease(SvdCompletionParameters parameters, double[] directions, double[] eigenvalues,
        Facts facts) implements CompletionModel {

    public SvdCompletionRelease {
        if (directions.length != parameters.domain().items() * parameters.rank()
                || eigenvalues.length != parameters.rank()) {
            throw new IllegalArgumentException("release arrays do not match n and r");
        }
    }

    @Override
    public RatingsDomain domain() {
        return parameters.domain();
    }

    @Override
    public double[] predict(int[] items, double[] ratings) {
        if (items.length != ratings.length) {
            throw new IllegalArgumentException("items and ratings differ in length");
        }
        return complete(domain().canonical(-1, -1, items, ratings, items.length));
    }

    double[] complete(UserRatings user) {
        RatingsDomain domain = parameters.domain();
        int n = domain.items();
        int r = parameters.rank();
        double[] coef = parameters.fit() == SvdCompletionParameters.LocalFit.RESCALED_PROJECTION
                ? LocalFits.rescaledProjection(user, directions, n, r)
                : LocalFits.ridge(user, directions, r, parameters.ridge());
        return LocalFits.row(coef, directions, domain);
    }
}
