package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * ε-bounded-range loss, the guarantee of the exponential mechanism that samples
 * ∝ exp(ε·u/(2Δu)) (Durfee and Rogers 2019). It is ε-DP and, by Cesar and Rogers 2021
 * (arXiv:2004.07223, Lemma 3.2), (ε²/8)-zCDP: four times cheaper in a zCDP ledger than a generic
 * ε-DP mechanism.
 *
 * @param epsilon ε ∈ [0, ∞)
 */
public record BoundedRangeDp(BigDecimal epsilon) implements PrivacyLoss {

    public BoundedRangeDp {
        Checks.nonNegative("epsilon", epsilon);
    }

    public static BoundedRangeDp of(double epsilon) {
        Checks.nonNegative("epsilon", epsilon);
        return new BoundedRangeDp(Decimals.of(epsilon));
    }

    @Override
    public String notion() {
        return "bounded-range";
    }
}
