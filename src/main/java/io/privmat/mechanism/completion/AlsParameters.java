package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import java.util.Objects;

/**
 * Public parameters of private alternating least squares (all fixed before any data is read).
 *
 * @param domain items n, rating range, per-user cap s (L = (hi − lo)/2·√s)
 * @param relation USER, USER_ADD_REMOVE, or RATING (calibrated as USER)
 * @param rank r ∈ [1, min(n, {@link #MAX_RANK})]: the factor dimension
 * @param iterations T ≥ 1 item updates (2T Gaussian releases)
 * @param userRidge λ_u &gt; 0 in each user's local fit uᵢ = argmin ‖P_Ω(yᵢ − uVᵀ)‖² + λ_u‖u‖²
 * @param itemRidge λ_v &gt; 0 added to each item's noisy Gram before its solve
 * @param clip C &gt; 0: user factors are clipped to ‖uᵢ‖ ≤ C before they enter the item statistics
 * @param initScale the standard deviation of the data-independent random start V₀
 */
public record AlsParameters(RatingsDomain domain, RatingsRelation relation, int rank, int iterations,
        double userRidge, double itemRidge, double clip, double initScale) {

    public static final int MAX_RANK = 64;
    public static final int MAX_ITERATIONS = 100;
    /** n·r² doubles are held for the item Grams. */
    public static final long MAX_GRAM_ENTRIES = 50_000_000L;

    public AlsParameters {
        Objects.requireNonNull(domain);
        Objects.requireNonNull(relation);
        if (rank < 1 || rank > Math.min(domain.items(), MAX_RANK)) {
            throw new IllegalArgumentException("rank must be in [1, min(items, " + MAX_RANK + ")]");
        }
        if (iterations < 1 || iterations > MAX_ITERATIONS) {
            throw new IllegalArgumentException("iterations must be in [1, " + MAX_ITERATIONS + "]");
        }
        positive("userRidge", userRidge);
        positive("itemRidge", itemRidge);
        positive("clip", clip);
        positive("initScale", initScale);
        if ((long) domain.items() * rank * rank > MAX_GRAM_ENTRIES) {
            throw new IllegalArgumentException("items·rank² exceeds " + MAX_GRAM_ENTRIES);
        }
    }

    private static void positive(String name, double v) {
        if (!(v > 0) || !Double.isFinite(v)) {
            throw new IllegalArgumentException(name + " must be positive and finite");
        }
    }
}
