package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import java.util.Objects;

/**
 * Public parameters of private SVD completion.
 *
 * @param domain items n (at most {@link #MAX_ITEMS}), rating range, per-user cap s
 * @param relation USER, USER_ADD_REMOVE, or RATING (calibrated as USER)
 * @param rank r ∈ [1, n]: the number of released item directions
 * @param fit how each user completes their row from the released directions
 * @param ridge λ ≥ 0 for {@link LocalFit#LEAST_SQUARES} (ignored otherwise)
 */
public record SvdCompletionParameters(RatingsDomain domain, RatingsRelation relation, int rank, LocalFit fit,
        double ridge) {

    /** The n × n noisy Gram is held dense: about 4·n² doubles at the peak (W, the integer noise, Ŵ, the eigensolver's copy), 128 MB at n = 2048. */
    public static final int MAX_ITEMS = 2048;

    /** A user's local completion from item directions V (n × r). */
    public enum LocalFit {
        /**
         * Ŷᵢ = (n/|Ωᵢ|)·P_Ω(Y*ᵢ)·V·Vᵀ: the user's observed row projected on the released subspace and
         * rescaled by their own inverse sampling rate (Jain–Thakkar–Thakurta's SVD baseline, "each
         * user projects her data record onto V_r after appropriate scaling").
         */
        RESCALED_PROJECTION,
        /** Ŷᵢ = uᵢVᵀ with uᵢ = argmin ‖P_Ω(Y*ᵢ − uVᵀ)‖² + λ‖u‖² (a ridge fit on the user's observed items). */
        LEAST_SQUARES
    }

    public SvdCompletionParameters {
        Objects.requireNonNull(domain);
        Objects.requireNonNull(relation);
        Objects.requireNonNull(fit);
        if (domain.items() > MAX_ITEMS) {
            throw new IllegalArgumentException("private SVD takes at most " + MAX_ITEMS + " items");
        }
        if (rank < 1 || rank > domain.items()) {
            throw new IllegalArgumentException("rank must be in [1, items]");
        }
        if (!(ridge >= 0) || !Double.isFinite(ridge)) {
            throw new IllegalArgumentException("ridge must be finite and >= 0");
        }
    }
}
