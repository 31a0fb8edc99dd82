package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * The Gaussian-DP filter (docs/adr/0007-gdp-accounting.md; docs/accounting.md §3).
 *
 * <p>At creation μ_B is the largest μ whose exact μ-GDP privacy curve satisfies δ(ε_B) ≤ δ_B
 * (Dong, Roth, Su 2022, Corollary 2.13; {@link Conversions#gdpDelta}, an upper bound, so μ_B is
 * rounded down). A charge of μ-GDP is admitted iff Σμ_i² ≤ μ_B². Smith and Thakurta (2022,
 * arXiv:2210.17520, "Fully adaptive composition for Gaussian differential privacy") prove that this
 * stopping rule is a valid μ_B-GDP filter when each μ_i is chosen adaptively, with the same
 * parameter as non-adaptive composition; hence the interaction is (ε_B, δ_B)-DP. For Gaussian
 * mechanisms it is exact: one Gaussian query calibrated to (ε_B, δ_B) takes the whole budget, and
 * k Gaussian queries take exactly what their non-adaptive composition takes.
 *
 * <p>The sum is kept on the ρ track as μ²/2 (for a Gaussian mechanism this equals its zCDP ρ =
 * Δ²/2σ²), so the ledger needs no new column; the cap is μ_B²/2. Per-loss charges:
 * <ul>
 *   <li>{@link GaussianLoss} (Δ, σ): exactly μ = Δ/σ-GDP (DRS Theorem 2.7) — μ²/2;</li>
 *   <li>{@link PureDp} ε: ε-DP implies μ-GDP with μ = 2Φ⁻¹(e^ε/(1+e^ε)) (the trade-off curve of
 *       ε-DP is piecewise linear through (0, 1), (1/(1+e^ε), 1/(1+e^ε)) and (1, 0); the convex
 *       Gaussian curve G_μ through that corner lies below both chords), computed as an upper
 *       bound — for small ε about (π/2)·ε², 1.57× its zCDP charge;</li>
 *   <li>{@link BoundedRangeDp} ε: ε-bounded range implies ε-DP, charged as pure ε (sound, not
 *       tight);</li>
 *   <li>{@link Zcdp}, {@link ApproxZcdp}, {@link ApproxDp}: refused ({@link IncompatibleLossException}).
 *       ρ-zCDP implies no μ-GDP for any μ, and no approximate-GDP filter is proven here; datasets
 *       that need such mechanisms use ZCDP or BASIC accounting.</li>
 * </ul>
 */
public final class GdpFilter implements BudgetFilter {

    private final Budget budget;
    private final double muBudget;
    private final Tracks capacity;

    GdpFilter(Budget budget) {
        this.budget = budget;
        this.muBudget = largestMu(Decimals.toDoubleDown(budget.epsilon()), Decimals.toDoubleDown(budget.delta()));
        BigDecimal mu = Decimals.exact(muBudget);
        this.capacity = Tracks.ofRho(mu.multiply(mu).divide(BigDecimal.valueOf(2), Decimals.DOWN_SHORT),
                BigDecimal.ZERO);
    }

    @Override
    public Budget budget() {
        return budget;
    }

    @Override
    public Tracks capacity() {
        return capacity;
    }

    /** μ_B, the GDP parameter of the whole budget (rounded down). */
    public double muBudget() {
        return muBudget;
    }

    @Override
    public Tracks cost(PrivacyLoss loss) {
        // Java 17 has no pattern switch; this chain is exhaustive over the sealed PrivacyLoss.
        if (loss instanceof GaussianLoss g) {
            return Tracks.ofRho(g.rho(), BigDecimal.ZERO);
        } else if (loss instanceof PureDp p) {
            return Tracks.ofRho(halfSquareUp(pureToMu(Decimals.toDoubleUp(p.epsilon()))), BigDecimal.ZERO);
        } else if (loss instanceof BoundedRangeDp b) {
            return Tracks.ofRho(halfSquareUp(pureToMu(Decimals.toDoubleUp(b.epsilon()))), BigDecimal.ZERO);
        } else if (loss instanceof Zcdp || loss instanceof ApproxZcdp || loss instanceof ApproxDp) {
            throw new IncompatibleLossException(budget.mode(), loss, "GDP accounting charges Gaussian and pure "
                    + "epsilon-DP mechanisms only; use ZCDP or BASIC accounting for this mechanism");
        }
        throw new IncompatibleLossException(budget.mode(), loss, "unknown loss");
    }

    @Override
    public ApproxDp guarantee(Tracks spent) {
        if (spent.rho().signum() == 0) {
            return new ApproxDp(BigDecimal.ZERO, BigDecimal.ZERO);
        }
        double mu = Math.nextUp(Math.sqrt(2 * Decimals.toDoubleUp(spent.rho())));
        double epsilon = Conversions.gdpEpsilon(mu, Decimals.toDoubleDown(budget.delta()));
        BigDecimal eps = Decimals.exact(epsilon).round(Decimals.UP_SHORT);
        // The filter certifies (ε_B, δ_B) for whatever it admitted; the conversion above may round past it.
        return new ApproxDp(eps.min(budget.epsilon()), budget.delta());
    }

    /** The largest ε whose pure-DP charge still fits, rounded down. */
    @Override
    public BigDecimal largestPureEpsilon(Tracks spent) {
        BigDecimal remaining = remaining(spent).rho();
        if (remaining.signum() == 0) {
            return BigDecimal.ZERO;
        }
        double mu = Math.sqrt(2 * Decimals.toDoubleDown(remaining));
        // Inverse of pureToMu: ε = log(Φ(μ/2)/Φ(−μ/2)), then backed off until the charge fits.
        double epsilon = (StandardNormal.logCdf(mu / 2) - StandardNormal.logCdf(-mu / 2)) * (1 - 1e-9);
        for (int i = 0; i < 64 && epsilon > 0; i++) {
            BigDecimal candidate = Decimals.exact(epsilon).round(Decimals.DOWN_SHORT);
            if (halfSquareUp(pureToMu(Decimals.toDoubleUp(candidate))).compareTo(remaining) <= 0) {
                return candidate.stripTrailingZeros();
            }
            epsilon *= 1 - 1e-6;
        }
        return BigDecimal.ZERO;
    }

    /** Largest μ with {@link Conversions#gdpDelta}(μ, ε) ≤ δ, by bisection (rounded down). */
    static double largestMu(double epsilon, double delta) {
        double lo = 0;
        double hi = 1;
        while (Conversions.gdpDelta(hi, epsilon) <= delta) {
            lo = hi;
            hi *= 2;
        }
        for (int i = 0; i < 400 && (lo == 0 || hi - lo > 1e-14 * lo); i++) {
            double mid = lo == 0 && hi < 1e-300 ? hi / 2 : 0.5 * (lo + hi);
            if (Conversions.gdpDelta(mid, epsilon) <= delta) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * An upper bound on the μ with which ε-DP implies μ-GDP: the smallest μ with
     * Φ(−μ/2) ≤ 1/(1+e^ε), i.e. log Φ(−μ/2) ≤ −log(1+e^ε), with a margin for the evaluation of Φ.
     */
    static double pureToMu(double epsilon) {
        if (epsilon == 0) {
            return 0;
        }
        double target = -(epsilon + Math.log1p(Math.exp(-epsilon)));
        double lo = 0;
        double hi = 1;
        while (!below(hi, target)) {
            lo = hi;
            hi *= 2;
        }
        for (int i = 0; i < 400 && hi - lo > 1e-15 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (below(mid, target)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return Math.nextUp(hi * (1 + 1e-12));
    }

    private static boolean below(double mu, double target) {
        double value = StandardNormal.logCdf(-mu / 2);
        // Φ is evaluated to ~1e-13 relative (see Conversions.gdpDelta): demand that much slack.
        return value + 1e-12 * (1 + Math.abs(value)) <= target;
    }

    private static BigDecimal halfSquareUp(double mu) {
        BigDecimal m = Decimals.exact(mu);
        return m.multiply(m).divide(BigDecimal.valueOf(2), Decimals.UP);
    }
}
