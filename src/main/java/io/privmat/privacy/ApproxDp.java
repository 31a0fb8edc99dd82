package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * Approximate (ε, δ)-differential privacy (Dwork, Kenthapadi, McSherry, Mironov, Naor 2006).
 *
 * @param epsilon ε ∈ [0, ∞)
 * @param delta δ ∈ [0, 1)
 */
public record ApproxDp(BigDecimal epsilon, BigDecimal delta) implements PrivacyLoss {

    public ApproxDp {
        Checks.nonNegative("epsilon", epsilon);
        Checks.inClosedOpen("delta", delta, BigDecimal.ZERO, BigDecimal.ONE);
    }

    public static ApproxDp of(double epsilon, double delta) {
        Checks.nonNegative("epsilon", epsilon);
        Checks.inClosedOpen("delta", delta, 0, 1);
        return new ApproxDp(Decimals.of(epsilon), Decimals.of(delta));
    }

    @Override
    public String notion() {
        return "approx-DP";
    }
}
