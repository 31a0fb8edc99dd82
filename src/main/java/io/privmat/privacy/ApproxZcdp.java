package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * δ-approximate ρ-zCDP (Bun and Steinke 2016, Definition 8.1): outside events of probability at
 * most δ the mechanism is ρ-zCDP. An (ε, δ)-DP mechanism is δ-approximately (ε²/2)-zCDP
 * (docs/accounting.md §4), which is how (ε, δ)-only mechanisms enter the zCDP ledger.
 *
 * @param rho ρ ∈ [0, ∞)
 * @param delta δ ∈ [0, 1)
 */
public record ApproxZcdp(BigDecimal rho, BigDecimal delta) implements PrivacyLoss {

    public ApproxZcdp {
        Checks.nonNegative("rho", rho);
        Checks.inClosedOpen("delta", delta, BigDecimal.ZERO, BigDecimal.ONE);
    }

    public static ApproxZcdp of(double rho, double delta) {
        Checks.nonNegative("rho", rho);
        Checks.inClosedOpen("delta", delta, 0, 1);
        return new ApproxZcdp(Decimals.of(rho), Decimals.of(delta));
    }

    @Override
    public String notion() {
        return "approx-zCDP";
    }
}
