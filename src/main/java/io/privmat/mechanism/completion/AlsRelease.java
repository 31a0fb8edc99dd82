package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.UserRatings;

/**
 * The global release of private ALS: the final item factors V_T (n × r). A user completes their row
 * locally as uᵢ·V_Tᵀ with uᵢ their own ridge fit on V_T ({@link #predict}).
 *
 * @param itemFactors n × r row-major
 */
public record AlsRelease(AlsParameters parameters, double[] itemFactors, Facts facts)
        implements CompletionModel {

    public AlsRelease {
        if (itemFactors.length != parameters.domain().items() * parameters.rank()) {
            throw new IllegalArgumentException("itemFactors must be n × r");
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
        double[] u = LocalFits.ridge(user, itemFactors, parameters.rank(), parameters.userRidge());
        return LocalFits.row(u, itemFactors, parameters.domain());
    }
}
