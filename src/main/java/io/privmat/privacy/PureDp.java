package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * Pure ε-differential privacy (Dwork, McSherry, Nissim, Smith 2006).
 *
 * @param epsilon ε ∈ [0, ∞), exact decimal
 */
public record PureDp(BigDecimal epsilon) implements PrivacyLoss {

    public PureDp {
        Checks.nonNegative("epsilon", epsilon);
    }

    public static PureDp of(double epsilon) {
        Checks.nonNegative("epsilon", epsilon);
        return new PureDp(Decimals.of(epsilon));
    }

    @Override
    public String notion() {
        return "pure-DP";
    }
}
