package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * ρ-zero-concentrated differential privacy (Bun and Steinke, TCC 2016, Definition 1.1):
 * D_α(M(x) ‖ M(x′)) ≤ αρ for every α &gt; 1 and every pair of neighbours.
 *
 * @param rho ρ ∈ [0, ∞)
 */
public record Zcdp(BigDecimal rho) implements PrivacyLoss {

    public Zcdp {
        Checks.nonNegative("rho", rho);
    }

    public static Zcdp of(double rho) {
        Checks.nonNegative("rho", rho);
        return new Zcdp(Decimals.of(rho));
    }

    @Override
    public String notion() {
        return "zCDP";
    }
}
