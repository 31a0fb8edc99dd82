package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * The composition of {@code parts} Gaussian mechanisms (each a {@link GaussianLoss} with μ_i = Δ_i/σ_i,
 * each chosen — possibly after the earlier outputs — from public parameters), stated by its exact
 * ρ = Σ Δ_i²/(2σ_i²).
 *
 * <p>It is exactly μ-GDP with μ = √(2ρ) = √(Σμ_i²): the composition of Gaussian trade-off curves is
 * the Gaussian curve of the root-sum-square parameter (Dong, Roth, Su 2022, Corollary 3.3; for each
 * step's parameter fixed by public parameters, adaptive choice of the next step is covered by the
 * same corollary). It is also ρ-zCDP (Bun and Steinke 2016). Keeping the Gaussian parts Gaussian
 * lets {@link GdpFilter} charge an iterative or composite Gaussian mechanism (noisy power method,
 * private Oja, centred Analyze Gauss, AdaSSP) its exact μ, where a plain {@link Zcdp} loss — which
 * implies no μ-GDP — would have to be refused. docs/accounting.md §2.
 *
 * @param rho Σρ_i ∈ (0, ∞), exact sum of the parts' {@link GaussianLoss#rho()}
 * @param parts the number of Gaussian releases composed, ≥ 1
 */
public record GaussianComposition(BigDecimal rho, int parts) implements PrivacyLoss {

    public GaussianComposition {
        Checks.nonNegative("rho", rho);
        if (rho.signum() == 0) {
            throw new PrivacyArgumentException("rho", "(0, ∞)", "rho of a Gaussian composition must be positive");
        }
        if (parts < 1) {
            throw new PrivacyArgumentException("parts", "[1, ∞)", "a Gaussian composition has at least one part");
        }
    }

    /** μ = √(2ρ), rounded up. */
    public double mu() {
        return Math.nextUp(Math.sqrt(Decimals.toDoubleUp(rho.multiply(BigDecimal.valueOf(2)))));
    }

    @Override
    public String notion() {
        return "Gaussian-composition";
    }
}
